import * as v from 'valibot';
import type { Profile } from '../../lib/identity/management-map.ts';
import { fill } from '../../i18n/island.ts';
import { outcomeUnknown } from '../../lib/idempotency/key.ts';
import { policyMessage, type PolicyFailure, type PolicyKey } from './policy.ts';

/*
 * The account island's reading of the account API's answers (pure, tested): success, field
 * failures (422: policies, our required check, a wrong current password), a refusal (403, e.g. an
 * internally managed account) or a failure with its technical detail.
 */

export type Outcome<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'invalid'; failures: PolicyFailure[] }
  | { kind: 'refused'; detail: string }
  /** `unknown`: the change may have been applied (no answer, 502, 504): saying "not saved" would not be true. */
  | { kind: 'failed'; detail: string; unknown?: boolean };

const text = v.string();
export const ProfileSchema = v.object({
  id: text, userName: text, firstName: text, lastName: text, company: text, email: text, telephone: text, address: text,
  postalCode: text, city: text, country: text, language: text, internallyManaged: v.boolean(), mfaDevices: v.number(),
});
const FailuresSchema = v.object({ failures: v.array(v.object({ field: v.string(), code: v.string(), params: v.optional(v.record(v.string(), v.unknown()), {}) })) });
const ErrorSchema = v.object({ error: v.string(), message: v.optional(v.string()) });

/** Reads an answer; `schema` checks a success body (none for 204). */
export async function outcomeOf<S extends v.GenericSchema>(res: Response, schema?: S): Promise<Outcome<v.InferOutput<S>>> {
  const body: unknown = res.status === 204 ? null : await res.json().catch(() => null);
  if (res.ok) {
    if (!schema) return { kind: 'ok', value: undefined as v.InferOutput<S> };
    const parsed = v.safeParse(schema, body);
    return parsed.success ? { kind: 'ok', value: parsed.output } : { kind: 'failed', detail: `Unexpected answer (${res.status}): ${parsed.issues[0].message}` };
  }
  if (res.status === 422) {
    const parsed = v.safeParse(FailuresSchema, body);
    if (parsed.success) return { kind: 'invalid', failures: parsed.output.failures };
  }
  const err = v.safeParse(ErrorSchema, body);
  const detail = `${res.status}${err.success ? ` ${err.output.error}${err.output.message ? `: ${err.output.message}` : ''}` : ''}`;
  if (res.status === 403) return { kind: 'refused', detail };
  return outcomeUnknown(res.status) ? { kind: 'failed', detail, unknown: true } : { kind: 'failed', detail };
}

/**
 * A fetch that threw as a failed outcome: a network failure (TypeError) may have happened after
 * the request went out (`unknown`); a sign-in failure happened before anything was sent.
 */
export function thrown(err: unknown): { kind: 'failed'; detail: string; unknown?: boolean } {
  return { kind: 'failed', detail: err instanceof Error ? err.message : String(err), ...(err instanceof TypeError ? { unknown: true } : {}) };
}

/**
 * The messages of field failures, per form field (several per field possible); `fieldOf` maps an
 * API field to the form's (`password` → `newPassword`). Failures of no known field go to ''.
 */
export function failureMessages(
  failures: PolicyFailure[],
  messages: Record<PolicyKey, string>,
  numbers: Intl.NumberFormat,
  fieldOf: (apiField: string) => string | null,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const f of failures) {
    const msg = policyMessage(f, (k) => messages[k], numbers);
    const text = fill(messages[msg.key], msg.values);
    const field = fieldOf(f.field) ?? '';
    const list = (out[field] ??= []);
    if (!list.includes(text)) list.push(text);
  }
  return out;
}

export type { Profile };
