import type { PolicyFailure } from '../../lib/identity/management-map.ts';

/*
 * The server-side policy codes of spec customer-area §5 (identity management's
 * `failedPolicyRequirements`) as translated messages with their bounds. Pure and browser-safe:
 * the account island maps the API's `{ field, code, params }` failures with it and fills the
 * placeholders (`{{minLength}}` …) with `fill` from src/i18n/island.ts.
 */

/** Every policy code identity management may send, and the key of its message. */
export const POLICY_MESSAGE_KEY = {
  REQUIRED: 'account.policy.required',
  MIN_LENGTH: 'account.policy.minLength',
  MAX_LENGTH: 'account.policy.maxLength',
  AT_LEAST_X_CAPITAL_LETTERS: 'account.policy.capitalLetters',
  AT_LEAST_X_NUMBERS: 'account.policy.numbers',
  CANNOT_CONTAIN_CHARACTERS: 'account.policy.forbiddenCharacters',
  CANNOT_CONTAIN_DUPLICATES: 'account.policy.duplicates',
  CANNOT_CONTAIN_OTHERS: 'account.policy.containsOthers',
  MATCH_REGEXP: 'account.policy.pattern',
  MINIMUM_NUMBER_VALUE: 'account.policy.minimumNumber',
  MAXIMUM_NUMBER_VALUE: 'account.policy.maximumNumber',
  UNIQUE: 'account.policy.unique',
  VALID_EMAIL_ADDRESS_FORMAT: 'account.policy.email',
  VALID_NAME_FORMAT: 'account.policy.name',
  VALID_PHONE_FORMAT: 'account.policy.phone',
  VALID_NUMBER: 'account.policy.number',
  VALID_DATE: 'account.policy.date',
  VALID_ARRAY_ITEMS: 'account.policy.invalid',
  VALID_QUERY_FILTER: 'account.policy.invalid',
  VALID_TYPE: 'account.policy.invalid',
  UNKNOWN_POLICY: 'account.policy.invalid',
  /** Not a policy: our API's answer when the current password was wrong. */
  REAUTHENTICATION_FAILED: 'account.password.currentWrong',
} as const;

/** The message for any code not listed (spec §5: "Please enter a valid value."). */
export const GENERIC_POLICY_KEY = 'account.policy.invalid';

/** The profile attributes a CANNOT_CONTAIN_OTHERS failure may name, and the key of their label. */
export const FIELD_LABEL_KEY = {
  userName: 'account.userName',
  givenName: 'account.firstName',
  firstName: 'account.firstName',
  sn: 'account.lastName',
  lastName: 'account.lastName',
  mail: 'account.email',
  email: 'account.email',
  telephoneNumber: 'account.telephone',
  custom_company: 'account.company',
} as const;

/** Every key this module may answer (the island's message list includes them). */
export const POLICY_KEYS = [...new Set<string>([...Object.values(POLICY_MESSAGE_KEY), GENERIC_POLICY_KEY, ...Object.values(FIELD_LABEL_KEY)])] as PolicyKey[];
export type PolicyKey = (typeof POLICY_MESSAGE_KEY)[keyof typeof POLICY_MESSAGE_KEY] | typeof GENERIC_POLICY_KEY | (typeof FIELD_LABEL_KEY)[keyof typeof FIELD_LABEL_KEY];

export type { PolicyFailure };

/** A message to show: a key and the values of its placeholders. */
export interface PolicyMessage {
  key: PolicyKey;
  values: Record<string, string>;
}

const numberOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : null);
const listOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : typeof value === 'string' ? [value] : []);
/** Characters shown so a space can be seen. */
const visible = (c: string) => (c === ' ' ? '␣' : c);

/**
 * The message of one failed policy requirement, bounds formatted in the page's number format.
 * A code we do not know, or a known one without its bound, gives the generic message.
 * @example policyMessage({ field: 'password', code: 'MIN_LENGTH', params: { minLength: 10 } }, (k) => k, new Intl.NumberFormat('de-CH'))
 *   // { key: 'account.policy.minLength', values: { minLength: '10' } }
 */
export function policyMessage(failure: PolicyFailure, label: (key: PolicyKey) => string, numbers: Intl.NumberFormat): PolicyMessage {
  const generic: PolicyMessage = { key: GENERIC_POLICY_KEY, values: {} };
  const code = failure.code as keyof typeof POLICY_MESSAGE_KEY;
  if (!Object.hasOwn(POLICY_MESSAGE_KEY, code)) return generic;
  const key = POLICY_MESSAGE_KEY[code];
  const p = failure.params ?? {};
  const bound = (name: string): PolicyMessage => {
    const n = numberOf(p[name]);
    return n === null ? generic : { key, values: { [name]: numbers.format(n) } };
  };
  switch (code) {
    case 'MIN_LENGTH': return bound('minLength');
    case 'MAX_LENGTH': return bound('maxLength');
    case 'AT_LEAST_X_CAPITAL_LETTERS': return bound('numCaps');
    case 'AT_LEAST_X_NUMBERS': return bound('numNums');
    case 'MINIMUM_NUMBER_VALUE': return bound('minimum');
    case 'MAXIMUM_NUMBER_VALUE': return bound('maximum');
    case 'CANNOT_CONTAIN_CHARACTERS': {
      const chars = listOf(p.forbiddenChars);
      return chars.length ? { key, values: { characters: chars.map(visible).join(' ') } } : generic;
    }
    case 'CANNOT_CONTAIN_DUPLICATES': {
      const dup = typeof p.duplicate === 'string' && p.duplicate ? p.duplicate : null;
      return dup ? { key, values: { duplicate: [...dup].map(visible).join('') } } : generic;
    }
    case 'CANNOT_CONTAIN_OTHERS': {
      const names = listOf(p.disallowedFields).map((f) => (Object.hasOwn(FIELD_LABEL_KEY, f) ? label(FIELD_LABEL_KEY[f as keyof typeof FIELD_LABEL_KEY]) : null)).filter((n): n is string => !!n);
      return names.length ? { key, values: { fields: [...new Set(names)].join(', ') } } : generic;
    }
    default: return { key, values: {} };
  }
}
