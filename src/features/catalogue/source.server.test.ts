import { testServices } from '../../../tests/support/services.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServices, type DemoServices } from '../../../emulators/testing.ts';
import { getSystemData } from '../../lib/content/index.ts';
import { makeLocale } from '../../site/locale.ts';
import type { SystemData } from '../../site/types.ts';
import type { Services } from '../platform/context.ts';
import { createRunData, routeSourceContext, type RunDataStore } from '../platform/run-data.server.ts';
import type { SourcedRoute } from '../platform/route-source.ts';
import { catalogueSource } from './source.server.ts';
import type { ProductDetail, ProductReference } from '../../lib/catalogue/index.ts';
import { createHash } from 'node:crypto';
import { mainSite } from '../../site/main-site.ts';

let demo: DemoServices;
let services: Services;
let system: SystemData;

const hash = (r: unknown) => createHash('sha256').update(JSON.stringify(r ?? null)).digest('base64url');
const main = () => mainSite(system)!;
const context = (lang: string, cc: string | null, data: RunDataStore = createRunData()) =>
  routeSourceContext({ system, site: main(), locale: makeLocale(lang, cc), host: 'localhost', services, data, hash });
const paths = (routes: SourcedRoute[]) => routes.map((r) => r.pagePath);
const changedPaths = (before: SourcedRoute[], after: SourcedRoute[]) => {
  const old = new Map(before.map((r) => [r.pagePath, r.recordHashes.join()]));
  return after.filter((r) => old.get(r.pagePath) !== r.recordHashes.join()).map((r) => r.pagePath);
};

beforeAll(async () => {
  demo = await startDemoServices();
  services = testServices(demo);
  system = await getSystemData({ config: services.content, locales: ['en'], stage: 'PUBLISHED' });
});

afterAll(() => demo.close());

describe('catalogueSource', () => {
  it('applies to the main site only', () => {
    expect(catalogueSource.appliesTo(main())).toBe(true);
    expect(catalogueSource.appliesTo({ ...main(), isMain: false })).toBe(false);
  });

  it('plans classification, product and service product routes for what the country offers', async () => {
    const data = createRunData();
    const ch = paths(await catalogueSource.routes(context('de', 'CH', data)));
    const us = paths(await catalogueSource.routes(context('en', 'US', data)));
    const all = paths(await catalogueSource.routes(context('en', null, data)));
    expect(ch).toContain('/products');
    expect(ch).toContain('/products/wire-processing/cut-strip/kappa-310');
    expect(ch).toContain('/services/maintenance-repair/preventive-maintenance/maintenance-contract-basic');
    expect(ch).not.toContain('/products/wire-processing/cut-strip/kappa-242-us');
    expect(ch).not.toContain('/products/wire-processing/ultrasonic-welding');
    expect(ch.some((p) => p.includes('field-service-americas'))).toBe(false);
    expect(us).toContain('/products/wire-processing/cut-strip/kappa-242-us');
    expect(us).toContain('/products/wire-processing/ultrasonic-welding/sw-2500');
    expect(us).not.toContain('/products/harness-assembly/taping/tp-300-inline');
    expect(all).toContain('/products/harness-assembly/taping/tp-300-inline');
    expect(all).toContain('/products/wire-processing/cut-strip/kappa-242-us');
  });

  it('loads the products of a language in one bulk query for all its locales', async () => {
    const loads: string[] = [];
    const data = createRunData({ transform: (key, value) => { loads.push(key); return value; } });
    await Promise.all([context('de', 'CH', data), context('de', 'DE', data), context('de', null, data)].map((c) => catalogueSource.routes(c)));
    expect(loads.filter((k) => k.startsWith('["catalogue","allProducts"'))).toEqual(['["catalogue","allProducts","de"]']);
    // Product records come from the bulk query, never one query per product.
    expect(loads.filter((k) => k.startsWith('["catalogue","product",'))).toEqual([]);
  });

  it('re-renders after a product change only the routes built from that product', async () => {
    const before = await catalogueSource.routes(context('en', 'CH'));
    const after = await catalogueSource.routes(context('en', 'CH', createRunData({
      transform: (key, value) => (key.startsWith('["catalogue","allProducts"')
        ? (value as ProductDetail[]).map((p) => (p.slug === 'kappa-350' ? { ...p, shortDescription: 'Changed' } : p))
        : value),
    })));
    expect(changedPaths(before, after)).toEqual(['/products/wire-processing/cut-strip/kappa-350']);
    expect(after).toHaveLength(before.length);
  });

  it('re-renders the pages that list a product when its reference changes, and leaves the rest', async () => {
    const before = await catalogueSource.routes(context('en', 'CH'));
    const after = await catalogueSource.routes(context('en', 'CH', createRunData({
      transform: (key, value) => (key.startsWith('["catalogue","classificationProducts"')
        ? (value as ProductReference[]).map((r) => (r.slug === 'kappa-350' ? { ...r, name: 'Kappa 350 neo' } : r))
        : value),
    })));
    const rerendered = changedPaths(before, after);
    expect(rerendered).toEqual(expect.arrayContaining(['/products', '/products/wire-processing', '/products/wire-processing/cut-strip']));
    expect(rerendered.some((p) => p.startsWith('/services'))).toBe(false);
    expect(rerendered).not.toContain('/products/wire-processing/crimping/alpha-530');
    expect(rerendered.length).toBeLessThan(after.length / 4);
  });
});
