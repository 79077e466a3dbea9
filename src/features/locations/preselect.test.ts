import { describe, expect, it } from 'vitest';
import { makeLocale } from '../../site/locale.ts';
import { preselectedCountry } from './preselect.ts';

const COUNTRIES = ['CH', 'DE', 'US', 'JP'];

describe('preselectedCountry', () => {
  it('preselects the locale\'s country', () => {
    expect(preselectedCountry(makeLocale('de', 'CH'), COUNTRIES)).toBe('CH');
    expect(preselectedCountry(makeLocale('en', 'us'), COUNTRIES)).toBe('US');
    expect(preselectedCountry(makeLocale('ja', 'JP'), COUNTRIES)).toBe('JP');
  });

  it('shows every country on the international locale', () => {
    expect(preselectedCountry(makeLocale('en', null), COUNTRIES)).toBeNull();
    expect(preselectedCountry(makeLocale('de', null), COUNTRIES)).toBeNull();
  });

  it('shows every country when the locale\'s country has no entries', () => {
    expect(preselectedCountry(makeLocale('fr', 'FR'), COUNTRIES)).toBeNull();
    expect(preselectedCountry(makeLocale('fr', 'FR'), [])).toBeNull();
  });
});
