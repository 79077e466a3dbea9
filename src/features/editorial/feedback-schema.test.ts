import { describe, expect, it } from 'vitest';
import { FEEDBACK_FIELDS, validateFeedback } from './feedback-schema.ts';

const COUNTRIES = ['CH', 'DE', 'US'];
const valid = { firstName: 'Ada', lastName: 'Muster', company: 'ACME AG', country: 'CH', message: 'A very useful story.' };

describe('validateFeedback', () => {
  it('accepts complete input and trims it', () => {
    expect(validateFeedback({ ...valid, firstName: '  Ada ', country: 'ch' }, COUNTRIES)).toEqual({ ok: true, value: { ...valid } });
  });

  it('gives a required message for every empty field', () => {
    const result = validateFeedback({ firstName: '', lastName: ' ', company: '', country: '', message: '\n' }, COUNTRIES);
    expect(result).toEqual({
      ok: false,
      errors: {
        firstName: { key: 'feedback.firstNameRequired' },
        lastName: { key: 'feedback.lastNameRequired' },
        company: { key: 'feedback.companyRequired' },
        country: { key: 'feedback.countryRequired' },
        message: { key: 'feedback.messageRequired' },
      },
    });
  });

  it('treats missing fields and a non-object body as empty', () => {
    const missing = validateFeedback({}, COUNTRIES);
    const garbage = validateFeedback('hello', COUNTRIES);
    for (const r of [missing, garbage]) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(Object.keys(r.errors).sort()).toEqual([...FEEDBACK_FIELDS].sort());
    }
  });

  it('refuses a country that is not offered', () => {
    const r = validateFeedback({ ...valid, country: 'XX' }, COUNTRIES);
    expect(r).toEqual({ ok: false, errors: { country: { key: 'feedback.invalid' } } });
  });

  it('refuses a value that is not a string', () => {
    const r = validateFeedback({ ...valid, company: 42 }, COUNTRIES);
    expect(r).toEqual({ ok: false, errors: { company: { key: 'feedback.invalid' } } });
  });

  it('limits the message to 2000 characters (counting characters, not UTF-16 units)', () => {
    expect(validateFeedback({ ...valid, message: '😀'.repeat(2000) }, COUNTRIES).ok).toBe(true);
    expect(validateFeedback({ ...valid, message: 'x'.repeat(2001) }, COUNTRIES)).toEqual({ ok: false, errors: { message: { key: 'feedback.tooLong', params: { max: 2000 } } } });
  });
});
