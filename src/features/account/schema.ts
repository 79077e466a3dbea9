import * as v from 'valibot';
import { UI_LANGUAGES } from '../../site/locale.ts';

/*
 * The account API's request bodies (valibot; shared by the server, which answers 400 on a
 * malformed body, and the island, which checks the required fields before sending). Identity
 * management stays authoritative for the values themselves (its policies answer 422).
 */

const MAX = { name: 100, text: 200, email: 254, telephone: 50, postalCode: 20, password: 256 } as const;
const text = (field: string, max: number) => v.pipe(v.string(`${field} must be a string`), v.trim(), v.maxLength(max, `${field} must be at most ${max} characters`));

/** PATCH /api/account/profile: the fields to change (all optional; unknown fields are refused). */
export const ProfileBody = v.strictObject({
  firstName: v.optional(text('firstName', MAX.name)),
  lastName: v.optional(text('lastName', MAX.name)),
  company: v.optional(text('company', MAX.text)),
  email: v.optional(text('email', MAX.email)),
  telephone: v.optional(text('telephone', MAX.telephone)),
  address: v.optional(text('address', MAX.text)),
  postalCode: v.optional(text('postalCode', MAX.postalCode)),
  city: v.optional(text('city', MAX.text)),
  country: v.optional(v.pipe(v.string('country must be a string'), v.trim(), v.toUpperCase(), v.regex(/^(?:[A-Z]{2})?$/, 'country must be an ISO 3166 alpha-2 code or empty'))),
  language: v.optional(v.pipe(v.string('language must be a string'), v.trim(), v.toLowerCase(), v.picklist(['', ...UI_LANGUAGES], `language must be one of ${UI_LANGUAGES.join(', ')} or empty`))),
});
export type ProfileInput = v.InferOutput<typeof ProfileBody>;

/** POST /api/account/password. */
/** No control characters (NUL, line breaks …): no password has them, and identity management may choke on them. */
// eslint-disable-next-line no-control-regex
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
const LATIN_1 = /^[\u0020-\u007e\u00a0-\u00ff]*$/;

export const PasswordBody = v.strictObject({
  // Identity management takes the current password in a header (x-openidm-reauth-password), which carries Latin-1 only.
  currentPassword: v.pipe(v.string('currentPassword is required'), v.minLength(1, 'currentPassword is required'), v.maxLength(MAX.password, `currentPassword must be at most ${MAX.password} characters`), v.regex(NO_CONTROL, 'currentPassword must not contain control characters'), v.regex(LATIN_1, 'currentPassword may only contain Latin-1 characters')),
  newPassword: v.pipe(v.string('newPassword is required'), v.minLength(1, 'newPassword is required'), v.maxLength(MAX.password, `newPassword must be at most ${MAX.password} characters`), v.regex(NO_CONTROL, 'newPassword must not contain control characters')),
});

/** The profile fields that must not be empty (spec customer-area §5). */
export const REQUIRED_PROFILE_FIELDS = ['firstName', 'lastName'] as const;

/** The required fields a (trimmed) profile leaves empty, in form order. */
export function missingRequired(values: Partial<Record<string, string | undefined>>, only: 'present' | 'all' = 'all'): (typeof REQUIRED_PROFILE_FIELDS)[number][] {
  return REQUIRED_PROFILE_FIELDS.filter((f) => (only === 'present' ? values[f] !== undefined : true) && !(values[f] ?? '').trim());
}

export const FIELD_MAX_LENGTH = {
  firstName: MAX.name, lastName: MAX.name, company: MAX.text, email: MAX.email, telephone: MAX.telephone, address: MAX.text, postalCode: MAX.postalCode, city: MAX.text,
} as const;
