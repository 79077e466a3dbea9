import { describe, expect, it } from 'vitest';
import { cachedSource, DataCache } from '../../lib/cache/data-cache.ts';
import { type PageInjection } from '../../lib/content/index.ts';
import { captureLogs } from '../../../tests/support/log.ts';
import { makeLocale } from '../../site/locale.ts';
import type { Locale } from '../../site/types.ts';
import { loadContentPage } from '../content-page/load.server.ts';
import { contentContextFor } from '../platform/context.ts';
import { routeRequest } from '../platform/run-data.server.ts';
import { useDemoWorld } from '../../../tests/support/services.ts';
import { loadInjection } from './injection.server.ts';

const world = useDemoWorld();

/** A request for a page path of a site in a locale, with its load context. */
function request(path: string, locale: Locale = makeLocale('en', 'CH'), main = true) {
  const { services, system } = world;
  const site = system.sites.find((s) => (main ? s.isMain : s.slug === 'brand-portal'))!;
  const req = routeRequest(system, 'localhost', site, locale, path);
  const lc = { data: cachedSource(new DataCache(), 'use', false), content: contentContextFor(services.content, system, site, locale), services };
  return { lc, req };
}

const inject = (injection: PageInjection | null, locale?: Locale, main?: boolean) => {
  const { lc, req } = request('/about-us', locale, main);
  return loadInjection(lc, req, 'page-1', injection);
};

describe('a content page\'s injected product or service (spec §3 Page injection)', () => {
  it('resolves a product slug to the catalogue entry at its canonical route, in the page language', async () => {
    expect(await inject({ kind: 'product', slug: 'kappa-310' })).toMatchObject({
      kind: 'product', slug: 'kappa-310', name: 'Kappa 310', brand: 'Komax', route: '/products/wire-processing/cut-strip/kappa-310',
      shortDescription: 'Compact cut & strip machine for small batches, samples and prototypes.',
    });
    expect(await inject({ kind: 'product', slug: 'kappa-310' }, makeLocale('de', 'CH'))).toMatchObject({ language: 'de', shortDescription: expect.stringMatching(/^Kompakte Ablänge/) });
  });

  it('resolves a service slug through the service catalogue, with its benefits', async () => {
    const entry = await inject({ kind: 'service', slug: 'crimp-academy' }, makeLocale('de', 'CH'));
    expect(entry).toMatchObject({ kind: 'service', slug: 'crimp-academy', route: expect.stringMatching(/^\/services\/.*\/crimp-academy$/), brand: null });
    expect(entry?.benefits.length).toBeGreaterThan(0);
  });

  it('shows nothing where the country is not offered the entry, and nothing on a site without the catalogue', async () => {
    expect(await inject({ kind: 'product', slug: 'kappa-242-us' }, makeLocale('de', 'CH'))).toBeNull();
    expect(await inject({ kind: 'product', slug: 'kappa-242-us' }, makeLocale('en', 'US'))).not.toBeNull();
    expect(await inject({ kind: 'service', slug: 'onsite-service-americas' }, makeLocale('de', 'CH'))).toBeNull();
    expect(await inject({ kind: 'product', slug: 'kappa-310' }, makeLocale('en', null), false)).toBeNull();
  });

  it('logs an unknown slug and shows the page without it; a slug named as the wrong kind is unknown too', async () => {
    const logs = captureLogs();
    try {
      expect(await inject({ kind: 'product', slug: 'no-such-machine' })).toBeNull();
      expect(await inject({ kind: 'service', slug: 'kappa-310' })).toBeNull();
      expect(logs.text()).toMatch(/page page-1: product no-such-machine not shown: No product found for slug/);
      expect(logs.text()).toMatch(/page page-1: service kappa-310 not shown/);
    } finally {
      logs.restore();
    }
  });

  it('the demo pages that name one show it: a product on Wire processing, a service on Training', async () => {
    const wire = request('/solutions/wire-processing');
    const page = await loadContentPage(wire.lc, wire.req);
    expect(page).toMatchObject({ kind: 'content-page', page: { injection: { kind: 'product', slug: 'kappa-310' }, cmsType: 'Page' }, injected: { name: 'Kappa 310' } });
    const training = request('/service-support/training', makeLocale('de', 'CH'));
    expect(await loadContentPage(training.lc, training.req)).toMatchObject({ injected: { kind: 'service', slug: 'crimp-academy' } });
    const automotive = request('/industries/automotive');
    const plain = await loadContentPage(automotive.lc, automotive.req);
    expect(plain).toMatchObject({ page: { injection: null, branch: 'automotive' } });
    expect(plain).not.toHaveProperty('injected');
  });
});
