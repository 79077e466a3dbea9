import { describe, expect, it } from 'vitest';
import { countryHasStates } from './address.ts';

describe('countryHasStates', () => {
  it('is true where addresses name a state, province or prefecture', () => {
    for (const code of ['US', 'CA', 'MX', 'BR', 'CN', 'JP', 'ES']) expect(countryHasStates(code), code).toBe(true);
  });
  it('is false for Switzerland, Germany, Austria and the other demo countries without one', () => {
    for (const code of ['CH', 'DE', 'AT', 'FR', 'GB', 'CZ', 'HU', 'PT', 'RO', 'SK']) expect(countryHasStates(code), code).toBe(false);
  });
  it('reads codes in any case and nothing as no country', () => {
    expect(countryHasStates(' us ')).toBe(true);
    expect(countryHasStates('')).toBe(false);
    expect(countryHasStates(null)).toBe(false);
    expect(countryHasStates('XX')).toBe(false);
  });
});
