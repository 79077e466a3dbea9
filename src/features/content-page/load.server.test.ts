import { afterEach, describe, expect, it } from 'vitest';
import type { DataSource } from '../../lib/cache/data-cache.ts';
import type { Page } from '../../lib/content/index.ts';
import { captureLogs, type CapturedLogs } from '../../../tests/support/log.ts';
import { ConfigurationError } from '../../site/config-errors.ts';
import { resolveRequest } from '../../site/request.ts';
import type { Country, Site, SystemData } from '../../site/types.ts';
import type { LoadContext } from '../platform/context.ts';
import { loadContentPage } from './load.server.ts';

const country = (countryCode: string, supportedLanguages: string[]): Country => ({
  countryCode, hidden: false, supportedLanguages, defaultLanguage: supportedLanguages[0]!, defaultMeasurementSystem: 'Metric', sortIndex: 0, localizations: [],
});
const site: Site = {
  id: 'site-main', name: 'Komax', technicalName: 'komax', slug: '', isMain: true, internationalOnly: false, hideSideButtons: false, enableCutFont: false,
  theme: 'Default', mainSiteOnly: false, headerNavigationId: 'h', footerNavigationId: 'f', domains: [{ host: 'localhost', slug: null }], addLanguages: [], dropLanguages: [],
};
const system: SystemData = {
  languages: [{ languageCode: 'en', defaultCountry: 'US', standard: true, localizations: [] }, { languageCode: 'de', defaultCountry: 'CH', standard: true, localizations: [] }],
  countries: [country('CH', ['de', 'en']), country('DE', ['de', 'en'])],
  sites: [site],
  brands: [],
};

const page = (path: string, countries: string[]): Page => ({
  id: `page${path || '-home'}`, siteId: site.id, mainSiteOnly: false, slug: path.split('/').at(-1) || 'home', path, pageType: 'Content', theme: 'Default', countries,
  protection: 0, protectedBy: [], access: { protection: 0, parents: [] } as unknown as Page['access'], languages: ['en'], contentLanguage: 'en', title: 'T', description: null,
  modules: [], updatedAt: '2026-01-01T00:00:00Z', isPublished: true, injection: null, cmsType: 'Page', branch: null,
});

/** The loader over a content hub that holds exactly `pages` (by path) and no navigation. */
function load(pathname: string, pages: Page[]) {
  const resolution = resolveRequest(system, { host: 'localhost:4321', pathname, search: '', cookies: {}, flags: { testing: false, nextRelease: false, editorMode: false } });
  if (resolution.kind !== 'page') throw new Error(`${pathname} does not resolve to a page`);
  const data: DataSource = {
    get: <T>(key: readonly unknown[]) => Promise.resolve((key[1] === 'page' ? pages.find((p) => p.path === key.at(-1)) ?? null : null) as T),
  };
  const lc = { data, content: { config: { endpoint: 'http://hub.invalid' }, locales: ['en'], stage: 'PUBLISHED' }, services: {} } as unknown as LoadContext;
  return loadContentPage(lc, resolution.ctx);
}

let logs: CapturedLogs | undefined;
afterEach(() => logs?.restore());

describe('loadContentPage: configuration errors (spec §8)', () => {
  it('raises the invalid home page configuration when the site has no home page for the country', async () => {
    const onlyGermany = [page('', ['DE'])];
    await expect(load('/en-ch', onlyGermany)).rejects.toThrow(ConfigurationError);
    await expect(load('/en-ch', onlyGermany)).rejects.toThrow('Invalid home page configuration for site Komax: no universal page configured and no page configured for country CH');
    await expect(load('/en-ch', [])).rejects.toThrow('no universal page configured and no page configured for country CH');
  });

  it('shows a home page configured for the country, and a universal one everywhere', async () => {
    expect((await load('/en-de', [page('', ['DE'])])).kind).toBe('content-page');
    expect((await load('/en-ch', [page('', [])])).kind).toBe('content-page');
  });

  it('answers a missing page below the home page with the 404 model and logs the missing slug', async () => {
    logs = captureLogs('info');
    const model = await load('/en/about-us/no-such-page', [page('', [])]);
    expect(model.kind).toBe('not-found');
    expect(logs.lines.map((l) => l.msg)).toContain('[siteData] no navigation item with slug no-such-page exists');
  });
});
