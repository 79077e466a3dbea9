import { useId, useRef, useState, type RefObject, type SubmitEvent } from 'react';
import { apiFetch } from '../../lib/identity/session.ts';
import { LoadingButton } from '../../components/ui/LoadingButton.tsx';
import { failureMessages, outcomeOf, ProfileSchema, thrown, type Profile } from './api-client.ts';
import { NoticeRegion, type Notice } from './Notice.tsx';
import { FIELD_MAX_LENGTH, missingRequired } from './schema.ts';
import type { AccountMessages, Option } from './messages.ts';

const FIELDS = ['firstName', 'lastName', 'company', 'email', 'telephone', 'address', 'postalCode', 'city', 'country', 'language'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

const AUTOCOMPLETE: Record<Field, string> = {
  firstName: 'given-name', lastName: 'family-name', company: 'organization', email: 'email', telephone: 'tel', address: 'address-line1',
  postalCode: 'postal-code', city: 'address-level2', country: 'country', language: 'off',
};
const INPUT_TYPE: Partial<Record<Field, string>> = { email: 'email', telephone: 'tel' };
const REQUIRED_MESSAGE = { firstName: 'account.firstNameRequired', lastName: 'account.lastNameRequired' } as const;

interface Props {
  profile: Profile;
  readOnly: boolean;
  countries: Option[];
  languages: Option[];
  numbers: Intl.NumberFormat;
  m: AccountMessages;
  onSaved: (profile: Profile) => void;
}

const valuesOf = (p: Profile): Values => Object.fromEntries(FIELDS.map((f) => [f, p[f]])) as Values;

/**
 * The form's values, errors and notice, and its save: the required fields checked first, then a
 * PATCH whose answer becomes the saved values, field errors or a notice.
 */
function useProfileEditor({ profile, readOnly, numbers, m, onSaved }: Omit<Props, 'countries' | 'languages'>, formRef: RefObject<HTMLFormElement | null>) {
  const [values, setValues] = useState<Values>(() => valuesOf(profile));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<Notice>(null);

  const required = (v: Values) => Object.fromEntries(missingRequired(v).map((f) => [f, [m[REQUIRED_MESSAGE[f]]]])) as Record<string, string[]>;
  const focusFirst = (errs: Record<string, string[]>) => {
    const first = FIELDS.find((f) => errs[f]?.length);
    if (first) requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
  };

  const onSubmit = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (readOnly || saving) return;
    const missing = required(values);
    if (Object.keys(missing).length) {
      setErrors(missing);
      setNotice({ type: 'error', message: m['account.profile.invalid'] });
      focusFirst(missing);
      return;
    }
    setErrors({});
    setNotice(null);
    setSaving(true);
    const body = Object.fromEntries(FIELDS.map((f) => [f, values[f].trim()]));
    const outcome = await apiFetch('/api/account/profile', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then((res) => outcomeOf(res, ProfileSchema), thrown);
    setSaving(false);
    if (outcome.kind === 'ok') {
      setValues(valuesOf(outcome.value));
      onSaved(outcome.value);
      setNotice({ type: 'success', message: m['account.profile.saved'] });
    } else if (outcome.kind === 'invalid') {
      const errs = failureMessages(outcome.failures, m, numbers, (f) => ((FIELDS as readonly string[]).includes(f) ? f : null));
      setErrors(errs);
      setNotice({ type: 'error', message: [m['account.profile.invalid'], ...(errs[''] ?? [])].join(' ') });
      focusFirst(errs);
    } else {
      // A change that may have been applied is not reported as "could not be saved": saving the same values again is harmless.
      setNotice({ type: 'error', message: m[outcome.kind === 'failed' && outcome.unknown ? 'account.profile.unknownOutcome' : 'account.profile.failed'], detail: outcome.detail });
    }
  };
  return { values, setValues, errors, setErrors, saving, notice, setNotice, required, onSubmit };
}

/** The profile (spec customer-area §3, §5): first and last name required; identity management checks the rest. */
export function ProfileForm({ profile, readOnly, countries, languages, numbers, m, onSaved }: Props) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const { values, setValues, errors, setErrors, saving, notice, setNotice, required, onSubmit } = useProfileEditor({ profile, readOnly, numbers, m, onSaved }, formRef);
  const label = (f: Field) => m[`account.${f}`];

  const fieldProps = (f: Field) => ({
    id: `${id}-${f}`,
    name: f,
    value: values[f],
    autoComplete: AUTOCOMPLETE[f],
    'aria-invalid': errors[f]?.length ? true : undefined,
    'aria-describedby': errors[f]?.length ? `${id}-${f}-error` : undefined,
    'aria-required': f in REQUIRED_MESSAGE ? true : undefined,
    onChange: (e: { target: { value: string } }) => {
      const next = { ...values, [f]: e.target.value };
      setValues(next);
      if (errors[f] && f in REQUIRED_MESSAGE) setErrors((old) => ({ ...old, [f]: required(next)[f] ?? [] }));
    },
  });
  const error = (f: Field) => errors[f]?.length ? <p className="field__error" id={`${id}-${f}-error`}>{errors[f]!.join(' · ')}</p> : null;
  const input = (f: Field) => (
    <div className="field">
      <label htmlFor={`${id}-${f}`}>{label(f)}{f in REQUIRED_MESSAGE && !readOnly ? <span aria-hidden="true"> *</span> : null}</label>
      <input {...fieldProps(f)} type={INPUT_TYPE[f] ?? 'text'} readOnly={readOnly} maxLength={FIELD_MAX_LENGTH[f as keyof typeof FIELD_MAX_LENGTH]} />
      {error(f)}
    </div>
  );
  const select = (f: 'country' | 'language', options: Option[]) => {
    // A stored value we do not offer stays selectable, so saving never changes it unasked.
    const all = values[f] && !options.some((o) => o.code === values[f]) ? [...options, { code: values[f], name: values[f] }] : options;
    return (
      <div className="field">
        <label htmlFor={`${id}-${f}`}>{label(f)}</label>
        <select {...fieldProps(f)} disabled={readOnly}>
          <option value="">{m['account.selectPlaceholder']}</option>
          {all.map((o) => <option key={o.code} value={o.code}>{o.name}</option>)}
        </select>
        {error(f)}
      </div>
    );
  };

  return (
    <form ref={formRef} className="account-form" noValidate onSubmit={(e) => void onSubmit(e)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{m['account.profile.title']}</h2>
      {!readOnly && <p className="account-form__hint">{m['account.profile.requiredHint']}</p>}
      <div className="field">
        <label htmlFor={`${id}-userName`}>{m['account.userName']}</label>
        <input id={`${id}-userName`} type="text" value={profile.userName} readOnly />
      </div>
      <div className="account-form__row">{input('firstName')}{input('lastName')}</div>
      <div className="account-form__row">{input('email')}{input('telephone')}</div>
      {input('company')}
      {input('address')}
      <div className="account-form__row">{input('postalCode')}{input('city')}</div>
      <div className="account-form__row">{select('country', countries)}{select('language', languages)}</div>
      {!readOnly && (
        <>
          <NoticeRegion notice={notice} m={m} onHide={() => setNotice(null)} />
          <LoadingButton type="submit" loading={saving} loadingLabel={m['account.profile.saving']}>{m['account.profile.save']}</LoadingButton>
        </>
      )}
    </form>
  );
}
