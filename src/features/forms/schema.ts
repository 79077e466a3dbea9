import * as v from 'valibot';
import type { MessageKey } from '../../i18n/index.ts';
import { CHECKBOX_KEY, FORMS, INVALID_KEY, fieldsOf, isActive, isRequired, type FieldDef, type FormKind } from './definitions.ts';

/**
 * The valibot schema of each request form, shared by the browser (checked before sending) and the
 * server (checked again in POST /api/forms/{kind} and the form pages). Messages are i18n keys,
 * translated by each side; the English texts are the spec's (customer-area §5). Pure and
 * browser-safe (valibot is tree-shaken into the small form script).
 */

export type FormValues = Record<string, string | boolean>;
export type FormErrors = Record<string, MessageKey>;
export type FormValidation = { ok: true; value: FormValues } | { ok: false; errors: FormErrors };
export type FormSchema = v.GenericSchema<unknown, FormValues>;

const SLUG = /^[a-z0-9][a-z0-9._-]{0,149}$/i;

const text = () => v.pipe(v.optional(v.string(INVALID_KEY), ''), v.trim());
/** Required unless conditional (conditions are checked on the whole form, see below). */
const needsValue = (f: FieldDef) => !!f.required && !f.requiredWhen && !f.stateOf;

function fieldSchema(f: FieldDef, offered: ReadonlySet<string>): v.GenericSchema<unknown, string | boolean> {
  const required = f.required ?? INVALID_KEY;
  switch (f.type) {
    case 'checkbox':
      return v.pipe(
        v.optional(v.union([v.boolean(), v.picklist(['true', 'on', 'false', ''])], INVALID_KEY), false),
        v.transform((x) => x === true || x === 'true' || x === 'on'),
        v.check((checked) => checked || !needsValue(f), required),
      );
    case 'email':
      return v.pipe(text(), v.check((s) => s !== '' || !needsValue(f), required), v.check((s) => s === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), required), v.maxLength(f.max ?? 254, required));
    case 'country':
      return v.pipe(text(), v.check((s) => s !== '' || !needsValue(f), required), v.toUpperCase(), v.check((c) => c === '' || offered.has(c), INVALID_KEY));
    case 'select':
    case 'radio': {
      const values = new Set((f.options ?? []).map((o) => o.value));
      return v.pipe(
        v.optional(v.string(INVALID_KEY), f.initial ?? ''), v.trim(),
        v.check((s) => s !== '' || !needsValue(f), required),
        v.check((s) => s === '' || values.has(s), INVALID_KEY),
      );
    }
    case 'hidden':
      return v.pipe(text(), v.check((s) => s !== '' || !needsValue(f), required), v.check((s) => s === '' || SLUG.test(s), INVALID_KEY));
    default:
      return v.pipe(text(), v.check((s) => s !== '' || !needsValue(f), required), v.check((s) => [...s].length <= (f.max ?? 1000), INVALID_KEY));
  }
}

/**
 * The schema of one form for the offered country codes. Conditional requirements (the case id
 * when the request refers to an existing case, the return address when a separate one is asked
 * for, the state where the country has states) are partial checks on the whole form, reported on the conditional field even while other
 * fields still have problems.
 */
export function formSchema(kind: FormKind, countryCodes: readonly string[]): FormSchema {
  const offered = new Set(countryCodes.map((c) => c.toUpperCase()));
  const fields = fieldsOf(kind);
  const entries = Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f, offered)]));
  const conditions = fields.filter((f) => f.required && (f.requiredWhen || f.stateOf)).map((f) => {
    const on = [f.requiredWhen?.field, f.stateOf].filter((name): name is string => !!name);
    const check = v.partialCheck(
      [...on.map((name) => [name]), [f.name]] as never,
      ((input: Record<string, unknown>) => !isRequired(f, input) || input[f.name] !== '') as never,
      f.required!,
    );
    return v.forward(check as never, [f.name] as never);
  });
  return v.pipe(v.object(entries), ...(conditions as [])) as unknown as FormSchema;
}

export const openSourceSchema = (countries: readonly string[]): FormSchema => formSchema('openSource', countries);
export const serviceRequestSchema = (countries: readonly string[]): FormSchema => formSchema('serviceRequest', countries);
export const whitepaperSchema = (countries: readonly string[]): FormSchema => formSchema('whitepaper', countries);
export const contactSchema = (countries: readonly string[]): FormSchema => formSchema('contact', countries);

/**
 * Checks a form's input; on failure gives the first problem of every field that has one.
 * Fields of a condition that does not hold (an unchecked return address) are left out of the value.
 * @example validateForm('openSource', { email: '' }, ['CH']) // { ok: false, errors: { email: 'forms.emailRequired', … } }
 */
export function validateForm(kind: FormKind, input: unknown, countryCodes: readonly string[]): FormValidation {
  const object = input && typeof input === 'object' ? input : {};
  const parsed = v.safeParse(formSchema(kind, countryCodes), object);
  const fields = fieldsOf(kind);
  if (parsed.success) {
    const value: FormValues = {};
    for (const f of fields) if (isActive(f, parsed.output)) value[f.name] = parsed.output[f.name]!;
    return { ok: true, value };
  }
  const names = new Set(fields.map((f) => f.name));
  const errors: FormErrors = {};
  for (const issue of parsed.issues) {
    const field = v.getDotPath(issue);
    if (!field || !names.has(field) || errors[field]) continue;
    errors[field] = issue.message as MessageKey;
  }
  if (Object.keys(errors).length === 0) errors[fields[0]!.name] = INVALID_KEY;
  return { ok: false, errors };
}

/** The values as the content hub stores them: text, checkboxes as 'true'/'false', empty optional fields left out. */
export function toSubmission(values: FormValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'boolean') out[name] = String(value);
    else if (value !== '') out[name] = value;
  }
  return out;
}

export { CHECKBOX_KEY, FORMS, INVALID_KEY };
