import { describe, expect, it } from 'vitest';
import { ConfigurationError, invalidHomePageMessage, noCountryForLanguageMessage, noNavigationItemMessage, pageCountryFor, pageNotFoundMessage } from './config-errors.ts';

// The texts are the spec's (public-site §8), written out here rather than built from the module.
describe('configuration error texts', () => {
  it('names the site and the country of an invalid home page configuration', () => {
    expect(invalidHomePageMessage({ name: 'Komax Brand Portal' }, 'CH'))
      .toBe('Invalid home page configuration for site Komax Brand Portal: no universal page configured and no page configured for country CH');
  });

  it('names the page and the language no country of it supports', () => {
    expect(noCountryForLanguageMessage({ id: 'cm-page' }, 'ja')).toBe('Page cm-page does not have countries supporting its content language ja');
  });

  it('names the slug of a missing navigation item, and the full path of a route not found', () => {
    expect(noNavigationItemMessage('no-such-page')).toBe('[siteData] no navigation item with slug no-such-page exists');
    expect(pageNotFoundMessage('/en/no-such-page?x=1')).toBe('Page Not Found: /en/no-such-page?x=1');
  });
});

describe('pageCountryFor', () => {
  const countries = [
    { countryCode: 'DE', supportedLanguages: ['de', 'en'] },
    { countryCode: 'CH', supportedLanguages: ['de', 'fr', 'en'] },
    { countryCode: 'JP', supportedLanguages: ['ja', 'en'] },
  ];

  it('is null for a page offered in every country (any locale of the language shows it)', () => {
    expect(pageCountryFor({ id: 'p', countries: [] }, 'fr', countries)).toBeNull();
  });

  it('picks the first of the page\'s countries that supports the language', () => {
    expect(pageCountryFor({ id: 'p', countries: ['DE', 'CH'] }, 'fr', countries)).toBe('CH');
    expect(pageCountryFor({ id: 'p', countries: ['DE', 'CH'] }, 'de', countries)).toBe('DE');
  });

  it('raises the spec\'s error when none of the page\'s countries supports the language', () => {
    const call = () => pageCountryFor({ id: 'cm-restricted', countries: ['DE', 'CH', 'XX'] }, 'ja', countries);
    expect(call).toThrow(ConfigurationError);
    expect(call).toThrow('Page cm-restricted does not have countries supporting its content language ja');
  });
});
