import { useEffect, useMemo, useState } from 'react';
import { apiFetch, ensureSession } from '../../lib/identity/session.ts';
import { outcomeOf, ProfileSchema, thrown, type Profile } from './api-client.ts';
import { DeleteSection, MfaSection } from './DangerZone.tsx';
import { PasswordForm } from './PasswordForm.tsx';
import { ProfileForm } from './ProfileForm.tsx';
import type { AccountMessages, Option } from './messages.ts';

export { MESSAGE_KEYS } from './messages.ts';

interface Props {
  countries: Option[];
  languages: Option[];
  /** Intl locale for numbers (German as de-CH). */
  numberLocale: string;
  messages: AccountMessages;
}

type State = { kind: 'loading' } | { kind: 'ready'; profile: Profile } | { kind: 'failed'; detail: string };

/**
 * Account settings (spec customer-area §2, §5, §6): profile, password, MFA reset, deletion. The
 * server renders the loading state only (no personal data); the profile comes from
 * GET /api/account/profile once the session is ready. Internal employees see profile and password
 * read-only, with the reason, and can still reset their MFA device.
 */
export function AccountSettings({ countries, languages, numberLocale, messages: m }: Props) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const numbers = useMemo(() => new Intl.NumberFormat(numberLocale), [numberLocale]);
  useEffect(() => {
    let live = true;
    ensureSession()
      .then(() => apiFetch('/api/account/profile'))
      .then((res) => outcomeOf(res, ProfileSchema), thrown)
      .then((outcome) => {
        if (!live) return;
        if (outcome.kind === 'ok') setState({ kind: 'ready', profile: outcome.value });
        else setState({ kind: 'failed', detail: outcome.kind === 'invalid' ? outcome.failures.map((f) => f.code).join(', ') : outcome.detail });
      });
    return () => { live = false; };
  }, []);

  if (state.kind === 'loading') {
    return (
      <div className="account" aria-busy="true">
        <p className="account__loading">{m['account.loading']}</p>
        <div className="account__skeleton" aria-hidden="true"><span /><span /><span /><span /></div>
      </div>
    );
  }
  if (state.kind === 'failed') {
    return (
      <div className="account__error" role="alert">
        <h2>{m['account.error.title']}</h2>
        <details>
          <summary>{m['account.error.details']}</summary>
          <pre>{state.detail}</pre>
        </details>
      </div>
    );
  }
  const { profile } = state;
  const internal = profile.internallyManaged;
  return (
    <div className="account">
      {internal && (
        <div className="account__internal" role="note" aria-labelledby="account-internal-title">
          <h2 id="account-internal-title">{m['account.internal.title']}</h2>
          <p>{m['account.internal.text']}</p>
        </div>
      )}
      <ProfileForm profile={profile} readOnly={internal} countries={countries} languages={languages} numbers={numbers} m={m} onSaved={(p) => setState({ kind: 'ready', profile: p })} />
      {internal ? (
        <section className="account-section" aria-labelledby="account-password-title">
          <h2 id="account-password-title">{m['account.password.title']}</h2>
          <p>{m['account.internal.text']}</p>
        </section>
      ) : <PasswordForm numbers={numbers} m={m} />}
      <MfaSection devices={profile.mfaDevices} numbers={numbers} m={m} onReset={() => setState({ kind: 'ready', profile: { ...profile, mfaDevices: 0 } })} />
      {!internal && <DeleteSection m={m} />}
    </div>
  );
}
