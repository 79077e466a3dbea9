import { useId, useRef, useState, type SubmitEvent } from 'react';
import { apiFetch } from '../../lib/identity/session.ts';
import { LoadingButton } from '../../components/ui/LoadingButton.tsx';
import { failureMessages, outcomeOf, thrown } from './api-client.ts';
import { NoticeRegion, type Notice } from './Notice.tsx';
import type { AccountMessages } from './messages.ts';

const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
type Field = (typeof FIELDS)[number];
const LABEL = { currentPassword: 'account.password.current', newPassword: 'account.password.new', confirmPassword: 'account.password.confirm' } as const;
const REQUIRED = { currentPassword: 'account.password.currentRequired', newPassword: 'account.password.newRequired', confirmPassword: 'account.password.confirmRequired' } as const;
const AUTOCOMPLETE = { currentPassword: 'current-password', newPassword: 'new-password', confirmPassword: 'new-password' } as const;
const EMPTY = { currentPassword: '', newPassword: '', confirmPassword: '' };

/**
 * The password change: current, new and confirmation. Identity management checks the current
 * password and its policy; each failed requirement shows its translated message with its bound.
 */
export function PasswordForm({ numbers, m }: { numbers: Intl.NumberFormat; m: AccountMessages }) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<Record<Field, string>>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const check = (v: Record<Field, string>): Record<string, string[]> => {
    const errs: Record<string, string[]> = {};
    for (const f of FIELDS) if (!v[f]) errs[f] = [m[REQUIRED[f]]];
    if (!errs.confirmPassword && v.newPassword && v.confirmPassword !== v.newPassword) errs.confirmPassword = [m['account.password.mismatch']];
    return errs;
  };
  const focusFirst = (errs: Record<string, string[]>) => {
    const first = FIELDS.find((f) => errs[f]?.length);
    if (first) requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
  };

  const onSubmit = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (sending) return;
    const errs = check(values);
    if (Object.keys(errs).length) {
      setErrors(errs);
      setNotice(null);
      focusFirst(errs);
      return;
    }
    setErrors({});
    setNotice(null);
    setSending(true);
    const outcome = await apiFetch('/api/account/password', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ currentPassword: values.currentPassword, newPassword: values.newPassword }),
    }).then((res) => outcomeOf(res), thrown);
    setSending(false);
    if (outcome.kind === 'ok') {
      setValues(EMPTY);
      setNotice({ type: 'success', message: m['account.password.changed'] });
    } else if (outcome.kind === 'invalid') {
      const fieldErrors = failureMessages(outcome.failures, m, numbers, (f) => (f === 'currentPassword' ? f : 'newPassword'));
      setErrors(fieldErrors);
      focusFirst(fieldErrors);
    } else {
      setNotice({ type: 'error', message: m['account.password.failed'], detail: outcome.detail });
    }
  };

  return (
    <form ref={formRef} className="account-form" noValidate onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{m['account.password.title']}</h2>
      {FIELDS.map((f) => (
        <div className="field" key={f}>
          <label htmlFor={`${id}-${f}`}>{m[LABEL[f]]}</label>
          <input
            id={`${id}-${f}`} name={f} type="password" value={values[f]} autoComplete={AUTOCOMPLETE[f]} aria-required
            aria-invalid={errors[f]?.length ? true : undefined} aria-describedby={errors[f]?.length ? `${id}-${f}-error` : undefined}
            onChange={(e) => setValues({ ...values, [f]: e.target.value })}
          />
          {errors[f]?.length ? (
            errors[f]!.length === 1
              ? <p className="field__error" id={`${id}-${f}-error`}>{errors[f]![0]}</p>
              : <ul className="field__error" id={`${id}-${f}-error`}>{errors[f]!.map((text) => <li key={text}>{text}</li>)}</ul>
          ) : null}
        </div>
      ))}
      <NoticeRegion notice={notice} m={m} onHide={() => setNotice(null)} />
      <LoadingButton type="submit" loading={sending} loadingLabel={m['account.password.changing']}>{m['account.password.submit']}</LoadingButton>
    </form>
  );
}
