import { useId, useRef, useState, type SubmitEvent } from 'react';
import { FlashMessage } from '../../components/ui/FlashMessage.tsx';
import { LoadingButton } from '../../components/ui/LoadingButton.tsx';
import { FEEDBACK_FIELDS, FEEDBACK_MAX_LENGTH, validateFeedback, type FeedbackErrors, type FeedbackField, type FeedbackValues } from './feedback-schema.ts';
import { sendFeedback } from './feedback-api-client.ts';
import { useHydrated } from '../../components/ui/use-hydrated.ts';
import { fill, type IslandMessages } from '../../i18n/island.ts';

/** The locale keys this island shows (see i18n/island.ts), the validation messages included. */
export const MESSAGE_KEYS = [
  'feedback.firstName', 'feedback.lastName', 'feedback.company', 'feedback.country', 'feedback.countryPlaceholder', 'feedback.message',
  'feedback.allRequired', 'feedback.submit', 'feedback.sending', 'feedback.success', 'feedback.failure', 'flash.success', 'flash.error',
  'flash.dismiss', 'feedback.firstNameRequired', 'feedback.lastNameRequired', 'feedback.companyRequired', 'feedback.countryRequired',
  'feedback.messageRequired', 'feedback.tooLong', 'feedback.invalid',
] as const;

interface Props {
  storySlug: string;
  /** Locale code of the page, so the server answers in the same language. */
  locale: string;
  countries: { code: string; name: string }[];
  messages: IslandMessages<typeof MESSAGE_KEYS>;
}

type Status = 'editing' | 'sending' | 'sent' | 'failed';
const EMPTY: FeedbackValues = { firstName: '', lastName: '', company: '', country: '', message: '' };

/** The feedback form under a story: checked here with the server's valibot schema, then sent to POST /api/story-feedback. */
export function FeedbackForm({ storySlug, locale, countries, messages: m }: Props) {
  const id = useId();
  const [values, setValues] = useState<FeedbackValues>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FeedbackField, string>>>({});
  const [status, setStatus] = useState<Status>('editing');
  const [attempted, setAttempted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // Sending needs this island: until it has hydrated the button stays disabled (no native submit).
  const ready = useHydrated();
  const codes = countries.map((c) => c.code);

  const messageOf = (errs: FeedbackErrors) => Object.fromEntries(Object.entries(errs).map(([f, issue]) => [
    f, fill((m as Record<string, string | undefined>)[issue.key] ?? issue.key, issue.params ?? {}),
  ])) as Partial<Record<FeedbackField, string>>;

  const focusFirstInvalid = (fields: Partial<Record<FeedbackField, string>>) => {
    const first = FEEDBACK_FIELDS.find((f) => fields[f]);
    if (first) requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus());
  };

  const update = (field: FeedbackField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (attempted) {
      const checked = validateFeedback(next, codes);
      setErrors(checked.ok ? {} : messageOf(checked.errors));
    }
  };

  const onSubmit = async (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    setAttempted(true);
    const checked = validateFeedback(values, codes);
    if (!checked.ok) {
      const fields = messageOf(checked.errors);
      setErrors(fields);
      focusFirstInvalid(fields);
      return;
    }
    setErrors({});
    setStatus('sending');
    const result = await sendFeedback({ lang: locale, storySlug, ...checked.value });
    if (result.kind === 'sent') setStatus('sent');
    else if (result.kind === 'invalid') {
      setErrors(result.fields);
      setStatus('editing');
      focusFirstInvalid(result.fields);
    } else setStatus('failed');
  };

  if (status === 'sent') {
    return <FlashMessage type="success" static message={m['feedback.success']} typeLabel={m['flash.success']} dismissLabel={m['flash.dismiss']} />;
  }

  const field = (name: FeedbackField) => ({
    id: `${id}-${name}`,
    name,
    value: values[name],
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${id}-${name}-error` : undefined,
    'aria-required': true,
  });
  const error = (name: FeedbackField) => errors[name] && <p className="field__error" id={`${id}-${name}-error`}>{errors[name]}</p>;

  return (
    <form ref={formRef} className="feedback-form" noValidate onSubmit={(e) => void onSubmit(e)}>
      <p className="feedback-form__hint">{m['feedback.allRequired']}</p>
      {status === 'failed' && <FlashMessage type="error" message={m['feedback.failure']} typeLabel={m['flash.error']} dismissLabel={m['flash.dismiss']} onHide={() => setStatus('editing')} />}
      <div className="feedback-form__row">
        <div className="field">
          <label htmlFor={`${id}-firstName`}>{m['feedback.firstName']}</label>
          <input {...field('firstName')} type="text" autoComplete="given-name" maxLength={FEEDBACK_MAX_LENGTH.firstName} onChange={(e) => update('firstName', e.target.value)} />
          {error('firstName')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-lastName`}>{m['feedback.lastName']}</label>
          <input {...field('lastName')} type="text" autoComplete="family-name" maxLength={FEEDBACK_MAX_LENGTH.lastName} onChange={(e) => update('lastName', e.target.value)} />
          {error('lastName')}
        </div>
      </div>
      <div className="feedback-form__row">
        <div className="field">
          <label htmlFor={`${id}-company`}>{m['feedback.company']}</label>
          <input {...field('company')} type="text" autoComplete="organization" maxLength={FEEDBACK_MAX_LENGTH.company} onChange={(e) => update('company', e.target.value)} />
          {error('company')}
        </div>
        <div className="field">
          <label htmlFor={`${id}-country`}>{m['feedback.country']}</label>
          <select {...field('country')} autoComplete="country" onChange={(e) => update('country', e.target.value)}>
            <option value="">{m['feedback.countryPlaceholder']}</option>
            {countries.map((c) => <option key={c.code} value={c.code}>{c.name}</option>)}
          </select>
          {error('country')}
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-message`}>{m['feedback.message']}</label>
        <textarea {...field('message')} rows={6} onChange={(e) => update('message', e.target.value)} />
        {error('message')}
      </div>
      <LoadingButton type="submit" disabled={!ready} loading={status === 'sending'} loadingLabel={m['feedback.sending']}>{m['feedback.submit']}</LoadingButton>
    </form>
  );
}
