import { describe, expect, it } from 'vitest';
import { languageEndonym, languageName, localeMenu } from './locale-menu.ts';
import { makeLocale } from './locale.ts';
import type { Country, Language, Site } from './types.ts';

const language = (languageCode: string, standard = true): Language => ({ languageCode, defaultCountry: '', standard, localizations: [] });
const country = (countryCode: string, supportedLanguages: string[], names: Record<string, string>, hidden = false): Country => ({
  countryCode, hidden, supportedLanguages, defaultLanguage: supportedLanguages[0]!, defaultMeasurementSystem: 'Metric', sortIndex: 0,
  localizations: Object.entries(names).map(([locale, displayName]) => ({ locale, displayName })),
});
const site = (extra: Partial<Site> = {}): Site => ({
  id: 'main', name: 'Komax', technicalName: 'komax', slug: '', isMain: true, internationalOnly: false, hideSideButtons: false,
  enableCutFont: false, theme: 'Default', mainSiteOnly: false, headerNavigationId: 'h', footerNavigationId: 'f',
  domains: [], addLanguages: [], dropLanguages: [], ...extra,
});

const system = {
  languages: [language('en'), language('de'), language('fr'), language('es', false)],
  countries: [
    country('CH', ['de', 'fr', 'en'], { en: 'Switzerland', de: 'Schweiz' }),
    country('ES', ['es'], { en: 'Spain' }),
    country('XX', ['en'], { en: 'Hidden' }, true),
  ],
};

describe('localeMenu', () => {
  it('lists the international languages first, then each visible country with its site languages', () => {
    const menu = localeMenu(site(), system, makeLocale('de', 'CH'), '/about-us');
    expect(menu.map((g) => [g.countryCode, g.name, g.options.map((o) => o.locale.code)])).toEqual([
      ['ALL', '', ['de', 'en', 'fr']],
      ['CH', 'Schweiz', ['de-CH', 'fr-CH', 'en-CH']],
    ]);
  });

  it('leads to the locale home where the page is not offered (no link to a 404), the international locales always to the page', () => {
    const menu = localeMenu(site(), { ...system, countries: [...system.countries, country('US', ['en'], { en: 'United States' })] }, makeLocale('en', null), '/industries/aerospace', ['US']);
    expect(Object.fromEntries(menu.flatMap((g) => g.options).map((o) => [o.locale.code, o.href]))).toEqual({
      de: '/de/industries/aerospace', en: '/en/industries/aerospace', fr: '/fr/industries/aerospace',
      'de-CH': '/de-ch', 'fr-CH': '/fr-ch', 'en-CH': '/en-ch',
      'en-US': '/en-us/industries/aerospace',
    });
  });

  it('keeps the page path in every link and marks the current locale', () => {
    const menu = localeMenu(site({ slug: 'brand-portal' }), system, makeLocale('fr', 'CH'), '/logos');
    const ch = menu.find((g) => g.countryCode === 'CH')!;
    expect(ch.options.map((o) => o.href)).toEqual(['/de-ch/brand-portal/logos', '/fr-ch/brand-portal/logos', '/en-ch/brand-portal/logos']);
    expect(menu.flatMap((g) => g.options).filter((o) => o.current).map((o) => o.locale.code)).toEqual(['fr-CH']);
  });

  it('labels options with the language name in that language', () => {
    const [intl] = localeMenu(site(), system, makeLocale('en', null), '');
    expect(intl!.options.map((o) => o.label)).toEqual(['Deutsch', 'English', 'Français']);
  });

  it('offers a country only for languages the site has', () => {
    const menu = localeMenu(site({ addLanguages: ['es'] }), system, makeLocale('en', null), '');
    expect(menu.map((g) => g.countryCode)).toEqual(['ALL', 'CH', 'ES']);
  });

  it('shows only the international group on an international-only site', () => {
    const menu = localeMenu(site({ internationalOnly: true }), system, makeLocale('en', null), '');
    expect(menu.map((g) => g.countryCode)).toEqual(['ALL']);
  });
});

describe('language names', () => {
  it('gives the endonym, capitalised', () => {
    expect(languageEndonym('de')).toBe('Deutsch');
    expect(languageEndonym('fr')).toBe('Français');
    expect(languageEndonym('ja')).toBe('日本語');
  });

  it('gives the name in the page language', () => {
    expect(languageName('de', 'en')).toBe('German');
    expect(languageName('en', 'de')).toBe('Englisch');
  });

  it('gives the code back for an invalid code', () => {
    expect(languageEndonym('not a code')).toBe('not a code');
    expect(languageName('not a code', 'en')).toBe('not a code');
  });
});
