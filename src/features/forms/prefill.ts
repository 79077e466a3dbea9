import * as v from 'valibot';
import { fieldsOf, type FieldDef, type FormKind } from './definitions.ts';
import { formPagePath } from './paths.ts';

/**
 * Links that open a request form with some fields already filled in: "Request a quote" on a
 * product page opens the "Talk to an Expert" form with the topic and the product chosen. The
 * values travel in the link's query (`/en/forms/contact?topic=products&product=Kappa%20310`), so
 * the same link works without JavaScript (the form page fills them in) and with it (the contact
 * panel fills in its copy of the form, panel.ts). Pure and browser-safe.
 */

/** The fields a link may fill in, per form: never a consent, a hidden field or personal data. */
export const PREFILL_FIELDS: Partial<Record<FormKind, readonly string[]>> = {
  contact: ['topic', 'product'],
};

/** A value a select accepts (one of its options) or a line of text within the field's length. */
function valueSchema(f: FieldDef): v.GenericSchema<unknown, string> {
  if (f.type === 'select' || f.type === 'radio') return v.picklist((f.options ?? []).map((o) => o.value));
  // One line of printable text: no control characters (a newline would turn a name into a message).
  // eslint-disable-next-line no-control-regex
  return v.pipe(v.string(), v.trim(), v.minLength(1), v.check((s) => [...s].length <= (f.max ?? 200)), v.regex(/^[^\u0000-\u001f\u007f]*$/));
}

/**
 * The prefilled values a query names for a form: only the form's prefillable fields, each checked
 * like the field itself; anything else is left out (the form then starts empty there).
 * @example formPrefill('contact', new URLSearchParams('topic=products&product=Kappa%20310&consent=true'))
 *   // { topic: 'products', product: 'Kappa 310' }
 */
export function formPrefill(kind: FormKind, params: URLSearchParams): Record<string, string> {
  const names = PREFILL_FIELDS[kind] ?? [];
  const out: Record<string, string> = {};
  for (const f of fieldsOf(kind)) {
    if (!names.includes(f.name)) continue;
    const parsed = v.safeParse(valueSchema(f), params.get(f.name) ?? undefined);
    if (parsed.success) out[f.name] = parsed.output;
  }
  return out;
}

/**
 * The address of a form page with prefilled values and the page to go back to.
 * @example prefilledFormPath('en', 'contact', { topic: 'products', product: 'Kappa 310' }, '/en/products/…/kappa-310')
 *   // '/en/forms/contact?topic=products&product=Kappa+310&from=%2Fen%2Fproducts%2F…'
 */
export function prefilledFormPath(localeUrlCode: string, kind: FormKind, values: Record<string, string>, from?: string): string {
  const query = new URLSearchParams(values);
  if (from) query.set('from', from);
  const search = query.toString();
  return `${formPagePath(localeUrlCode, kind)}${search ? `?${search}` : ''}`;
}

/** What a catalogue page offers as its next step: a quote for a product, an expert for a service. */
export function quoteRequestPath(localeUrlCode: string, item: { kind: 'product' | 'service'; name: string }, from: string): string {
  return prefilledFormPath(localeUrlCode, 'contact', { topic: item.kind === 'product' ? 'products' : 'service', product: item.name }, from);
}
