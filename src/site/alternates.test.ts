import { describe, expect, it } from 'vitest';
import { alternateLinks, canonicalUrl, documentLinks, languageBannerLinks } from './alternates.ts';
import { makeLocale } from './locale.ts';
import type { Country, Language, Site } from './types.ts';

const language = (languageCode: string): Language => ({ languageCode, defaultCountry: '', standard: true, localizations: [] });
const country = (countryCode: string, supportedLanguages: string[], hidden = false): Country => ({
  countryCode, hidden, supportedLanguages, defaultLanguage: supportedLanguages[0]!, defaultMeasurementSystem: 'Metric', sortIndex: 0, localizations: [],
});
const site = (extra: Partial<Site> = {}): Site => ({
  id: 'main', name: 'Komax', technicalName: 'komax', slug: '', isMain: true, internationalOnly: false, hideSideButtons: false,
  enableCutFont: false, theme: 'Default', mainSiteOnly: false, headerNavigationId: 'h', footerNavigationId: 'f',
  domains: [], addLanguages: [], dropLanguages: [], ...extra,
});

const system = {
  languages: [language('en'), language('de'), language('fr')],
  countries: [country('CH', ['de', 'fr', 'en']), country('US', ['en']), country('XX', ['de'], true)],
};
const origin = 'https://komax.example';
const main = site();
const portal = site({ id: 'portal', slug: 'brand-portal', isMain: false, internationalOnly: true });

describe('alternateLinks', () => {
  it('lists every site locale in a language the page exists in, plus x-default in English', () => {
    expect(alternateLinks(main, system, { languages: ['en', 'de'], path: '/about-us' }, origin)).toEqual([
      { hreflang: 'de', href: 'https://komax.example/de/about-us' },
      { hreflang: 'en', href: 'https://komax.example/en/about-us' },
      { hreflang: 'de-CH', href: 'https://komax.example/de-ch/about-us' },
      { hreflang: 'en-CH', href: 'https://komax.example/en-ch/about-us' },
      { hreflang: 'en-US', href: 'https://komax.example/en-us/about-us' },
      { hreflang: 'x-default', href: 'https://komax.example/en/about-us' },
    ]);
  });

  it('leaves out the country locales where the page is not offered (they answer 404); international ones stay', () => {
    expect(alternateLinks(main, system, { languages: ['en', 'de'], path: '/aerospace', countries: ['US'] }, origin).map((l) => l.hreflang))
      .toEqual(['de', 'en', 'en-US', 'x-default']);
  });

  it('points x-default at the first international language when the page has no English', () => {
    const links = alternateLinks(main, system, { languages: ['fr', 'de'], path: '' }, origin);
    expect(links.at(-1)).toEqual({ hreflang: 'x-default', href: 'https://komax.example/de' });
    expect(links.map((l) => l.hreflang)).not.toContain('en');
  });

  it('uses the site slug and only international locales on an international-only site', () => {
    expect(alternateLinks(portal, system, { languages: ['en', 'fr'], path: '/logos' }, origin)).toEqual([
      { hreflang: 'en', href: 'https://komax.example/en/brand-portal/logos' },
      { hreflang: 'fr', href: 'https://komax.example/fr/brand-portal/logos' },
      { hreflang: 'x-default', href: 'https://komax.example/en/brand-portal/logos' },
    ]);
  });

  it('is empty for a page in no site language', () => {
    expect(alternateLinks(main, system, { languages: ['ja'], path: '/x' }, origin)).toEqual([]);
  });
});

describe('canonicalUrl', () => {
  it('is the page itself when it is shown in its own language', () => {
    expect(canonicalUrl(main, makeLocale('de', 'CH'), { contentLanguage: 'de', path: '/about-us' }, origin)).toBe('https://komax.example/de-ch/about-us');
  });

  it('is the international locale of the content language when shown as a fallback', () => {
    expect(canonicalUrl(main, makeLocale('fr', 'CH'), { contentLanguage: 'en', path: '/about-us' }, origin)).toBe('https://komax.example/en/about-us');
    expect(canonicalUrl(portal, makeLocale('fr', null), { contentLanguage: 'en', path: '' }, origin)).toBe('https://komax.example/en/brand-portal');
  });
});

describe('languageBannerLinks', () => {
  const langs = ['de', 'en', 'fr'];

  it("links the current country's variant when the country supports the language", () => {
    expect(languageBannerLinks(main, makeLocale('en', 'CH'), system, { languages: ['de', 'fr'], path: '/x' }, langs)).toEqual([
      { language: 'de', href: '/de-ch/x' },
      { language: 'fr', href: '/fr-ch/x' },
    ]);
  });

  it('links the international locale otherwise', () => {
    expect(languageBannerLinks(main, makeLocale('en', 'US'), system, { languages: ['de'], path: '/x' }, langs)).toEqual([
      { language: 'de', href: '/de/x' },
    ]);
  });

  it('always links international locales on an international-only site', () => {
    expect(languageBannerLinks(portal, makeLocale('en', 'CH'), system, { languages: ['fr'], path: '/x' }, langs)).toEqual([
      { language: 'fr', href: '/fr/brand-portal/x' },
    ]);
  });

  it('leaves out languages the site does not offer', () => {
    expect(languageBannerLinks(main, makeLocale('en', null), system, { languages: ['ja', 'de'], path: '' }, langs)).toEqual([
      { language: 'de', href: '/de' },
    ]);
  });
});

describe('documentLinks', () => {
  it('gives a fallback page its content-language canonical and a banner, and a native page neither', () => {
    const req = { site: main, locale: makeLocale('cs', null), system, languages: ['cs', 'de', 'en'] };
    const fallback = documentLinks(req, { languages: ['en'], contentLanguage: 'en', path: '/x' }, 'https://komax.example');
    expect(fallback.isFallback).toBe(true);
    expect(fallback.canonical).toBe('https://komax.example/en/x');
    expect(fallback.banner?.links.map((l) => l.language)).toEqual(['en']);
    const native = documentLinks({ ...req, locale: makeLocale('en', null) }, { languages: ['en'], contentLanguage: 'en', path: '/x' }, 'https://komax.example');
    expect(native.banner).toBeNull();
    expect(native.canonical).toBe('https://komax.example/en/x');
  });
});
