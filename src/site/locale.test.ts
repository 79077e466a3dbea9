import { describe, expect, it } from 'vitest';
import {
  allCountry,
  checkLocale,
  contentLocaleChain,
  effectiveLocaleChain,
  fallbackLanguage,
  langAttr,
  localizedName,
  localizedNameOf,
  makeLocale,
  measurementSystem,
  parseLocaleSegment,
  preferredLocale,
  sisCode,
  siteLanguages,
  siteLocales,
} from './locale.ts';
import type { Country, Language, Site } from './types.ts';

const language = (languageCode: string, standard = true): Language => ({
  languageCode, defaultCountry: languageCode.toUpperCase(), standard, localizations: [],
});

const country = (countryCode: string, supportedLanguages: string[], extra: Partial<Country> = {}): Country => ({
  countryCode, hidden: false, supportedLanguages, defaultLanguage: supportedLanguages[0]!,
  defaultMeasurementSystem: 'Metric', sortIndex: 0, localizations: [], ...extra,
});

const site = (extra: Partial<Site> = {}): Site => ({
  id: 'site-main', name: 'Komax', technicalName: 'komax', slug: '', isMain: true, internationalOnly: false,
  hideSideButtons: false, enableCutFont: false, theme: 'Default', mainSiteOnly: false,
  headerNavigationId: 'h', footerNavigationId: 'f', domains: [{ host: 'localhost', slug: null }],
  addLanguages: [], dropLanguages: [], ...extra,
});

// es is offered only where a site adds it (like the North America events site).
const languages = [language('en'), language('cs'), language('de'), language('fr'), language('es', false)];
const countries = [
  country('CH', ['de', 'fr', 'en']),
  country('US', ['en', 'es'], { defaultMeasurementSystem: 'Imperial' }),
  country('DE', ['de']),
  country('XX', ['en'], { hidden: true }),
];
const system = { languages, countries };

const main = site();
const brandPortal = site({ id: 'bp', slug: 'brand-portal', isMain: false, internationalOnly: true, dropLanguages: ['de'] });
const eventsNA = site({ id: 'ev', isMain: false, internationalOnly: true, addLanguages: ['es'], dropLanguages: ['de'] });
const germanSite = site({ id: 'ls', slug: 'lehrstellen', isMain: false, internationalOnly: true, dropLanguages: ['en'] });
const frenchAdder = site({ id: 'fa', isMain: false, addLanguages: ['fr'] });

describe('parseLocaleSegment', () => {
  it('reads a language with an optional country, normalising case', () => {
    expect(parseLocaleSegment('de')).toEqual({ language: 'de', country: null });
    expect(parseLocaleSegment('DE')).toEqual({ language: 'de', country: null });
    expect(parseLocaleSegment('de-CH')).toEqual({ language: 'de', country: 'CH' });
    expect(parseLocaleSegment('de-ch')).toEqual({ language: 'de', country: 'CH' });
  });

  it.each(['', 'deu', 'de_CH', 'de-CHE', 'products', 'd', '12'])('rejects %j', (segment) => {
    expect(parseLocaleSegment(segment)).toBeNull();
  });
});

describe('makeLocale', () => {
  it('builds a country locale with its URL and SIS codes', () => {
    expect(makeLocale('de', 'ch')).toEqual({
      code: 'de-CH', urlCode: 'de-ch', sisCode: 'de-CH', isInternational: false, language: 'de', country: 'CH',
    });
  });

  it('treats a missing country and ALL as the international locale', () => {
    const expected = { code: 'en', urlCode: 'en', sisCode: 'en-US', isInternational: true, language: 'en', country: 'ALL' };
    expect(makeLocale('EN', null)).toEqual(expected);
    expect(makeLocale('en', 'ALL')).toEqual(expected);
  });
});

describe('langAttr', () => {
  it('names the language of a fragment written in another language than the page', () => {
    expect(langAttr('en', 'ja')).toBe('en');
    expect(langAttr('EN', 'zh')).toBe('en');
    expect(langAttr('de-CH', 'fr')).toBe('de');
  });
  it('says nothing when the languages agree (locales of one language included) or the language is unknown', () => {
    expect(langAttr('ja', 'ja')).toBeUndefined();
    expect(langAttr('de', 'de-CH')).toBeUndefined();
    expect(langAttr('de-AT', 'de')).toBeUndefined();
    expect(langAttr(null, 'ja')).toBeUndefined();
    expect(langAttr(undefined, 'ja')).toBeUndefined();
    expect(langAttr('', 'ja')).toBeUndefined();
  });
});

describe('sisCode', () => {
  it.each([
    ['en', 'en-US'], ['de', 'de-CH'], ['fr', 'fr-FR'], ['zh', 'zh-CN'], ['ja', 'ja-JP'], ['es', 'es-ES'],
    ['pt', 'pt-BR'], ['cs', 'cs-CZ'], ['hu', 'hu-HU'], ['ro', 'ro-RO'], ['sk', 'sk-SK'],
  ])('maps %s to %s', (lang, code) => {
    expect(sisCode(lang)).toBe(code);
  });

  it('maps any other language to en-US', () => {
    expect(sisCode('it')).toBe('en-US');
    expect(sisCode('xx')).toBe('en-US');
  });

  it('ignores case', () => {
    expect(sisCode('DE')).toBe('de-CH');
  });
});

describe('allCountry', () => {
  it('covers every language and is named All / Alle', () => {
    const all = allCountry(languages);
    expect(all.countryCode).toBe('ALL');
    expect(all.supportedLanguages).toEqual(['en', 'cs', 'de', 'fr', 'es']);
    expect(all.localizations).toEqual(expect.arrayContaining([
      { locale: 'en', displayName: 'All' }, { locale: 'de', displayName: 'Alle' },
    ]));
  });
});

describe('siteLanguages', () => {
  it('offers the standard languages on a site without rules', () => {
    expect(siteLanguages(main, languages)).toEqual(['cs', 'de', 'en', 'fr']);
  });

  it('adds and drops languages from the site data', () => {
    expect(siteLanguages(eventsNA, languages)).toEqual(['cs', 'en', 'es', 'fr']);
    expect(siteLanguages(brandPortal, languages)).toEqual(['cs', 'en', 'fr']);
    expect(siteLanguages(germanSite, languages)).toEqual(['cs', 'de', 'fr']);
  });

  it('adds a language that is not standard and keeps one that already is', () => {
    const noFrench = [language('en'), language('fr', false)];
    expect(siteLanguages(frenchAdder, noFrench)).toEqual(['en', 'fr']);
    expect(siteLanguages(main, noFrench)).toEqual(['en']);
  });

  it('ignores added languages the content hub does not know', () => {
    expect(siteLanguages(site({ addLanguages: ['xx'] }), languages)).not.toContain('xx');
  });
});

describe('fallbackLanguage', () => {
  it('is English while the site offers it', () => {
    expect(fallbackLanguage(main, languages)).toBe('en');
    expect(fallbackLanguage(eventsNA, languages)).toBe('en');
  });

  it('is one of the site languages when the site drops English', () => {
    const fallback = fallbackLanguage(germanSite, languages);
    expect(fallback).not.toBe('en');
    expect(siteLanguages(germanSite, languages)).toContain(fallback);
  });
});

describe('checkLocale', () => {
  it('accepts an international locale of a site language', () => {
    expect(checkLocale({ language: 'de', country: null }, main, system)).toEqual({ ok: true, locale: makeLocale('de', null) });
  });

  it('accepts a country locale whose country supports the language', () => {
    expect(checkLocale({ language: 'fr', country: 'CH' }, main, system)).toEqual({ ok: true, locale: makeLocale('fr', 'CH') });
  });

  it('refuses (404) a language the site does not offer', () => {
    expect(checkLocale({ language: 'it', country: null }, main, system)).toEqual({ ok: false });
    expect(checkLocale({ language: 'de', country: null }, brandPortal, system)).toEqual({ ok: false });
    expect(checkLocale({ language: 'es', country: null }, main, system)).toEqual({ ok: false });
    expect(checkLocale({ language: 'es', country: null }, eventsNA, system).ok).toBe(true);
  });

  it('refuses (404) an unknown country and a country that does not support the language', () => {
    expect(checkLocale({ language: 'de', country: 'AT' }, main, system)).toEqual({ ok: false });
    expect(checkLocale({ language: 'fr', country: 'DE' }, main, system)).toEqual({ ok: false });
  });

  it('redirects a country locale to the language locale on an international-only site', () => {
    expect(checkLocale({ language: 'en', country: 'US' }, brandPortal, system)).toEqual({ ok: false, redirectTo: makeLocale('en', null) });
  });

  it('does not redirect on an international-only site when the language itself is not offered', () => {
    expect(checkLocale({ language: 'de', country: 'CH' }, brandPortal, system)).toEqual({ ok: false });
  });
});

describe('preferredLocale', () => {
  it('uses the remembered locale when the site offers it', () => {
    expect(preferredLocale('de-ch', main, system)).toEqual(makeLocale('de', 'CH'));
  });

  it('uses the language of a remembered country locale on an international-only site', () => {
    expect(preferredLocale('fr-CH', brandPortal, system)).toEqual(makeLocale('fr', null));
  });

  it('falls back to the site fallback language when nothing usable is remembered', () => {
    expect(preferredLocale(undefined, main, system)).toEqual(makeLocale('en', null));
    expect(preferredLocale('de-CH', brandPortal, system)).toEqual(makeLocale('en', null));
    expect(preferredLocale('not-a-locale', main, system)).toEqual(makeLocale('en', null));
    expect(preferredLocale(undefined, germanSite, system)).toEqual(makeLocale(fallbackLanguage(germanSite, languages), null));
  });
});

describe('measurementSystem', () => {
  const us = countries.find((c) => c.countryCode === 'US')!;
  const ch = countries.find((c) => c.countryCode === 'CH')!;

  it('prefers the saved choice', () => {
    expect(measurementSystem('Imperial', ch)).toBe('Imperial');
    expect(measurementSystem('Metric', us)).toBe('Metric');
  });

  it('uses the country default without a valid saved choice', () => {
    expect(measurementSystem(undefined, us)).toBe('Imperial');
    expect(measurementSystem('imperial-ish', us)).toBe('Imperial');
    expect(measurementSystem(undefined, ch)).toBe('Metric');
  });

  it('is Metric without a saved choice or country', () => {
    expect(measurementSystem(undefined, undefined)).toBe('Metric');
  });
});

describe('localizedName', () => {
  const names = [
    { locale: 'fr', displayName: 'Suisse' },
    { locale: 'en', displayName: 'Switzerland' },
    { locale: 'de', displayName: 'Schweiz' },
    { locale: 'de-CH', displayName: 'Schwiiz' },
  ];

  it('says which language the picked name is in (null for the code used when there is none)', () => {
    expect(localizedNameOf(names, makeLocale('de', 'CH'), '?')).toEqual({ name: 'Schwiiz', language: 'de' });
    expect(localizedNameOf(names, makeLocale('ja', null), '?')).toEqual({ name: 'Switzerland', language: 'en' });
    expect(localizedNameOf([], makeLocale('ja', null), 'CH')).toEqual({ name: 'CH', language: null });
  });

  it('picks the exact locale, then the language, then English, then the first entry', () => {
    expect(localizedName(names, makeLocale('de', 'CH'), '?')).toBe('Schwiiz');
    expect(localizedName(names, makeLocale('de', 'DE'), '?')).toBe('Schweiz');
    expect(localizedName(names, makeLocale('ja', null), '?')).toBe('Switzerland');
    expect(localizedName(names.filter((n) => n.locale !== 'en'), makeLocale('ja', null), '?')).toBe('Suisse');
  });

  it('uses the fallback when there are no names', () => {
    expect(localizedName([], makeLocale('de', null), 'CH')).toBe('CH');
  });
});

describe('contentLocaleChain', () => {
  it('lists the locale, its language, then English', () => {
    expect(contentLocaleChain(makeLocale('de', 'CH'))).toEqual(['de-CH', 'de', 'en']);
    expect(contentLocaleChain(makeLocale('de', null))).toEqual(['de', 'en']);
    expect(contentLocaleChain(makeLocale('en', null))).toEqual(['en']);
    expect(contentLocaleChain(makeLocale('en', 'US'))).toEqual(['en-US', 'en']);
  });

  it('puts the site fallback language before English', () => {
    expect(contentLocaleChain(makeLocale('fr', 'CH'), 'de')).toEqual(['fr-CH', 'fr', 'de', 'en']);
  });

  it('keeps an English page in English even when the site falls back to another language', () => {
    expect(contentLocaleChain(makeLocale('en', null), 'de')).toEqual(['en']);
    expect(contentLocaleChain(makeLocale('en', 'US'), 'de')).toEqual(['en-US', 'en']);
  });

  it('always ends with English, once, whatever the locale and fallback', () => {
    for (const loc of [makeLocale('en', null), makeLocale('en', 'US'), makeLocale('de', 'CH'), makeLocale('fr', null)]) {
      for (const fallback of ['en', 'de', 'fr']) {
        const chain = contentLocaleChain(loc, fallback);
        expect(chain.at(-1), `${loc.code} / ${fallback}`).toBe('en');
        expect(chain.filter((c) => c === 'en'), `${loc.code} / ${fallback}`).toHaveLength(1);
        expect(new Set(chain).size).toBe(chain.length);
        expect(chain[0]).toBe(loc.code);
      }
    }
  });
});

describe('siteLocales', () => {
  const codes = (s: Site, opts?: { includeHidden?: boolean }) => siteLocales(s, system, opts).map((l) => l.code);

  it('offers one international locale per site language and one per visible country and supported language', () => {
    expect(codes(main)).toEqual(['cs', 'de', 'en', 'fr', 'de-CH', 'fr-CH', 'en-CH', 'en-US', 'de-DE']);
  });

  it('leaves out hidden countries unless asked', () => {
    expect(codes(main)).not.toContain('en-XX');
    expect(codes(main, { includeHidden: true })).toContain('en-XX');
  });

  it('offers only international locales on an international-only site', () => {
    expect(codes(eventsNA)).toEqual(['cs', 'en', 'es', 'fr']);
  });

  it('only offers country locales in the site languages', () => {
    const nonIntl = site({ dropLanguages: ['de'], addLanguages: ['es'] });
    expect(codes(nonIntl)).toEqual(['cs', 'en', 'es', 'fr', 'fr-CH', 'en-CH', 'en-US', 'es-US']);
  });
});

describe('effectiveLocaleChain', () => {
  it('drops locales without content, keeping English last', () => {
    expect(effectiveLocaleChain(['de-CH', 'de', 'en'], ['en', 'de', 'fr'])).toEqual(['de', 'en']);
    expect(effectiveLocaleChain(['cs', 'en'], ['en', 'de'])).toEqual(['en']);
    expect(effectiveLocaleChain(['de-CH', 'de', 'en'], ['en', 'de', 'de-CH'])).toEqual(['de-CH', 'de', 'en']);
  });

  it('keeps the chain when the content hub names no locales', () => {
    expect(effectiveLocaleChain(['de-CH', 'de', 'en'], undefined)).toEqual(['de-CH', 'de', 'en']);
  });
});
