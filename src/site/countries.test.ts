import { describe, expect, it } from 'vitest';
import { countryChoices, isOfferedIn } from './countries.ts';
import { makeLocale } from './locale.ts';
import type { Country } from './types.ts';

describe('isOfferedIn', () => {
  it('reads an empty list as everywhere', () => {
    expect(isOfferedIn([], 'CH')).toBe(true);
  });
  it('shows listed countries only', () => {
    expect(isOfferedIn(['DE', 'AT'], 'DE')).toBe(true);
    expect(isOfferedIn(['DE', 'AT'], 'CH')).toBe(false);
  });
  it('shows everything in the international view', () => {
    expect(isOfferedIn(['DE'], 'ALL')).toBe(true);
  });
});

describe('countryChoices', () => {
  const country = (countryCode: string, names: Record<string, string>, hidden = false) => ({
    countryCode, hidden, localizations: Object.entries(names).map(([locale, displayName]) => ({ locale, displayName })),
  }) as unknown as Country;
  const countries = [country('ALL', { en: 'International' }), country('DE', { en: 'Germany', de: 'Deutschland' }), country('AT', { en: 'Austria', de: 'Österreich' }), country('XX', { en: 'Hidden' }, true), country('CH', { en: 'Switzerland', de: 'Schweiz' })];

  it('leaves out the international view and hidden countries, names them in the locale and sorts for its language', () => {
    expect(countryChoices(countries, makeLocale('de', 'CH'), 'de-CH').map((c) => c.name)).toEqual(['Deutschland', 'Österreich', 'Schweiz']);
    expect(countryChoices(countries, makeLocale('en', null), 'en').map((c) => c.code)).toEqual(['AT', 'DE', 'CH']);
  });
});
