import { useEffect, useState } from 'react';
import { ensureSession, type AuthenticatedUser } from '../../lib/identity/session.ts';
import { fill, type Messages as KeyedMessages } from '../../i18n/island.ts';
import { hasServiceAccess, type CustomerService } from './access.ts';
import type { ServicePaths } from './paths.ts';

/*
 * The island kit of the customer services (tickets, inventory, wire-flow): the session gate, the
 * loading skeleton, the spec's failure and no-access texts with the support contact, and `tr` over
 * typed messages (a key the island did not ask for in its MESSAGE_KEYS does not compile).
 */

/** Komax service's contact (the content hub's customer-area settings); islands get it as the `support` prop. */
export interface SupportContactInfo {
  email: string;
  /** Digits, spaces and +, as written for people; the `tel:` link drops the spaces. */
  phone: string;
}

/** The keys the kit's pieces below show; every island spreads them into its MESSAGE_KEYS. */
export const SHARED_KEYS = [
  'serviceError.title', 'serviceError.text', 'serviceError.contact', 'serviceError.details', 'serviceError.retry',
  'serviceError.noAccessTitle', 'serviceError.noAccessText', 'serviceError.noAccessHow', 'serviceError.noAccessAsk', 'serviceError.toDashboard', 'serviceError.loading',
  'serviceError.signInFailed', 'serviceError.unknownOutcome', 'serviceError.uploadStalled',
] as const;
export type SharedKey = (typeof SHARED_KEYS)[number];

/** UI strings a customer-service island gets as a prop: its own keys (of locales/en.json) and the kit's. */
export type Messages<K extends string = never> = Readonly<KeyedMessages<K | SharedKey>>;

/** What every customer-service island (tickets, inventory, wire-flow) gets from its page; K: the island's keys. */
export interface ServiceIslandProps<K extends string = never> {
  messages: Messages<K>;
  /** Intl locale of the page (de-CH for German). */
  locale: string;
  paths: ServicePaths;
  /** Komax service's contact from the content hub; null hides the contact line. */
  support: SupportContactInfo | null;
}

/** A translated string of the island's messages with its placeholders filled. */
export function tr<K extends string>(m: Readonly<KeyedMessages<K>>, key: NoInfer<K>, values: Record<string, string | number> = {}): string {
  // A key missing at run time (messages built without the island's list) shows the key, as before.
  return fill((m[key] as string | undefined) ?? key, values);
}

export type SessionState =
  | { kind: 'loading' }
  | { kind: 'denied' }
  | { kind: 'ready'; user: AuthenticatedUser }
  | { kind: 'failed'; detail: string };

/** The signed-in user once the session is ready, and whether their roles open the service. */
export function useServiceSession(service: CustomerService): SessionState {
  const [state, setState] = useState<SessionState>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    ensureSession().then(({ user }) => {
      if (live) setState(hasServiceAccess(user.roles, service) ? { kind: 'ready', user } : { kind: 'denied' });
    }, (err: unknown) => {
      if (live) setState({ kind: 'failed', detail: err instanceof Error ? err.message : String(err) });
    });
    return () => { live = false; };
  }, [service]);
  return state;
}

/**
 * What a service page shows while it loads: the status text and a skeleton about the size of the
 * content that replaces it (issue 29 item 17), so the page does not collapse and grow again.
 */
export function Loading({ m, label }: { m: Messages; label?: string }) {
  return (
    <div className="services__skeleton" role="status">
      <p className="services__loading">{label ?? m['serviceError.loading']}</p>
      <div className="services__skeleton-rows" aria-hidden="true">{SKELETON_ROWS.map((i) => <span key={i} />)}</div>
    </div>
  );
}
const SKELETON_ROWS = [0, 1, 2, 3, 4, 5];

/**
 * What a failed write leaves open: `unknown` when it may have happened (no answer, 502, 504, 409:
 * the screen says so, and that sending it again with the same key is safe), `stalled` when the
 * visitor's upload stopped arriving (408: nothing was saved).
 */
export interface WriteFailure {
  detail: string;
  unknown?: boolean;
  stalled?: boolean;
}

/** A thrown error as a write failure (TicketingError says whether its outcome is unknown). */
export function writeFailure(err: unknown): WriteFailure {
  const e = err as { outcomeUnknown?: unknown; stalled?: unknown };
  return { detail: detailOf(err), ...(e?.outcomeUnknown === true ? { unknown: true } : {}), ...(e?.stalled === true ? { stalled: true } : {}) };
}

/**
 * The spec's failure text for ticket, comment, close and upload failures (§8), with the support
 * contact (none when the content hub could not give one) and the technical detail folded away;
 * for a write whose outcome is unknown, the truth about it (see WriteFailure).
 */
export function ServiceError({ m, support, detail, retry, headingLevel = 2, unknown, stalled }: { m: Messages; support: SupportContactInfo | null; detail?: string; retry?: () => void; headingLevel?: 2 | 3 } & Partial<WriteFailure>) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="services__error" role="alert">
      <Heading className="services__error-title">{m['serviceError.title']}</Heading>
      <p>{m['serviceError.text']}</p>
      {stalled && <p className="services__error-outcome">{m['serviceError.uploadStalled']}</p>}
      {unknown && <p className="services__error-outcome">{m['serviceError.unknownOutcome']}</p>}
      {support && <SupportContact m={m} support={support} />}
      {detail && (
        <details>
          <summary>{m['serviceError.details']}</summary>
          <pre>{detail}</pre>
        </details>
      )}
      {retry && <button type="button" className="btn btn--secondary" onClick={retry}>{m['serviceError.retry']}</button>}
    </div>
  );
}

export function SupportContact({ m, support }: { m: Messages; support: SupportContactInfo }) {
  const [before = '', middle = '', after = ''] = m['serviceError.contact'].split(/\{\{(?:email|phone)\}\}/);
  return (
    <p className="services__contact">
      {before}<a href={`mailto:${support.email}`}>{support.email}</a>{middle}<a href={`tel:${support.phone.replace(/\s/g, '')}`}>{support.phone}</a>{after}
    </p>
  );
}

/** A signed-in user without the service's role: why, and how to get access (instead of a broken page). */
export function NoAccess({ m, service, dashboard, support }: { m: Messages; service: string; dashboard: string; support: SupportContactInfo | null }) {
  return (
    <div className="services__no-access">
      <h2>{tr(m, 'serviceError.noAccessTitle', { service })}</h2>
      <p>{tr(m, 'serviceError.noAccessText', { service })}</p>
      <p>{support ? tr(m, 'serviceError.noAccessHow', { email: support.email }) : m['serviceError.noAccessAsk']}</p>
      <a className="btn" href={dashboard}>{m['serviceError.toDashboard']}</a>
    </div>
  );
}

/**
 * What every service island shows before its own content: loading, no access, or the sign-in
 * failure; `null` when the session is ready and the user may use the service.
 */
export function Gate({ state, m, service, dashboard, support }: { state: SessionState; m: Messages; service: string; dashboard: string; support: SupportContactInfo | null }) {
  if (state.kind === 'loading') return <Loading m={m} />;
  if (state.kind === 'denied') return <NoAccess m={m} service={service} dashboard={dashboard} support={support} />;
  if (state.kind === 'failed') {
    return (
      <div className="services__error" role="alert">
        <h2 className="services__error-title">{m['serviceError.signInFailed']}</h2>
        <pre>{state.detail}</pre>
      </div>
    );
  }
  return null;
}

/** The detail of an error for the "technical details" fold. */
export const detailOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
