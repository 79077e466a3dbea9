import { describe, expect, it } from 'vitest';
import type { PageModelBase } from '../../features/platform/page-model.ts';
import type { Locale, SystemData } from '../../site/types.ts';
import type { RouteRule } from '../delivery/static-site.ts';
import type { PlannedRoute } from './collect.ts';
import { releaseHosts, routeIndexFor, searchDocuments, sitemapEntries } from './artifacts.ts';
import { ROUTE_INDEX_FORMAT, type RouteIndex } from './targets.ts';

const HOST = 'localhost';
const ORIGIN = 'http://localhost:4321';
const EN = { code: 'en', urlCode: 'en', sisCode: 'en', isInternational: true, language: 'en', country: 'ALL' } as Locale;
const DE = { code: 'de-ch', urlCode: 'de-ch', sisCode: 'de', isInternational: false, language: 'de', country: 'CH' } as Locale;
const SYSTEM = {
  countries: [], languages: [], brands: [],
  sites: [
    { id: 'main', isMain: true, slug: '', technicalName: 'main', addLanguages: [], dropLanguages: [], domains: [{ host: HOST, slug: null }] },
    { id: 'brand', isMain: false, slug: 'brand', technicalName: 'brand', addLanguages: [], dropLanguages: [], domains: [{ host: HOST, slug: 'brand' }] },
  ],
} as unknown as SystemData;

const route = (path: string, more: Partial<PlannedRoute> = {}): PlannedRoute => ({
  host: HOST, origin: ORIGIN, path, pagePath: path.slice(3), siteId: 'main', locale: EN,
  model: {} as PageModelBase, recordHashes: [], languages: ['en'], updatedAt: '2026-01-01', keys: [], inSitemap: true,
  reads: [], source: 'fake', search: { title: path, description: '', body: '' }, ...more,
});
const RULE: RouteRule = { fingerprint: 'f', csp: '' };
/** Rules of the routes published (rendered or kept) in the new release. */
const rulesFor = (...paths: string[]) => new Map([[HOST, Object.fromEntries(paths.map((p) => [p, RULE]))]]);

describe('artifacts: search documents', () => {
  const routes = [
    route('/en/built'),
    route('/de-ch/kept', { locale: DE, kept: true }),
    route('/en/brand/built', { siteId: 'brand', pagePath: '/built' }),
    route('/en/failed'),
    route('/en/no-text', { search: undefined }),
  ];
  const rules = rulesFor('/en/built', '/de-ch/kept', '/en/brand/built', '/en/no-text');

  it('indexes every published route with search text, rendered or kept, and none that failed', () => {
    const { docs } = searchDocuments({ routes, system: SYSTEM }, rules, false);
    expect(docs.map((d) => [d.url, d.site, d.locale])).toEqual([['/en/built', '', 'en'], ['/de-ch/kept', '', 'de'], ['/en/brand/built', 'brand', 'en']]);
  });

  it('names only the indexes of the routes it built when it only replaced pages, else every index', () => {
    expect([...searchDocuments({ routes, system: SYSTEM }, rules, true).touched!].sort()).toEqual(['_main/en', 'brand/en']);
    expect(searchDocuments({ routes, system: SYSTEM }, rules, false).touched).toBeNull();
  });
});

describe('artifacts: sitemap entries', () => {
  it('lists the published routes that go in a sitemap, with their origin, lastmod and alternates', () => {
    const routes = [route('/en/a'), route('/en/hidden', { inSitemap: false }), route('/en/failed')];
    const entries = sitemapEntries({ byPath: new Map(routes.map((r) => [r.path, r])) }, { '/en/a': RULE, '/en/hidden': RULE }, ORIGIN, SYSTEM);
    expect(entries.map((e) => [e.loc, e.lastmod])).toEqual([[`${ORIGIN}/en/a`, '2026-01-01']]);
    expect(Array.isArray(entries[0]!.alternates)).toBe(true);
  });
});

describe('artifacts: route index', () => {
  it('indexes the published routes, a built route\'s keys from the collect and a kept route\'s from the live index', () => {
    const live: RouteIndex = { format: ROUTE_INDEX_FORMAT, app: 'a', system: 's', keyIds: { '["teasers"]': ['old-id'], '["gone"]': ['x'] }, routes: [] };
    const routes = [
      route('/en/built', { reads: ['["nav"]'] }),
      route('/en/kept', { reads: ['["teasers"]'], kept: true }),
      route('/en/failed', { reads: ['["failed"]'] }),
    ];
    const index = routeIndexFor({ routes, keyIds: new Map([['["nav"]', ['about-id']]]), systemHash: 'system-2' }, rulesFor('/en/built', '/en/kept'), 'app-2', live);
    expect(index.format).toBe(ROUTE_INDEX_FORMAT);
    expect([index.app, index.system]).toEqual(['app-2', 'system-2']);
    expect(index.routes.map((r) => [r.path, r.locale, r.source])).toEqual([['/en/built', 'en', 'fake'], ['/en/kept', 'en', 'fake']]);
    expect(index.keyIds).toEqual({ '["nav"]': ['about-id'], '["teasers"]': ['old-id'] });
  });
});

describe('artifacts: hosts.json', () => {
  it('names the main site\'s host, every host\'s origin and the bytes of the manifests', () => {
    const hosts = releaseHosts({ system: SYSTEM, hosts: new Map([[HOST, ORIGIN]]) }, 'local', { 'localhost/builds/latest.json': 42 });
    expect(hosts).toEqual({ main: HOST, hosts: { [HOST]: ORIGIN }, sizes: { 'localhost/builds/latest.json': 42 } });
  });
});
