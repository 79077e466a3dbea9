import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import { FORM_KINDS, fieldsOf, honeypotFilled, messageKeysOf } from './definitions.ts';
import { toSubmission, validateForm } from './schema.ts';

const COUNTRIES = ['CH', 'DE', 'US'];
const english = (key: string) => (en as Record<string, string>)[key];
const messagesOf = (kind: Parameters<typeof validateForm>[0], input: unknown) => {
  const r = validateForm(kind, input, COUNTRIES);
  if (r.ok) throw new Error('expected problems');
  return Object.fromEntries(Object.entries(r.errors).map(([f, key]) => [f, english(key)]));
};

const openSource = { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines', country: 'ch', product: 'Alpha 550', serialNumber: 'SN-1', message: 'Please send the sources.' };
const service = {
  firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', telephone: '+41 41 000 00 00', company: 'AE', address: 'Industriestrasse 6', city: 'Dierikon', state: 'LU', zipCode: '6036', country: 'CH',
  requestedService: 'repair', reason: 'breakdown', subject: 'Crimp height drifts', description: 'Since Monday.', machineName: 'Alpha 550', serialNumber: '550-1234',
};
const whitepaper = { name: 'Ada Lovelace', email: 'ada@example.com', company: 'AE', country: 'DE', consent: 'on', file: 'whitepaper-smart-factory' };
const contact = { name: 'Ada Lovelace', email: 'ada@example.com', company: 'AE', country: 'US', topic: 'products', message: 'Call me.', consent: true };

describe('the open-source request form', () => {
  it('shows the eight spec messages verbatim on an empty submit', () => {
    expect(messagesOf('openSource', {})).toEqual({
      email: 'Please provide a valid email address',
      firstName: 'Please enter your first name',
      lastName: 'Please enter your last name',
      company: 'Please enter the company you work for',
      country: "Please enter the country you're in",
      product: 'Please specify the product your request regards',
      serialNumber: 'Please enter the serial number of your product',
      message: 'Please add some more details',
    });
  });
  it('accepts a complete request (trimmed, country in upper case)', () => {
    const r = validateForm('openSource', { ...openSource, firstName: '  Ada ' }, COUNTRIES);
    expect(r).toEqual({ ok: true, value: { ...openSource, country: 'CH' } });
  });
  it('refuses a malformed e-mail with the e-mail message and anything else with the default message', () => {
    expect(messagesOf('openSource', { ...openSource, email: 'ada@' })).toEqual({ email: 'Please provide a valid email address' });
    expect(messagesOf('openSource', { ...openSource, country: 'XX' })).toEqual({ country: 'Please enter a valid value' });
    expect(messagesOf('openSource', { ...openSource, message: 'x'.repeat(4001) })).toEqual({ message: 'Please enter a valid value' });
    expect(messagesOf('openSource', { ...openSource, product: 42 })).toEqual({ product: 'Please enter a valid value' });
  });
  it('treats an input that is not an object as empty', () => {
    expect(Object.keys(messagesOf('openSource', 'nonsense'))).toHaveLength(8);
  });
});

describe('the service request form', () => {
  it('asks for every required field on an empty submit, not for the optional ones', () => {
    expect(Object.keys(messagesOf('serviceRequest', {})).sort()).toEqual(
      ['address', 'city', 'company', 'country', 'description', 'email', 'firstName', 'lastName', 'machineName', 'requestedService', 'serialNumber', 'subject', 'zipCode'],
    );
  });
  it('requires the state only where the country has states, and keeps one given elsewhere', () => {
    for (const country of ['CH', 'DE', 'AT']) {
      expect(validateForm('serviceRequest', { ...service, country, state: '' }, [...COUNTRIES, 'AT']), country).toMatchObject({ ok: true });
    }
    expect(validateForm('serviceRequest', { ...service, country: 'CH', state: 'LU' }, COUNTRIES)).toMatchObject({ ok: true, value: { state: 'LU' } });
    expect(messagesOf('serviceRequest', { ...service, country: 'us', state: ' ' })).toEqual({ state: 'Please enter the state' });
    expect(validateForm('serviceRequest', { ...service, country: 'US', city: 'Dallas', state: 'TX' }, COUNTRIES)).toMatchObject({ ok: true, value: { state: 'TX' } });
    // Reported together with the other problems.
    expect(messagesOf('serviceRequest', { country: 'US' }).state).toBe('Please enter the state');
  });
  it('requires the return state only for a separate return address in a country with states', () => {
    const ret = { ...service, separateReturnAddress: true, returnAddress: '1 Main St', returnCity: 'Dallas', returnZipCode: '75201', returnState: '' };
    expect(validateForm('serviceRequest', { ...ret, returnCountry: 'DE' }, COUNTRIES)).toMatchObject({ ok: true });
    expect(messagesOf('serviceRequest', { ...ret, returnCountry: 'US' })).toEqual({ returnState: 'Please enter the state' });
    expect(validateForm('serviceRequest', { ...service, returnCountry: 'US' }, COUNTRIES)).toMatchObject({ ok: true });
  });
  it('requires the case id only when the request refers to an existing case', () => {
    expect(validateForm('serviceRequest', { ...service, existingCase: 'no' }, COUNTRIES).ok).toBe(true);
    expect(messagesOf('serviceRequest', { ...service, existingCase: 'yes' })).toEqual({ caseId: 'Please enter the case ID' });
    expect(validateForm('serviceRequest', { ...service, existingCase: 'yes', caseId: 'CASE-77' }, COUNTRIES)).toMatchObject({ ok: true, value: { caseId: 'CASE-77' } });
    // Reported together with the other problems, not only once the rest is right.
    expect(messagesOf('serviceRequest', { existingCase: 'yes' }).caseId).toBe('Please enter the case ID');
  });
  it('requires the return address only when a separate one is asked for, and drops it otherwise', () => {
    expect(Object.keys(messagesOf('serviceRequest', { ...service, separateReturnAddress: 'on' })).sort())
      .toEqual(['returnAddress', 'returnCity', 'returnCountry', 'returnZipCode']);
    const withReturn = { ...service, separateReturnAddress: true, returnAddress: 'Hauptstrasse 1', returnCity: 'Bern', returnState: 'BE', returnZipCode: '3000', returnCountry: 'ch' };
    expect(validateForm('serviceRequest', withReturn, COUNTRIES)).toMatchObject({ ok: true, value: { returnCountry: 'CH', separateReturnAddress: true } });
    const unchecked = validateForm('serviceRequest', { ...service, returnCity: 'Bern' }, COUNTRIES);
    expect(unchecked.ok && 'returnCity' in unchecked.value).toBe(false);
  });
  it('accepts only the offered services, and a yes/no case choice', () => {
    expect(messagesOf('serviceRequest', { ...service, requestedService: 'teleportation' })).toEqual({ requestedService: 'Please enter a valid value' });
    expect(messagesOf('serviceRequest', { ...service, existingCase: 'maybe' })).toEqual({ existingCase: 'Please enter a valid value' });
  });
});

describe('the whitepaper and contact forms', () => {
  it('need the consent checkbox, with the spec message', () => {
    expect(messagesOf('whitepaper', { ...whitepaper, consent: undefined })).toEqual({ consent: 'Please select the checkbox to continue' });
    expect(messagesOf('contact', { ...contact, consent: false })).toEqual({ consent: 'Please select the checkbox to continue' });
  });
  it('accept complete input', () => {
    expect(validateForm('whitepaper', whitepaper, COUNTRIES)).toMatchObject({ ok: true, value: { consent: true, file: 'whitepaper-smart-factory' } });
    expect(validateForm('contact', contact, COUNTRIES)).toMatchObject({ ok: true, value: { topic: 'products', consent: true } });
  });
  it('ask for each field on an empty submit', () => {
    expect(messagesOf('contact', {})).toEqual({
      name: 'Please enter your name', email: 'Please provide a valid email address', company: 'Please enter the company you work for',
      country: "Please enter the country you're in", topic: 'Please select a topic', message: 'Please add some more details', consent: 'Please select the checkbox to continue',
    });
    expect(messagesOf('whitepaper', { file: '../etc/passwd' })).toMatchObject({ file: 'Please enter a valid value', consent: 'Please select the checkbox to continue' });
  });
});

describe('helpers', () => {
  it('spots a filled honeypot', () => {
    expect(honeypotFilled({ website: 'http://spam.example' })).toBe(true);
    expect(honeypotFilled({ website: '  ' })).toBe(false);
    expect(honeypotFilled({})).toBe(false);
    expect(honeypotFilled(null)).toBe(false);
  });
  it('turns values into the stored text form', () => {
    expect(toSubmission({ a: 'x', b: '', c: true, d: false })).toEqual({ a: 'x', c: 'true', d: 'false' });
  });
  it('has an English text for every message and label of every form', () => {
    for (const kind of FORM_KINDS) {
      for (const key of messageKeysOf(kind)) expect(english(key), key).toBeTruthy();
      for (const f of fieldsOf(kind)) expect(english(f.label), f.label).toBeTruthy();
    }
  });
});
