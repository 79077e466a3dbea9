import { useEffect, useState } from 'react';
import { ensureSession, type AuthenticatedUser } from '../../lib/identity/session.ts';
import { fill } from '../../i18n/island.ts';
import { hasServiceAccess, type CustomerService } from './access.ts';
import { SUPPORT_CONTACT } from './support.ts';

/** UI strings islands of the customer services get as a prop (keys of locales/en.json). */
export type Messages = Readonly<Record<string, string>>;

/** The keys the shared pieces below show; every island spreads them into its MESSAGE_KEYS. */
export const SHARED_KEYS = [
  'serviceError.title', 'serviceError.text', 'serviceError.contact', 'serviceError.details', 'serviceError.retry',
  'serviceError.noAccessTitle', 'serviceError.noAccessText', 'serviceError.noAccessHow', 'serviceError.toDashboard', 'serviceError.loading',
  'serviceError.signInFailed',
] as const;

/** A translated string with its placeholders filled. */
export const tr = (m: Messages, key: string, values: Record<string, string | number> = {}) => fill(m[key] ?? key, values);

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

export function Loading({ m, label }: { m: Messages; label?: string }) {
  return <p className="services__loading" role="status">{label ?? m['serviceError.loading']}</p>;
}

/**
 * The spec's failure text for ticket, comment, close and upload failures (§8), with the support
 * contact and the technical detail folded away.
 */
export function ServiceError({ m, detail, retry, headingLevel = 2 }: { m: Messages; detail?: string; retry?: () => void; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="services__error" role="alert">
      <Heading className="services__error-title">{m['serviceError.title']}</Heading>
      <p>{m['serviceError.text']}</p>
      <SupportContact m={m} />
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

export function SupportContact({ m }: { m: Messages }) {
  const [before = '', middle = '', after = ''] = m['serviceError.contact']!.split(/\{\{(?:email|phone)\}\}/);
  return (
    <p className="services__contact">
      {before}<a href={`mailto:${SUPPORT_CONTACT.email}`}>{SUPPORT_CONTACT.email}</a>{middle}<a href={`tel:${SUPPORT_CONTACT.phone.replace(/\s/g, '')}`}>{SUPPORT_CONTACT.phone}</a>{after}
    </p>
  );
}

/** A signed-in user without the service's role: why, and how to get access (instead of a broken page). */
export function NoAccess({ m, service, dashboard }: { m: Messages; service: string; dashboard: string }) {
  return (
    <div className="services__no-access">
      <h2>{tr(m, 'serviceError.noAccessTitle', { service })}</h2>
      <p>{tr(m, 'serviceError.noAccessText', { service })}</p>
      <p>{tr(m, 'serviceError.noAccessHow', { email: SUPPORT_CONTACT.email })}</p>
      <a className="btn" href={dashboard}>{m['serviceError.toDashboard']}</a>
    </div>
  );
}

/**
 * What every service island shows before its own content: loading, no access, or the sign-in
 * failure; `null` when the session is ready and the user may use the service.
 */
export function Gate({ state, m, service, dashboard }: { state: SessionState; m: Messages; service: string; dashboard: string }) {
  if (state.kind === 'loading') return <Loading m={m} />;
  if (state.kind === 'denied') return <NoAccess m={m} service={service} dashboard={dashboard} />;
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
