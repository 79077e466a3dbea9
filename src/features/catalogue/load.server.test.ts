import { useDemoWorld } from '../../../tests/support/services.ts';
import { describe, expect, it } from 'vitest';
import { cachedSource, DataCache, type DataSource } from '../../lib/cache/data-cache.ts';
import { CatalogueError } from '../../lib/catalogue/index.ts';
import { makeLocale } from '../../site/locale.ts';
import { contentContextFor } from '../platform/context.ts';
import { routeRequest } from '../platform/run-data.server.ts';
import { loadCatalogueRoute } from './load.server.ts';
import { captureLogs } from '../../../tests/support/log.ts';
import { mainSite } from '../../site/main-site.ts';

const world = useDemoWorld();

/** Loads a catalogue path of the main site in a locale, as a request for it would. */
function load(path: string, locale = makeLocale('en', 'CH'), data: DataSource = cachedSource(new DataCache(), 'use', false)) {
  const { services, system } = world;
  const site = mainSite(system)!;
  const req = routeRequest(system, 'localhost', site, locale, path);
  const type = path.startsWith('/services') ? 'service' : 'product';
  return loadCatalogueRoute({ data, content: contentContextFor(services.content, system, site, locale), services }, req, type);
}

describe('loadCatalogueRoute', () => {
  it('builds a product page at its canonical route', async () => {
    const model = await load('/products/wire-processing/cut-strip/kappa-310');
    expect(model.kind).toBe('catalogue-product');
  });

  it('redirects (302) a product link to its canonical route in the same locale', async () => {
    expect(await load('/products/kappa-310', makeLocale('de', 'CH'))).toEqual({ kind: 'redirect', location: '/de-ch/products/wire-processing/cut-strip/kappa-310', status: 302 });
  });

  it('names the top classification smart-factory by its slug: its tree and products live below /smart-factory (spec 2.1)', async () => {
    const root = await load('/smart-factory');
    expect(root.kind).toBe('catalogue-classification');
    if (root.kind === 'catalogue-classification') expect(root.children.map((c) => c.route)).toEqual(['/smart-factory/software', '/smart-factory/automation']);
    expect((await load('/smart-factory/software/production-software/quadrel-mes')).kind).toBe('catalogue-product');
    // The old places and a product link by slug alone lead there.
    expect(await load('/products/smart-factory')).toEqual({ kind: 'redirect', location: '/en-ch/smart-factory', status: 302 });
    expect(await load('/products/quadrel-mes')).toEqual({ kind: 'redirect', location: '/en-ch/smart-factory/software/production-software/quadrel-mes', status: 302 });
  });

  it('redirects a classification reached by a wrong path', async () => {
    const model = await load('/products/cut-strip');
    expect(model).toMatchObject({ kind: 'redirect', location: '/en-ch/products/wire-processing/cut-strip' });
  });

  it('answers the 404 model for an unknown slug and for a malformed one', async () => {
    expect((await load('/products/wire-processing/cut-strip/no-such-machine')).kind).toBe('not-found');
    expect((await load('/products/wire-processing/cut-strip/Kappa_310')).kind).toBe('not-found');
  });

  it('answers the 404 model for a product or classification the country is not offered', async () => {
    expect((await load('/products/wire-processing/cut-strip/kappa-242-us', makeLocale('de', 'CH'))).kind).toBe('not-found');
    expect((await load('/products/wire-processing/cut-strip/kappa-242-us', makeLocale('en', 'US'))).kind).toBe('catalogue-product');
    expect((await load('/products/wire-processing/ultrasonic-welding', makeLocale('de', 'CH'))).kind).toBe('not-found');
  });

  it('shows the product without the capability search when that search fails, and logs it', async () => {
    const cache = cachedSource(new DataCache(), 'use', false);
    const failing: DataSource = {
      get: (key, l) => (key[1] === 'capabilityProducts' ? Promise.reject(new CatalogueError('Catalogue unreachable', { operation: 'productsByCapability' })) : cache.get(key, l)),
    };
    const logs = captureLogs();
    try {
      const model = await load('/products/wire-processing/cut-strip/kappa-310', makeLocale('en', 'CH'), failing);
      expect(model.kind).toBe('catalogue-product');
      if (model.kind !== 'catalogue-product') return;
      expect(model.capabilitySearch.length).toBeGreaterThan(0);
      expect(model.capabilitySearch.every((c) => c.products.length === 0)).toBe(true);
      expect(logs.text()).toMatch(/capability \d+: Catalogue unreachable/);
    } finally {
      logs.restore();
    }
  });

  it('fails loudly when the catalogue itself fails', async () => {
    const failing: DataSource = { get: () => Promise.reject(new CatalogueError('Catalogue unreachable', { operation: 'allClassifications' })) };
    await expect(load('/products', makeLocale('en', 'CH'), failing)).rejects.toThrow('Catalogue unreachable');
  });
});
