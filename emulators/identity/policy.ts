// The identity emulator's policy (ForgeRock IDM shape): which requirements a password or a profile
// fails, as IDM's `failedPolicyRequirements`. Pure: the store supplies uniqueness (UNIQUE) itself.
import { UI_LANGUAGES } from '../../src/site/locale.ts';

export interface PolicyRequirement {
  policyRequirement: string;
  params?: Record<string, unknown>;
}

export interface FailedPolicyRequirement {
  property: string;
  policyRequirements: PolicyRequirement[];
}

/** The profile fields a user may change (IDM names). */
export const PROFILE_FIELDS = ['givenName', 'sn', 'mail', 'telephoneNumber', 'postalAddress', 'postalCode', 'city', 'country', 'custom_company', 'custom_language'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type Profile = Record<ProfileField, string>;

/** The interface languages of the platform (custom_language is one of them or ""). */
export const LANGUAGES = UI_LANGUAGES;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 64;
export const PASSWORD_FORBIDDEN_CHARACTERS = ['<', '>', '"'];
/** No white space anywhere (MATCH_REGEXP carries it as its `regexp` parameter). */
export const PASSWORD_REGEXP = '^\\S*$';
/** The fields a password must not contain (IDM's CANNOT_CONTAIN_OTHERS). */
export const PASSWORD_DISALLOWED_FIELDS = ['userName', 'givenName', 'sn', 'mail'] as const;

const MAX_LENGTHS: Record<ProfileField, number> = {
  givenName: 64, sn: 64, mail: 254, telephoneNumber: 30, postalAddress: 200, postalCode: 16, city: 100, country: 2, custom_company: 200, custom_language: 2,
};
/** Letters of any script, spaces, apostrophes, hyphens and dots; starting with a letter. */
const NAME_FORMAT = /^\p{L}[\p{L}\p{M} '’.-]*$/u;
const EMAIL_FORMAT = /^[^\s@"<>()[\],;:]+@[^\s@"<>()[\],;:]+\.[^\s@"<>()[\],;:]{2,}$/;
/** An optional +, then digits with spaces, brackets, dots, slashes or hyphens; 5 to 20 digits. */
const PHONE_FORMAT = /^\+?[\d ()./-]+$/;
const COUNTRY_REGEXP = '^[A-Z]{2}$';
const LANGUAGE_REGEXP = `^(${LANGUAGES.join('|')})$`;

/** Who the password belongs to: the values it must not contain. */
export type PasswordOwner = Pick<Profile, 'givenName' | 'sn' | 'mail'> & { userName: string };

/** The requirements `password` fails for `owner`, in IDM's order; empty when it passes. */
export function passwordRequirements(password: string, owner: PasswordOwner): PolicyRequirement[] {
  if (password === '') return [{ policyRequirement: 'REQUIRED' }];
  const failed: PolicyRequirement[] = [];
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) failed.push({ policyRequirement: 'MIN_LENGTH', params: { minLength: PASSWORD_MIN_LENGTH } });
  if (length > PASSWORD_MAX_LENGTH) failed.push({ policyRequirement: 'MAX_LENGTH', params: { maxLength: PASSWORD_MAX_LENGTH } });
  if (!/\p{Lu}/u.test(password)) failed.push({ policyRequirement: 'AT_LEAST_X_CAPITAL_LETTERS', params: { numCaps: 1 } });
  if (!/\d/.test(password)) failed.push({ policyRequirement: 'AT_LEAST_X_NUMBERS', params: { numNums: 1 } });
  if (PASSWORD_FORBIDDEN_CHARACTERS.some((c) => password.includes(c))) {
    failed.push({ policyRequirement: 'CANNOT_CONTAIN_CHARACTERS', params: { forbiddenChars: PASSWORD_FORBIDDEN_CHARACTERS } });
  }
  if (!new RegExp(PASSWORD_REGEXP, 'u').test(password)) failed.push({ policyRequirement: 'MATCH_REGEXP', params: { regexp: PASSWORD_REGEXP } });
  const run = /(.)\1\1/u.exec(password);
  if (run) failed.push({ policyRequirement: 'CANNOT_CONTAIN_DUPLICATES', params: { duplicate: run[0] } });
  const lower = password.toLowerCase();
  const values: Record<(typeof PASSWORD_DISALLOWED_FIELDS)[number], string> = {
    userName: owner.userName, givenName: owner.givenName, sn: owner.sn, mail: owner.mail.split('@')[0] ?? '',
  };
  // Values shorter than 3 characters ("Li") would forbid too much; IDM's own checks skip empty values.
  const contained = PASSWORD_DISALLOWED_FIELDS.filter((field) => values[field].length >= 3 && lower.includes(values[field].toLowerCase()));
  if (contained.length) failed.push({ policyRequirement: 'CANNOT_CONTAIN_OTHERS', params: { disallowedFields: contained } });
  return failed;
}

/** The requirements one profile field's value fails (uniqueness of the e-mail is the store's). */
export function fieldRequirements(field: ProfileField, value: string): PolicyRequirement[] {
  const required = field === 'givenName' || field === 'sn' || field === 'mail';
  if (value.trim() === '') return required ? [{ policyRequirement: 'REQUIRED' }] : [];
  const failed: PolicyRequirement[] = [];
  const maxLength = MAX_LENGTHS[field];
  if ([...value].length > maxLength) failed.push({ policyRequirement: 'MAX_LENGTH', params: { maxLength } });
  switch (field) {
    case 'givenName':
    case 'sn':
      if (!NAME_FORMAT.test(value)) failed.push({ policyRequirement: 'VALID_NAME_FORMAT' });
      break;
    case 'mail':
      if (!EMAIL_FORMAT.test(value)) failed.push({ policyRequirement: 'VALID_EMAIL_ADDRESS_FORMAT' });
      break;
    case 'telephoneNumber': {
      const digits = value.replace(/\D/g, '').length;
      if (!PHONE_FORMAT.test(value) || digits < 5 || digits > 20) failed.push({ policyRequirement: 'VALID_PHONE_FORMAT' });
      break;
    }
    case 'country':
      if (!new RegExp(COUNTRY_REGEXP).test(value)) failed.push({ policyRequirement: 'MATCH_REGEXP', params: { regexp: COUNTRY_REGEXP } });
      break;
    case 'custom_language':
      if (!new RegExp(LANGUAGE_REGEXP).test(value)) failed.push({ policyRequirement: 'MATCH_REGEXP', params: { regexp: LANGUAGE_REGEXP } });
      break;
  }
  return failed;
}

/** Every failed requirement of the changed profile fields, one entry per failing field. */
export function profileFailures(changes: Partial<Profile>): FailedPolicyRequirement[] {
  const failures: FailedPolicyRequirement[] = [];
  for (const field of PROFILE_FIELDS) {
    const value = changes[field];
    if (value === undefined) continue;
    const policyRequirements = fieldRequirements(field, value);
    if (policyRequirements.length) failures.push({ property: field, policyRequirements });
  }
  return failures;
}

/** IDM's 403 body for failed policies. */
export function policyError(failures: FailedPolicyRequirement[]) {
  return { code: 403, reason: 'Forbidden', message: 'Failed policy validation', detail: { result: false, failedPolicyRequirements: failures } };
}
