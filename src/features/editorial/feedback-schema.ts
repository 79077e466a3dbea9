import * as v from 'valibot';
import type { MessageKey } from '../../i18n/index.ts';

/**
 * Story feedback validation, shared by the form island (before sending) and POST
 * /api/story-feedback (again, on the server). Messages are i18n keys; each side translates them.
 */

export const FEEDBACK_FIELDS = ['firstName', 'lastName', 'company', 'country', 'message'] as const;
export type FeedbackField = (typeof FEEDBACK_FIELDS)[number];
export type FeedbackValues = Record<FeedbackField, string>;

/** Longest accepted input per text field, in characters (the content hub takes messages up to 2000). */
export const FEEDBACK_MAX_LENGTH: Record<Exclude<FeedbackField, 'country'>, number> = { firstName: 100, lastName: 100, company: 200, message: 2000 };

/** The i18n key of each field's "required" message. */
export const REQUIRED_KEYS = {
  firstName: 'feedback.firstNameRequired',
  lastName: 'feedback.lastNameRequired',
  company: 'feedback.companyRequired',
  country: 'feedback.countryRequired',
  message: 'feedback.messageRequired',
} as const satisfies Record<FeedbackField, MessageKey>;
export const TOO_LONG_KEY = 'feedback.tooLong' satisfies MessageKey;
export const INVALID_KEY = 'feedback.invalid' satisfies MessageKey;

/** Every message key the feedback check gives. */
export type FeedbackMessageKey = (typeof REQUIRED_KEYS)[FeedbackField] | typeof TOO_LONG_KEY | typeof INVALID_KEY;
export const FEEDBACK_MESSAGE_KEYS: readonly FeedbackMessageKey[] = [...Object.values(REQUIRED_KEYS), TOO_LONG_KEY, INVALID_KEY];
const isFeedbackMessageKey = (message: string): message is FeedbackMessageKey => (FEEDBACK_MESSAGE_KEYS as readonly string[]).includes(message);

/** A field problem: the i18n key of its message and the values the message needs. */
export interface FeedbackIssue {
  key: FeedbackMessageKey;
  params?: Record<string, number>;
}
export type FeedbackErrors = Partial<Record<FeedbackField, FeedbackIssue>>;
export type FeedbackValidation = { ok: true; value: FeedbackValues } | { ok: false; errors: FeedbackErrors };

const chars = (s: string) => [...s].length;

function text(field: Exclude<FeedbackField, 'country'>) {
  return v.pipe(
    v.optional(v.string(INVALID_KEY), ''),
    v.trim(),
    v.nonEmpty(REQUIRED_KEYS[field]),
    v.check((s) => chars(s) <= FEEDBACK_MAX_LENGTH[field], TOO_LONG_KEY),
  );
}

/** The schema for a list of offered country codes (ISO 3166-1 alpha-2, upper case). */
export function feedbackSchema(countryCodes: readonly string[]) {
  const offered = new Set(countryCodes.map((c) => c.toUpperCase()));
  return v.object({
    firstName: text('firstName'),
    lastName: text('lastName'),
    company: text('company'),
    country: v.pipe(
      v.optional(v.string(INVALID_KEY), ''),
      v.trim(),
      v.nonEmpty(REQUIRED_KEYS.country),
      v.toUpperCase(),
      v.check((c) => offered.has(c), INVALID_KEY),
    ),
    message: text('message'),
  });
}

/**
 * Checks feedback input; on failure gives the first problem of every field that has one.
 * @example validateFeedback({ firstName: '' , …}, ['CH']) // { ok: false, errors: { firstName: { key: 'feedback.firstNameRequired' } } }
 */
export function validateFeedback(input: unknown, countryCodes: readonly string[]): FeedbackValidation {
  const parsed = v.safeParse(feedbackSchema(countryCodes), input ?? {});
  if (parsed.success) return { ok: true, value: parsed.output };
  const errors: FeedbackErrors = {};
  for (const issue of parsed.issues) {
    const field = v.getDotPath(issue) as FeedbackField | null;
    if (!field || !(FEEDBACK_FIELDS as readonly string[]).includes(field) || errors[field]) continue;
    errors[field] = issue.message === TOO_LONG_KEY && field !== 'country'
      ? { key: TOO_LONG_KEY, params: { max: FEEDBACK_MAX_LENGTH[field] } }
      : { key: isFeedbackMessageKey(issue.message) ? issue.message : INVALID_KEY };
  }
  // An input that is not an object at all has no field issues: every field is then missing.
  if (Object.keys(errors).length === 0) for (const f of FEEDBACK_FIELDS) errors[f] = { key: REQUIRED_KEYS[f] };
  return { ok: false, errors };
}
