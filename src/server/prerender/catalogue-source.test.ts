import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogue } from '../../../emulators/catalogue/server.ts';
import { makeLocale } from '../../site/locale.ts';
import type { Country, Language, Site, SystemData } from '../../site/types.ts';
import { hashOf } from './fingerprint.ts';
import { catalogueSource, loadCatalogueLanguage, type CatalogueLanguageData } from './catalogue-source.ts';
import type { RouteSourceContext, SourcedRoute } from './sources.ts';

const here = dirname(fileURLToPath(import.meta.url));
let server: Server;
let endpoint: string;
let en: CatalogueLanguageData;

const language = (code: string): Language => ({ languageCode: code, defaultCountry: 'CH', standard: true, localizations: [] });
const country = (code: string, system: 'Metric' | 'Imperial' = 'Metric'): Country => ({
  countryCode: code, hidden: false, supportedLanguages: ['en', 'de'], defaultLanguage: 'en', defaultMeasurementSystem: system, sortIndex: 1, localizations: [],
});
const site = { id: 'site-main', isMain: true, slug: '', addLanguages: [], dropLanguages: [] } as unknown as Site;
const system = { languages: [language('en'), language('de')], countries: [], sites: [site], brands: [] } as unknown as SystemData;

function context(lang: string, cc: string | null, memo: RouteSourceContext['memo']): RouteSourceContext {
  const locale = makeLocale(lang, cc);
  return {
    system, site, locale, country: cc ? country(cc) : country('ALL'),
    content: { config: { endpoint: 'unused' }, locales: [lang], stage: 'PUBLISHED' },
    chrome: { header: null, footer: null },
    memo,
    hash: (r) => hashOf(r),
  };
}

const cachedMemo = () => {
  const memos = new Map<string, Promise<unknown>>();
  return <T>(key: string, load: () => Promise<T>) => {
    if (!memos.has(key)) memos.set(key, load());
    return memos.get(key) as Promise<T>;
  };
};
const paths = (routes: SourcedRoute[]) => routes.map((r) => r.pagePath);
/** A memo that answers the catalogue data with `data` and loads everything else (related stories) as usual. */
const swapCatalogue = (data: CatalogueLanguageData): RouteSourceContext['memo'] =>
  <T>(key: string, load: () => Promise<T>) => (key.startsWith('catalogue:') ? Promise.resolve(data as T) : load());

beforeAll(async () => {
  const running = await startCatalogue({ port: 0, dataDir: join(here, '../../../emulators/data/catalogue'), quiet: true });
  server = running.server;
  endpoint = running.url;
  process.env.CATALOGUE_ENDPOINT = endpoint;
  en = await loadCatalogueLanguage({ config: { endpoint }, language: 'en' });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('loadCatalogueLanguage', () => {
  it('loads both trees, every product and service product, and the capability search', () => {
    expect(en.classifications.find((c) => c.slug === 'cut-strip')?.route).toBe('/products/wire-processing/cut-strip');
    expect(en.products.length).toBeGreaterThan(50);
    expect(en.services.length).toBeGreaterThan(10);
    expect(en.references.filter((r) => r.kind === 'product')).toHaveLength(en.products.length);
    expect(Object.keys(en.capabilityProducts)).toContain('504');
  });
});

describe('catalogueSource', () => {
  it('applies to the main site only', () => {
    expect(catalogueSource.appliesTo(site)).toBe(true);
    expect(catalogueSource.appliesTo({ ...site, isMain: false })).toBe(false);
  });

  it('plans classification, product, service product and comparison routes for what the country offers', async () => {
    const memo = cachedMemo();
    const ch = paths(await catalogueSource.routes(context('de', 'CH', memo)));
    const us = paths(await catalogueSource.routes(context('en', 'US', memo)));
    const all = paths(await catalogueSource.routes(context('en', null, memo)));
    expect(ch).toContain('/products');
    expect(ch).toContain('/products/wire-processing/cut-strip/kappa-310');
    expect(ch).toContain('/services/maintenance-repair/preventive-maintenance/maintenance-contract-basic');
    expect(ch).toContain('/comparison');
    expect(ch).not.toContain('/products/wire-processing/cut-strip/kappa-242-us');
    expect(ch).not.toContain('/products/wire-processing/ultrasonic-welding');
    expect(ch.some((p) => p.includes('field-service-americas'))).toBe(false);
    expect(us).toContain('/products/wire-processing/cut-strip/kappa-242-us');
    expect(us).toContain('/products/wire-processing/ultrasonic-welding/sw-2500');
    expect(us).not.toContain('/products/harness-assembly/taping/tp-300-inline');
    expect(all).toContain('/products/harness-assembly/taping/tp-300-inline');
    expect(all).toContain('/products/wire-processing/cut-strip/kappa-242-us');
  });

  it('fetches each language once for all locales', async () => {
    const loads: string[] = [];
    const base = cachedMemo();
    const memo = <T>(key: string, load: () => Promise<T>) => base(key, () => { loads.push(key); return load(); });
    await Promise.all([context('de', 'CH', memo), context('de', 'DE', memo), context('de', null, memo)].map((c) => catalogueSource.routes(c)));
    expect(loads.filter((k) => k.startsWith('catalogue:'))).toEqual(['catalogue:de']);
  });

  it('re-renders after a product change only the routes built from that product', async () => {
    const before = await catalogueSource.routes(context('en', 'CH', cachedMemo()));
    const changed: CatalogueLanguageData = { ...en, products: en.products.map((p) => (p.slug === 'kappa-350' ? { ...p, shortDescription: 'Changed' } : p)) };
    const after = await catalogueSource.routes(context('en', 'CH', swapCatalogue(changed)));
    const beforeHash = new Map(before.map((r) => [r.pagePath, r.recordHashes.join()]));
    const rerendered = after.filter((r) => beforeHash.get(r.pagePath) !== r.recordHashes.join()).map((r) => r.pagePath);
    expect(rerendered).toEqual(['/products/wire-processing/cut-strip/kappa-350']);
    expect(after).toHaveLength(before.length);
  });

  it('re-renders the pages that list or relate a product when its reference changes, and leaves the rest', async () => {
    const before = await catalogueSource.routes(context('en', 'CH', cachedMemo()));
    const changed: CatalogueLanguageData = { ...en, references: en.references.map((r) => (r.slug === 'kappa-350' ? { ...r, name: 'Kappa 350 neo' } : r)) };
    const after = await catalogueSource.routes(context('en', 'CH', swapCatalogue(changed)));
    const beforeHash = new Map(before.map((r) => [r.pagePath, r.recordHashes.join()]));
    const rerendered = after.filter((r) => beforeHash.get(r.pagePath) !== r.recordHashes.join()).map((r) => r.pagePath);
    expect(rerendered).toEqual(expect.arrayContaining(['/products', '/products/wire-processing', '/products/wire-processing/cut-strip']));
    expect(rerendered.some((p) => p.startsWith('/services'))).toBe(false);
    expect(rerendered).not.toContain('/products/wire-processing/crimping/alpha-530');
    expect(rerendered.length).toBeLessThan(after.length / 4);
  });
});
