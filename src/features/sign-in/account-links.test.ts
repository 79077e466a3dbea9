import { describe, expect, it } from 'vitest';
import { accountLinks } from './account-links.ts';
import type { Country, Language, Site } from '../../site/types.ts';

const site = (s: Partial<Site> & Pick<Site, 'id' | 'domains'>): Site => ({
  name: s.id, technicalName: s.id, slug: '', isMain: false, internationalOnly: false, hideSideButtons: false, enableCutFont: false,
  theme: 'default', mainSiteOnly: false, headerNavigationId: '', footerNavigationId: '', addLanguages: [], dropLanguages: [], ...s,
});
const main = site({ id: 'main', isMain: true, domains: [{ host: 'localhost', slug: null }, { host: 'komax.example', slug: null }] });
const portal = site({ id: 'portal', slug: 'brand-portal', domains: [{ host: 'localhost', slug: 'brand-portal' }, { host: 'komax.example', slug: 'brand-portal' }] });
const events = site({ id: 'events', addLanguages: ['es'], internationalOnly: true, domains: [{ host: 'events.localhost', slug: null }, { host: 'events.komax.example', slug: null }] });
const language = (languageCode: string, standard: boolean): Language => ({ languageCode, standard, defaultCountry: 'CH', localizations: [] });
const languages = [language('en', true), language('de', true), language('es', false)];
const countries: Country[] = [{ countryCode: 'CH', hidden: false, supportedLanguages: ['de', 'en'], defaultLanguage: 'de', defaultMeasurementSystem: 'Metric', sortIndex: 0, localizations: [] }];
const system = { sites: [main, portal, events], languages, countries };

describe('the user menu\'s links', () => {
  it('on a site with its own host: absolute URLs of the main site\'s host (its customer area), never the sub-site\'s /mykomax', () => {
    const links = accountLinks({ system, site: events, locale: { urlCode: 'de' }, here: new URL('http://events.localhost:4321/de/agenda') });
    expect(links).toEqual({
      login: 'http://localhost:4321/de/mykomax',
      register: 'http://localhost:4321/api/mykomax/register?locale=de',
      dashboard: 'http://localhost:4321/de/mykomax',
      tickets: 'http://localhost:4321/de/mykomax/tickets/list',
      account: 'http://localhost:4321/de/mykomax/account',
      direct: 'http://localhost:4321/de/mykomax#direct',
      logout: 'http://localhost:4321/de/mykomax/logout',
    });
  });

  it('a language the main site lacks leads to its fallback locale', () => {
    const links = accountLinks({ system, site: events, locale: { urlCode: 'es' }, here: new URL('http://events.localhost:4321/es') });
    expect(links.login).toBe('http://localhost:4321/en/mykomax');
    expect(links.register).toBe('http://localhost:4321/api/mykomax/register?locale=en');
  });

  it('in production: the main site\'s public host over https', () => {
    const links = accountLinks({ system, site: events, locale: { urlCode: 'en' }, here: new URL('https://events.komax.example/en') });
    expect(links.login).toBe('https://komax.example/en/mykomax');
    expect(links.logout).toBe('https://komax.example/en/mykomax/logout');
  });

  it('on the main host (the main site and sites with a slug): root-relative paths without the site slug', () => {
    for (const s of [main, portal]) {
      const links = accountLinks({ system, site: s, locale: { urlCode: 'en' }, here: new URL('http://localhost:4321/en/brand-portal') });
      expect(links).toMatchObject({ login: '/en/mykomax', register: '/api/mykomax/register?locale=en', tickets: '/en/mykomax/tickets/list', logout: '/en/mykomax/logout' });
    }
    expect(accountLinks({ system, site: main, locale: { urlCode: 'de-ch' }, here: new URL('http://localhost:4321/de-ch') }).account).toBe('/de-ch/mykomax/account');
  });
});
