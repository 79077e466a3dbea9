import { describe, expect, it } from 'vitest';
import { requestFlags, resolveRequest, type RequestInput, type Resolution } from './request.ts';
import type { Country, Language, Site, SystemData } from './types.ts';

const language = (languageCode: string, standard = true): Language => ({
  languageCode, defaultCountry: languageCode.toUpperCase(), standard, localizations: [],
});
const country = (countryCode: string, supportedLanguages: string[], extra: Partial<Country> = {}): Country => ({
  countryCode, hidden: false, supportedLanguages, defaultLanguage: supportedLanguages[0]!,
  defaultMeasurementSystem: 'Metric', sortIndex: 0, localizations: [], ...extra,
});
const site = (id: string, extra: Partial<Site>): Site => ({
  id, name: id, technicalName: id, slug: '', isMain: false, internationalOnly: false, hideSideButtons: false,
  enableCutFont: false, theme: 'Default', mainSiteOnly: false, headerNavigationId: 'h', footerNavigationId: 'f',
  domains: [], addLanguages: [], dropLanguages: [], ...extra,
});

const system: SystemData = {
  languages: [language('en'), language('de'), language('fr'), language('es', false)],
  countries: [
    country('CH', ['de', 'fr', 'en']),
    country('US', ['en', 'es'], { defaultMeasurementSystem: 'Imperial' }),
    country('DE', ['de']),
  ],
  sites: [
    site('main', { isMain: true, domains: [{ host: 'localhost', slug: null }] }),
    site('portal', { slug: 'brand-portal', internationalOnly: true, dropLanguages: ['de'], domains: [{ host: 'localhost', slug: 'brand-portal' }] }),
    site('events', { internationalOnly: true, addLanguages: ['es'], dropLanguages: ['de'], domains: [{ host: 'events.localhost', slug: null }] }),
  ],
  brands: [],
};

const resolve = (pathname: string, opts: Partial<Omit<RequestInput, 'pathname'>> = {}): Resolution =>
  resolveRequest(system, {
    host: 'localhost:4321',
    pathname,
    search: '',
    cookies: {},
    flags: { testing: false, nextRelease: false, editorMode: false },
    ...opts,
  });

const redirectOf = (r: Resolution) => (r.kind === 'redirect' ? r.redirect : null);
const ctxOf = (r: Resolution) => {
  if (r.kind !== 'page' && r.kind !== 'not-found') throw new Error(`expected a page, got ${JSON.stringify(r)}`);
  return r.ctx;
};

describe('trailing slash', () => {
  it('answers 301 to the clean URL, keeping the query', () => {
    expect(redirectOf(resolve('/en/about-us/', { search: '?a=1' }))).toEqual({ status: 301, location: '/en/about-us?a=1' });
    expect(redirectOf(resolve('/en/'))).toEqual({ status: 301, location: '/en' });
  });
});

describe('no locale in the URL', () => {
  it('sends the root to the home page of the fallback locale (302)', () => {
    expect(redirectOf(resolve('/'))).toEqual({ status: 302, location: '/en' });
  });

  it('sends a page path to the remembered locale, keeping path and query', () => {
    expect(redirectOf(resolve('/about-us', { search: '?x=1', cookies: { locale: 'de-ch' } })))
      .toEqual({ status: 302, location: '/de-ch/about-us?x=1' });
  });

  it('uses the fallback when the remembered locale is not offered by the site', () => {
    expect(redirectOf(resolve('/brand-portal/logos', { cookies: { locale: 'de-ch' } })))
      .toEqual({ status: 302, location: '/en/brand-portal/logos' });
  });

  it('uses the language of a remembered country locale on an international-only site', () => {
    expect(redirectOf(resolve('/brand-portal/logos', { cookies: { locale: 'fr-ch' } })))
      .toEqual({ status: 302, location: '/fr/brand-portal/logos' });
  });

  it('sends the root of a site with a slug to that site under the locale', () => {
    expect(redirectOf(resolve('/brand-portal'))).toEqual({ status: 302, location: '/en/brand-portal' });
  });
});

describe('locale spelling', () => {
  it('redirects (302) an upper-case locale to the lowercase one', () => {
    expect(redirectOf(resolve('/DE/x'))).toEqual({ status: 302, location: '/de/x' });
  });

  it('redirects (302) de-CH to de-ch, keeping the query', () => {
    expect(redirectOf(resolve('/de-CH/x', { search: '?q=1' }))).toEqual({ status: 302, location: '/de-ch/x?q=1' });
  });

  it('does not redirect a locale already written as resolved', () => {
    expect(resolve('/de-ch/x').kind).toBe('page');
  });
});

describe('unknown locale', () => {
  it('is a not-found in the site fallback locale for a language nobody offers', () => {
    const r = resolve('/it/x');
    expect(r.kind).toBe('not-found');
    expect(ctxOf(r).locale.code).toBe('en');
    expect(ctxOf(r).site.id).toBe('main');
  });

  it('is a not-found for a country that does not support the language', () => {
    expect(resolve('/fr-de/x').kind).toBe('not-found');
    expect(resolve('/de-at/x').kind).toBe('not-found');
  });

  it('is a not-found on a site that drops the language, in that site', () => {
    const r = resolve('/de/brand-portal/logos');
    expect(r.kind).toBe('not-found');
    expect(ctxOf(r).site.id).toBe('portal');
    expect(ctxOf(r).page.slug).toBe('logos');
  });

  it('keeps the remembered locale for the not-found page when the site offers it', () => {
    expect(ctxOf(resolve('/it/x', { cookies: { locale: 'fr-ch' } })).locale.code).toBe('fr-CH');
  });
});

describe('international-only sites', () => {
  it('redirect (302) a country locale to the language locale', () => {
    expect(redirectOf(resolve('/en-us/brand-portal/logos', { search: '?a=b' })))
      .toEqual({ status: 302, location: '/en/brand-portal/logos?a=b' });
    expect(redirectOf(resolve('/en-us/agenda', { host: 'events.localhost' }))).toEqual({ status: 302, location: '/en/agenda' });
  });
});

describe('areas', () => {
  it('marks callback as a technical area', () => {
    expect(ctxOf(resolve('/en/callback')).area).toBe('technical');
  });

  it('marks mykomax and editor as non-public on the main site', () => {
    expect(ctxOf(resolve('/en/mykomax/dashboard')).area).toBe('non-public');
    expect(ctxOf(resolve('/de-ch/editor')).area).toBe('non-public');
  });

  it('treats the same paths as pages on other sites', () => {
    expect(ctxOf(resolve('/en/brand-portal/editor')).area).toBe('page');
    expect(ctxOf(resolve('/en/mykomax', { host: 'events.localhost' })).area).toBe('page');
  });

  it('is a page otherwise', () => {
    expect(ctxOf(resolve('/en/about-us')).area).toBe('page');
  });

  it('serves the style guide without a locale, in English on the main site', () => {
    const ctx = ctxOf(resolve('/style-guide/buttons'));
    expect(ctx.area).toBe('style-guide');
    expect(ctx.locale.code).toBe('en');
    expect(ctx.site.id).toBe('main');
    expect(ctx.page.segments).toEqual(['style-guide', 'buttons']);
  });
});

describe('pass-through paths', () => {
  it.each(['/api/search-proxy/search', '/_astro/app.js', '/_image', '/file/annual-report', '/blank-callback', '/builds/latest.json'])(
    'does not resolve %s',
    (path) => expect(resolve(path)).toEqual({ kind: 'pass' }),
  );
});

describe('sites by slug and host', () => {
  it('resolves the brand portal by its slug and strips the slug from the page path', () => {
    const ctx = ctxOf(resolve('/en/brand-portal/logos/print'));
    expect(ctx.site.id).toBe('portal');
    expect(ctx.page).toEqual({ segments: ['logos', 'print'], slug: 'print', parentSlug: 'logos', pagePath: '/logos/print' });
  });

  it('gives the home page of a site with a slug', () => {
    const ctx = ctxOf(resolve('/en/brand-portal'));
    expect(ctx.site.id).toBe('portal');
    expect(ctx.page.slug).toBe('home');
    expect(ctx.page.pagePath).toBe('');
  });

  it('resolves the events site by its host, with its own languages', () => {
    const ctx = ctxOf(resolve('/es/agenda', { host: 'events.localhost:4321' }));
    expect(ctx.site.id).toBe('events');
    expect(ctx.locale.code).toBe('es');
    expect(ctx.languages).toEqual(['en', 'es', 'fr']);
    expect(resolve('/de/agenda', { host: 'events.localhost' }).kind).toBe('not-found');
  });
});

describe('request context', () => {
  it('carries the country, its measurement system and the flags', () => {
    const flags = { testing: true, nextRelease: false, editorMode: false };
    const ctx = ctxOf(resolve('/en-us/products', { flags }));
    expect(ctx.country.countryCode).toBe('US');
    expect(ctx.measurement).toBe('Imperial');
    expect(ctx.flags).toBe(flags);
  });

  it('prefers the saved measurement system over the country default', () => {
    expect(ctxOf(resolve('/en-us/products', { cookies: { measurement: 'Metric' } })).measurement).toBe('Metric');
  });

  it('uses the all-countries view for an international locale', () => {
    const ctx = ctxOf(resolve('/de/about-us'));
    expect(ctx.country.countryCode).toBe('ALL');
    expect(ctx.measurement).toBe('Metric');
  });

  it('decodes path segments', () => {
    expect(ctxOf(resolve('/en/caf%C3%A9')).page.slug).toBe('café');
  });

  it('does not throw on a segment that is not valid percent-encoding (Astro hands over /en/100% for /en/100%25)', () => {
    const r = resolve('/en/100%');
    expect(r.kind).toBe('page');
    expect(ctxOf(r).page.slug).toBe('100%');
  });
});

describe('requestFlags', () => {
  const flags = (query: string, cookies: { testing?: string; nextRelease?: string } = {}) => requestFlags(new URLSearchParams(query), cookies);

  it('switches testing mode on with testing=true in the query or the cookie', () => {
    expect(flags('testing=true').testing).toBe(true);
    expect(flags('', { testing: 'true' }).testing).toBe(true);
    expect(flags('testing=1').testing).toBe(false);
    expect(flags('').testing).toBe(false);
  });

  it('clears next-release mode with nextRelease=false, even when the cookie is set', () => {
    expect(flags('nextRelease=false', { nextRelease: '1' }).nextRelease).toBe(false);
  });

  it('sets next-release mode with any other value of nextRelease', () => {
    expect(flags('nextRelease=true').nextRelease).toBe(true);
    expect(flags('nextRelease=2024-06').nextRelease).toBe(true);
    expect(flags('nextRelease=').nextRelease).toBe(true);
  });

  it('follows the cookie without a query parameter', () => {
    expect(flags('', { nextRelease: '1' }).nextRelease).toBe(true);
    expect(flags('').nextRelease).toBe(false);
  });

  it('never switches editor mode on', () => {
    expect(flags('testing=true&nextRelease=1&editor=true').editorMode).toBe(false);
  });
});
