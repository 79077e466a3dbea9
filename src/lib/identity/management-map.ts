import { UI_LANGUAGES } from '../../site/locale.ts';
import type { RawError, RawUser } from './management-schema.ts';

/** The account profile of spec customer-area §3 (plus what the account settings need). */
export interface Profile {
  id: string;
  userName: string;
  firstName: string;
  lastName: string;
  company: string;
  email: string;
  telephone: string;
  address: string;
  postalCode: string;
  city: string;
  /** ISO 3166 alpha-2, or '' when not set. */
  country: string;
  /** One of the 11 interface languages, or '' when not set. */
  language: string;
  /** Internal employee: profile and password are managed elsewhere (spec §6). */
  internallyManaged: boolean;
  /** Registered multi-factor devices. */
  mfaDevices: number;
}

/** The profile fields a user may change. */
export const PROFILE_FIELDS = ['firstName', 'lastName', 'company', 'email', 'telephone', 'address', 'postalCode', 'city', 'country', 'language'] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileChanges = Partial<Record<ProfileField, string>>;

/** Our field → identity management's attribute. */
export const IDM_ATTRIBUTE: Record<ProfileField, string> = {
  firstName: 'givenName',
  lastName: 'sn',
  company: 'custom_company',
  email: 'mail',
  telephone: 'telephoneNumber',
  address: 'postalAddress',
  postalCode: 'postalCode',
  city: 'city',
  country: 'country',
  language: 'custom_language',
};

const FIELD_OF_ATTRIBUTE: Record<string, string> = Object.fromEntries(Object.entries(IDM_ATTRIBUTE).map(([field, attr]) => [attr, field]));

/** One failed policy requirement, named in our terms (`field` is our field name, `password` for the password). */
export interface PolicyFailure {
  field: string;
  code: string;
  params: Record<string, unknown>;
}

export function mapUser(raw: RawUser): Profile {
  const country = (raw.country ?? '').toUpperCase();
  const language = (raw.custom_language ?? '').toLowerCase();
  return {
    id: raw._id,
    userName: raw.userName ?? '',
    firstName: raw.givenName ?? '',
    lastName: raw.sn ?? '',
    company: raw.custom_company ?? '',
    email: raw.mail ?? '',
    telephone: raw.telephoneNumber ?? '',
    address: raw.postalAddress ?? '',
    postalCode: raw.postalCode ?? '',
    city: raw.city ?? '',
    country: /^[A-Z]{2}$/.test(country) ? country : '',
    language: (UI_LANGUAGES as readonly string[]).includes(language) ? language : '',
    internallyManaged: raw.custom_internallyManaged,
    mfaDevices: raw.custom_mfaDevices,
  };
}

/**
 * The JSON Patch identity management takes for a profile change (only the fields given).
 * @example patchOf({ firstName: 'Ana' }) // [{ operation: 'replace', field: '/givenName', value: 'Ana' }]
 */
export function patchOf(changes: ProfileChanges): { operation: 'replace'; field: string; value: string }[] {
  return PROFILE_FIELDS.filter((f) => changes[f] !== undefined).map((f) => ({ operation: 'replace', field: `/${IDM_ATTRIBUTE[f]}`, value: changes[f]! }));
}

/** The failed policy requirements of an error answer, one entry per requirement. */
export function policyFailuresOf(raw: RawError): PolicyFailure[] {
  return (raw.detail?.failedPolicyRequirements ?? []).flatMap((p) => {
    const property = p.property.replace(/^\//, '');
    const field = FIELD_OF_ATTRIBUTE[property] ?? property;
    return p.policyRequirements.map((r) => ({ field, code: r.policyRequirement, params: r.params ?? {} }));
  });
}
