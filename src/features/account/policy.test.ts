import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import de from '../../../locales/de.json' with { type: 'json' };
import { fill } from '../../i18n/island.ts';
import { GENERIC_POLICY_KEY, POLICY_KEYS, POLICY_MESSAGE_KEY, policyMessage, type PolicyFailure } from './policy.ts';

const text = (messages: Record<string, string>, locale: string) => (failure: Omit<PolicyFailure, 'field'>) => {
  const msg = policyMessage({ field: 'password', ...failure }, (k) => messages[k]!, new Intl.NumberFormat(locale));
  return fill(messages[msg.key]!, msg.values);
};
const english = text(en, 'en');

describe('policy messages (spec customer-area §5 server-side policy codes)', () => {
  // Every code identity management may send, with the English text a user reads (bounds included).
  it.each([
    ['REQUIRED', {}, 'This field is required'],
    ['MIN_LENGTH', { minLength: 10 }, 'At least 10 characters'],
    ['MAX_LENGTH', { maxLength: 64 }, 'At most 64 characters'],
    ['AT_LEAST_X_CAPITAL_LETTERS', { numCaps: 1 }, 'Capital letters (A–Z): at least 1'],
    ['AT_LEAST_X_NUMBERS', { numNums: 2 }, 'Digits (0–9): at least 2'],
    ['CANNOT_CONTAIN_CHARACTERS', { forbiddenChars: ['<', '>', '"', ' '] }, 'Must not contain these characters: < > " ␣'],
    ['CANNOT_CONTAIN_DUPLICATES', { duplicate: 'aaa' }, 'Must not repeat a character like this: aaa'],
    ['CANNOT_CONTAIN_OTHERS', { disallowedFields: ['userName', 'givenName', 'sn', 'mail'] }, 'Must not contain these details: User name, First name, Last name, Email'],
    ['MATCH_REGEXP', { regexp: '^[a-z]+$' }, 'Does not have the required format'],
    ['MINIMUM_NUMBER_VALUE', { minimum: 1 }, 'At least 1'],
    ['MAXIMUM_NUMBER_VALUE', { maximum: 1000 }, 'At most 1,000'],
    ['UNIQUE', {}, 'This value is already in use'],
    ['VALID_EMAIL_ADDRESS_FORMAT', {}, 'Please provide a valid email address'],
    ['VALID_NAME_FORMAT', {}, 'Please enter a valid name'],
    ['VALID_PHONE_FORMAT', {}, 'Please enter a valid telephone number'],
    ['VALID_NUMBER', {}, 'Please enter a number'],
    ['VALID_DATE', {}, 'Please enter a valid date'],
    ['VALID_TYPE', {}, 'Please enter a valid value.'],
    ['VALID_ARRAY_ITEMS', {}, 'Please enter a valid value.'],
    ['VALID_QUERY_FILTER', {}, 'Please enter a valid value.'],
    ['UNKNOWN_POLICY', {}, 'Please enter a valid value.'],
  ])('%s %j → %s', (code, params, expected) => {
    expect(english({ code, params })).toBe(expected);
  });

  it('an unknown code, or a known one without its bound, gives the generic message', () => {
    expect(english({ code: 'SOMETHING_NEW', params: { x: 1 } })).toBe('Please enter a valid value.');
    expect(english({ code: 'constructor', params: {} })).toBe('Please enter a valid value.');
    expect(english({ code: 'MIN_LENGTH', params: {} })).toBe('Please enter a valid value.');
    expect(english({ code: 'CANNOT_CONTAIN_OTHERS', params: { disallowedFields: ['somethingElse'] } })).toBe('Please enter a valid value.');
    expect(policyMessage({ field: 'x', code: 'MIN_LENGTH', params: { minLength: 'ten' } }, (k) => k, new Intl.NumberFormat('en')).key).toBe(GENERIC_POLICY_KEY);
  });

  it('German with its de-CH number format and translated field names', () => {
    const german = text(de, 'de-CH');
    expect(german({ code: 'MIN_LENGTH', params: { minLength: 10 } })).toBe('Mindestens 10 Zeichen');
    expect(german({ code: 'MAXIMUM_NUMBER_VALUE', params: { maximum: 10000 } })).toBe(`Höchstens ${new Intl.NumberFormat('de-CH').format(10000)}`);
    expect(new Intl.NumberFormat('de-CH').format(10000)).toMatch(/^10.000$/);
    expect(german({ code: 'CANNOT_CONTAIN_OTHERS', params: { disallowedFields: ['givenName', 'mail'] } })).toBe('Darf diese Angaben nicht enthalten: Vorname, E-Mail');
  });

  it('every key it may answer exists in every locale, with the same placeholders as en', async () => {
    const langs = ['cs', 'de', 'en', 'es', 'fr', 'hu', 'ja', 'pt', 'ro', 'sk', 'zh'];
    for (const lang of langs) {
      const messages = (await import(`../../../locales/${lang}.json`, { with: { type: 'json' } })).default as Record<string, string>;
      for (const key of [...POLICY_KEYS, ...Object.values(POLICY_MESSAGE_KEY)]) {
        expect(messages[key], `${lang} ${key}`).toBeTypeOf('string');
        expect(messages[key]!.match(/\{\{\w+\}\}/g) ?? [], `${lang} ${key}`).toEqual((en as Record<string, string>)[key]!.match(/\{\{\w+\}\}/g) ?? []);
      }
    }
  });
});
