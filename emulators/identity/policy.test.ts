import { describe, expect, it } from 'vitest';
import { fieldRequirements, passwordRequirements, policyError, profileFailures } from './policy.ts';

const owner = { userName: 'paula@demo.komax.test', givenName: 'Paula', sn: 'Password', mail: 'paula@demo.komax.test' };
const codes = (password: string) => passwordRequirements(password, owner).map((r) => r.policyRequirement);

describe('password policy', () => {
  it('accepts the demo password', () => {
    expect(passwordRequirements('Komax-Demo-2026', owner)).toEqual([]);
  });

  it('REQUIRED for an empty password, and nothing else', () => {
    expect(passwordRequirements('', owner)).toEqual([{ policyRequirement: 'REQUIRED' }]);
  });

  it('MIN_LENGTH and MAX_LENGTH with their bounds', () => {
    expect(passwordRequirements('Kx-12345', owner)).toEqual([{ policyRequirement: 'MIN_LENGTH', params: { minLength: 10 } }]);
    expect(passwordRequirements(`Kx1${'ab'.repeat(31)}`, owner)).toEqual([{ policyRequirement: 'MAX_LENGTH', params: { maxLength: 64 } }]);
    expect(codes(`Kx1${'ab'.repeat(30)}a`)).toEqual([]);
  });

  it('AT_LEAST_X_CAPITAL_LETTERS and AT_LEAST_X_NUMBERS with their counts', () => {
    expect(passwordRequirements('komax-demo-2026', owner)).toEqual([{ policyRequirement: 'AT_LEAST_X_CAPITAL_LETTERS', params: { numCaps: 1 } }]);
    expect(passwordRequirements('Komax-Demo-abcd', owner)).toEqual([{ policyRequirement: 'AT_LEAST_X_NUMBERS', params: { numNums: 1 } }]);
  });

  it('CANNOT_CONTAIN_CHARACTERS lists the forbidden characters', () => {
    for (const c of ['<', '>', '"']) {
      expect(passwordRequirements(`Komax${c}Demo2026`, owner)).toEqual([{ policyRequirement: 'CANNOT_CONTAIN_CHARACTERS', params: { forbiddenChars: ['<', '>', '"'] } }]);
    }
  });

  it('MATCH_REGEXP for white space', () => {
    expect(passwordRequirements('Komax Demo 2026', owner)).toEqual([{ policyRequirement: 'MATCH_REGEXP', params: { regexp: '^\\S*$' } }]);
  });

  it('CANNOT_CONTAIN_DUPLICATES names the run of three', () => {
    expect(passwordRequirements('Komax-Deeemo-26', owner)).toEqual([{ policyRequirement: 'CANNOT_CONTAIN_DUPLICATES', params: { duplicate: 'eee' } }]);
    expect(codes('Komax-Deemo-26')).toEqual([]);
  });

  it('CANNOT_CONTAIN_OTHERS names the contained fields, case-insensitively', () => {
    expect(passwordRequirements('Secret-PAULA-2026', owner)).toEqual([{ policyRequirement: 'CANNOT_CONTAIN_OTHERS', params: { disallowedFields: ['givenName', 'mail'] } }]);
    expect(passwordRequirements('My-password-2026X', owner)).toEqual([{ policyRequirement: 'CANNOT_CONTAIN_OTHERS', params: { disallowedFields: ['sn'] } }]);
    expect(codes('Xx-Li-Secret-2026')).toEqual([]);
    expect(passwordRequirements('Xx-Li-Secret-2026', { ...owner, sn: 'Li' })).toEqual([]);
  });

  it('reports every failed requirement at once', () => {
    expect(codes('abc')).toEqual(['MIN_LENGTH', 'AT_LEAST_X_CAPITAL_LETTERS', 'AT_LEAST_X_NUMBERS']);
  });
});

describe('profile policy', () => {
  it('REQUIRED for first name, last name and e-mail only', () => {
    expect(fieldRequirements('givenName', ' ')).toEqual([{ policyRequirement: 'REQUIRED' }]);
    expect(fieldRequirements('sn', '')).toEqual([{ policyRequirement: 'REQUIRED' }]);
    expect(fieldRequirements('mail', '')).toEqual([{ policyRequirement: 'REQUIRED' }]);
    expect(fieldRequirements('city', '')).toEqual([]);
    expect(fieldRequirements('telephoneNumber', '')).toEqual([]);
  });

  it('VALID_NAME_FORMAT', () => {
    expect(fieldRequirements('givenName', "Anne-Marie O'Neil")).toEqual([]);
    expect(fieldRequirements('sn', 'Müller')).toEqual([]);
    expect(fieldRequirements('sn', '山田')).toEqual([]);
    expect(fieldRequirements('givenName', 'R2D2')).toEqual([{ policyRequirement: 'VALID_NAME_FORMAT' }]);
    expect(fieldRequirements('givenName', '<b>')).toEqual([{ policyRequirement: 'VALID_NAME_FORMAT' }]);
  });

  it('VALID_EMAIL_ADDRESS_FORMAT', () => {
    expect(fieldRequirements('mail', 'ana@example.com')).toEqual([]);
    expect(fieldRequirements('mail', 'ana@example')).toEqual([{ policyRequirement: 'VALID_EMAIL_ADDRESS_FORMAT' }]);
    expect(fieldRequirements('mail', 'ana example.com')).toEqual([{ policyRequirement: 'VALID_EMAIL_ADDRESS_FORMAT' }]);
  });

  it('VALID_PHONE_FORMAT', () => {
    expect(fieldRequirements('telephoneNumber', '+41 (0)41 455-04 55')).toEqual([]);
    expect(fieldRequirements('telephoneNumber', 'call me')).toEqual([{ policyRequirement: 'VALID_PHONE_FORMAT' }]);
    expect(fieldRequirements('telephoneNumber', '123')).toEqual([{ policyRequirement: 'VALID_PHONE_FORMAT' }]);
  });

  it('MAX_LENGTH with the bound', () => {
    expect(fieldRequirements('city', 'x'.repeat(101))).toEqual([{ policyRequirement: 'MAX_LENGTH', params: { maxLength: 100 } }]);
    expect(fieldRequirements('custom_company', 'x'.repeat(200))).toEqual([]);
  });

  it('MATCH_REGEXP for country codes and languages', () => {
    expect(fieldRequirements('country', 'CH')).toEqual([]);
    expect(fieldRequirements('country', 'ch')).toEqual([{ policyRequirement: 'MATCH_REGEXP', params: { regexp: '^[A-Z]{2}$' } }]);
    expect(fieldRequirements('custom_language', 'de')).toEqual([]);
    expect(fieldRequirements('custom_language', 'xx')).toEqual([{ policyRequirement: 'MATCH_REGEXP', params: { regexp: '^(en|cs|de|es|fr|hu|ja|pt|ro|sk|zh)$' } }]);
  });

  it('profileFailures: one entry per failing changed field, in IDM shape', () => {
    const failures = profileFailures({ givenName: '', city: 'Dierikon', mail: 'nope' });
    expect(failures).toEqual([
      { property: 'givenName', policyRequirements: [{ policyRequirement: 'REQUIRED' }] },
      { property: 'mail', policyRequirements: [{ policyRequirement: 'VALID_EMAIL_ADDRESS_FORMAT' }] },
    ]);
    expect(policyError(failures)).toMatchObject({ code: 403, reason: 'Forbidden', message: 'Failed policy validation', detail: { result: false, failedPolicyRequirements: failures } });
  });
});
