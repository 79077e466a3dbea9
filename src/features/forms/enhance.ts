import { formatIdempotencyKey, IDEMPOTENCY_HEADER, keyHolder, outcomeUnknown } from '../../lib/idempotency/key.ts';
import { countryHasStates } from '../../site/address.ts';
import { isFormKind, type FormKind } from './definitions.ts';
import { validateForm, type FormErrors } from './schema.ts';
import { formApiPath } from './paths.ts';

/**
 * Progressive enhancement of the server-rendered request forms (FormView.astro): checks the input
 * with the form's valibot schema before sending (the spec's messages, from the form's
 * `data-messages`), then sends JSON to POST /api/forms/{kind} and shows success or failure in the
 * live region without leaving the page. Without this script the form posts to its form page.
 * Each post carries an idempotency key made when the form is enhanced (the visitor started on it)
 * and kept for every retry of the same content: when the answer does not come or says the outcome
 * is unknown, the visitor may send again and the submission is still stored once.
 */

type Input = Record<string, string | boolean>;

/** The form's values as the schema reads them: checkboxes as booleans, the checked radio's value. */
export function collect(form: HTMLFormElement): Input {
  const out: Input = {};
  for (const el of Array.from(form.elements) as (HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement)[]) {
    if (!el.name || el.disabled || el.name === 'returnTo') continue;
    if (el instanceof HTMLInputElement && el.type === 'checkbox') out[el.name] = el.checked;
    else if (el instanceof HTMLInputElement && el.type === 'radio') { if (el.checked) out[el.name] = el.value; }
    else out[el.name] = el.value;
  }
  return out;
}

/** The errors beside their fields (aria-invalid on the inputs) and in the summary, whose links focus the field. */
function showErrors(form: HTMLFormElement, summary: HTMLElement, errors: Record<string, string>, focusSummary: boolean): void {
  const fieldOf = (name: string) => form.querySelector<HTMLElement>(`[data-input][name="${name}"]`);
  for (const slot of Array.from(form.querySelectorAll<HTMLElement>('[data-error-for]'))) {
    const name = slot.dataset.errorFor!;
    slot.textContent = errors[name] ?? '';
    form.querySelectorAll<HTMLElement>(`[data-input][name="${name}"]`).forEach((el) => {
      if (errors[name]) el.setAttribute('aria-invalid', 'true');
      else el.removeAttribute('aria-invalid');
    });
  }
  const list = summary.querySelector('ul')!;
  list.replaceChildren(...Object.entries(errors).map(([name, message]) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    const target = fieldOf(name);
    a.href = `#${target?.id ?? ''}`;
    a.textContent = message;
    a.addEventListener('click', (e) => { e.preventDefault(); target?.focus(); });
    li.append(a);
    return li;
  }));
  summary.hidden = Object.keys(errors).length === 0;
  if (focusSummary && !summary.hidden) summary.focus();
}

/** A flash message in the live region (with the download link when there is one), which takes the focus. */
function sayIn(status: HTMLElement, kind: 'success' | 'error', message: string, download?: { href: string; label: string }): void {
  const box = document.createElement('div');
  box.className = `flash flash--${kind}`;
  const p = document.createElement('p');
  p.className = 'flash__text';
  p.textContent = message;
  if (download) {
    const a = document.createElement('a');
    a.href = download.href;
    a.dataset.download = '';
    a.textContent = download.label;
    p.append(' ', a);
  }
  box.append(p);
  status.replaceChildren(box);
  status.focus();
}

/** A state field is marked required only while its country has states (the schema's rule). */
function followCountries(form: HTMLFormElement): void {
  for (const field of Array.from(form.querySelectorAll<HTMLElement>('[data-state-of]'))) {
    const country = form.querySelector<HTMLSelectElement>(`select[name="${field.dataset.stateOf}"]`);
    const has = countryHasStates(country?.value);
    field.querySelector<HTMLElement>('[data-required-mark]')?.toggleAttribute('hidden', !has);
    const input = field.querySelector<HTMLInputElement>('[data-input]');
    // Fields of a revealed section are never marked `required` (they are needed only when shown).
    if (input && !field.closest('[data-revealed-by]')) input.required = has;
  }
}

function enhance(form: HTMLFormElement, kind: FormKind): void {
  const root = form.closest<HTMLElement>('[data-form-root]') ?? form.parentElement!;
  const status = root.querySelector<HTMLElement>('[data-status]')!;
  const summary = form.querySelector<HTMLElement>('[data-summary]')!;
  const submit = form.querySelector<HTMLButtonElement>('[data-submit]')!;
  const messages = JSON.parse(form.dataset.messages ?? '{}') as Record<string, string>;
  const text = (key: string) => messages[key] ?? key;
  const countries = Array.from(form.querySelectorAll<HTMLOptionElement>('select[data-country] option')).map((o) => o.value).filter(Boolean);
  const keys = keyHolder();
  let attempted = false;

  const show = (errors: Record<string, string>, focusSummary: boolean) => showErrors(form, summary, errors, focusSummary);
  const say = (kind: 'success' | 'error', message: string, download?: string) => sayIn(status, kind, message, download ? { href: download, label: text('forms.downloadLink') } : undefined);
  const translate = (errors: FormErrors) => Object.fromEntries(Object.entries(errors).map(([f, key]) => [f, text(key)]));
  const busy = (on: boolean) => {
    submit.disabled = on;
    submit.setAttribute('aria-busy', String(on));
  };

  followCountries(form);
  form.addEventListener('change', (event) => {
    if ((event.target as HTMLElement).matches('select[data-country]')) followCountries(form);
  });

  form.addEventListener('input', () => {
    if (!attempted) return;
    const checked = validateForm(kind, collect(form), countries);
    show(checked.ok ? {} : translate(checked.errors), false);
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    attempted = true;
    const input = collect(form);
    const checked = validateForm(kind, input, countries);
    if (!checked.ok) {
      show(translate(checked.errors), true);
      return;
    }
    show({}, false);
    busy(true);
    const payload = JSON.stringify({ ...input, lang: form.dataset.lang });
    try {
      const res = await fetch(formApiPath(kind), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', [IDEMPOTENCY_HEADER]: formatIdempotencyKey(keys.for(payload)) },
        body: payload,
      });
      const body = (await res.json().catch(() => null)) as { message?: string; download?: string; fields?: Record<string, string> } | null;
      // Settled (stored, or refused): the next post is a new submission with a new key.
      if (!outcomeUnknown(res.status)) keys.settle();
      if (res.ok) {
        form.hidden = true;
        form.reset();
        say('success', body?.message ?? '', body?.download);
        if (body?.download) location.assign(body.download);
      } else if (res.status === 400 && body?.fields && Object.keys(body.fields).length) {
        show(body.fields, true);
      } else {
        say('error', body?.message ?? text(outcomeUnknown(res.status) ? 'forms.unknownOutcome' : 'forms.failure'));
      }
    } catch {
      // No answer (the connection dropped, perhaps after the post went out): not known; the key stays.
      say('error', text('forms.unknownOutcome'));
    } finally {
      busy(false);
    }
  });
  form.dataset.enhanced = 'true';
}

/** Enhances every request form below `root` once. */
export function enhanceForms(root: ParentNode = document): void {
  for (const form of Array.from(root.querySelectorAll<HTMLFormElement>('form[data-form]:not([data-enhanced])'))) {
    const kind = form.dataset.form ?? '';
    if (isFormKind(kind)) enhance(form, kind);
  }
}
