import * as v from 'valibot';
import { contentQuery, type ContentContext } from './content-service.ts';
import { ContentError } from './errors.ts';
import { BadInputExtensionsSchema } from './editorial/schema.ts';
import { formatIdempotencyKey, IDEMPOTENCY_HEADER } from '../idempotency/key.ts';

/**
 * The content hub's forms endpoint: `submitForm` stores a submission (the hub checks it again; it
 * is the system of record), `formSubmissions` reads them back. Values travel as text (checkboxes
 * as `true`/`false`).
 */

export interface FormSubmissionInput {
  kind: string;
  locale: string;
  fields: Record<string, string>;
}

export type FormSubmitResult =
  | { ok: true; id: string | null }
  | { ok: false; fields: Record<string, string> }
  /** The hub is still storing a submission with the same key, or had the key for another submission. */
  | { ok: false; key: 'in-progress' | 'mismatch' };

/** The GraphQL error codes a hub answers a key with that cannot be used now. */
const KEY_CODES: Record<string, 'in-progress' | 'mismatch'> = { IDEMPOTENCY_KEY_IN_USE: 'in-progress', IDEMPOTENCY_KEY_REUSED: 'mismatch' };

export interface StoredFormSubmission {
  id: string;
  kind: string;
  locale: string;
  fields: Record<string, string>;
  createdAt: string;
}

export const SUBMIT_FORM = /* GraphQL */ `
  mutation SubmitForm($kind: String!, $locale: String!, $fields: [FormFieldInput!]!) {
    submitForm(kind: $kind, locale: $locale, fields: $fields) { ok id }
  }
`;

export const FORM_SUBMISSIONS = /* GraphQL */ `
  query FormSubmissions($kind: String, $first: Int) {
    formSubmissions(kind: $kind, first: $first) { id kind locale createdAt fields { name value } }
  }
`;

const str = v.string();
export const SubmitFormSchema = v.object({ submitForm: v.object({ ok: v.boolean(), id: v.nullish(str) }) });
export const FormSubmissionsSchema = v.object({
  formSubmissions: v.array(v.object({ id: str, kind: str, locale: str, createdAt: str, fields: v.array(v.object({ name: str, value: str })) })),
});

/**
 * Stores a form submission; input the content hub refuses comes back per field. Other failures
 * throw a ContentError. With `idempotencyKey` the hub stores a retried submission once and
 * answers the retry with the first result.
 */
export async function submitForm(ctx: ContentContext, input: FormSubmissionInput, idempotencyKey?: string): Promise<FormSubmitResult> {
  const fields = Object.entries(input.fields).map(([name, value]) => ({ name, value }));
  const headers: Record<string, string> = idempotencyKey ? { [IDEMPOTENCY_HEADER]: formatIdempotencyKey(idempotencyKey) } : {};
  try {
    const raw = await contentQuery(ctx, 'submitForm', SUBMIT_FORM, { kind: input.kind, locale: input.locale, fields }, SubmitFormSchema, headers);
    return raw.submitForm.ok ? { ok: true, id: raw.submitForm.id ?? null } : { ok: false, fields: {} };
  } catch (err) {
    const keyRefusal = err instanceof ContentError ? KEY_CODES[String((err.graphQLErrors?.[0]?.extensions as { code?: unknown } | undefined)?.code)] : undefined;
    if (keyRefusal) return { ok: false, key: keyRefusal };
    if (err instanceof ContentError && err.graphQLErrors) {
      const ext = v.safeParse(BadInputExtensionsSchema, err.graphQLErrors[0]?.extensions);
      if (ext.success) return { ok: false, fields: ext.output.fields ?? {} };
    }
    throw err;
  }
}

/** Stored submissions, newest first (for tests and demos). */
export async function getFormSubmissions(ctx: ContentContext, kind: string | null = null, first = 50): Promise<StoredFormSubmission[]> {
  const raw = await contentQuery(ctx, 'formSubmissions', FORM_SUBMISSIONS, { kind, first }, FormSubmissionsSchema);
  return raw.formSubmissions.map((s) => ({ ...s, fields: Object.fromEntries(s.fields.map((f) => [f.name, f.value])) }));
}
