import { testServices } from '../../../tests/support/services.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServices, type DemoServices } from '../../../emulators/testing.ts';
import type { Services } from '../../features/platform/context.ts';
import type { RouteSource } from '../../features/platform/route-source.ts';
import { loadChrome } from '../../features/platform/chrome.server.ts';
import { collect, type CollectTargets } from './collect.ts';
import type { IndexedRoute } from './targets.ts';

let demo: DemoServices;
let services: Services;

beforeAll(async () => {
  demo = await startDemoServices();
  services = testServices(demo);
});

afterAll(() => demo.close());

/** A source with one route per site and locale (`/<name>`), built with the chrome; counts its runs. */
function fakeSource(name: string) {
  const calls: string[] = [];
  const source: RouteSource = {
    name,
    appliesTo: (site) => site.isMain,
    async routes(ctx) {
      calls.push(ctx.locale.code);
      const kept = ctx.kept(`/${name}`);
      if (kept) return [kept];
      const { model, recordHashes } = await ctx.build(`/${name}`, (lc, req) => loadChrome(lc, req.site).then((c) => ({ kind: 'content-page', ...c }) as never));
      return [{ pagePath: `/${name}`, model, recordHashes, languages: ['en'], updatedAt: '2026-01-01', keys: [`${name}-id`] }];
    },
  };
  return { source, calls };
}

describe('collect: the customer area and the editor area', () => {
  it('is never prerendered, in any letter case, on any site, whatever a source offers', async () => {
    const source: RouteSource = {
      name: 'greedy',
      appliesTo: () => true,
      async routes(ctx) {
        return Promise.all(['/mykomax', '/MyKomax/account', '/callback', '/Editor', '/mykomax-news', '/about/mykomax'].map(async (pagePath) => {
          const { model, recordHashes } = await ctx.build(pagePath, (lc, req) => loadChrome(lc, req.site).then((c) => ({ kind: 'content-page', ...c }) as never));
          return { pagePath, model, recordHashes, languages: ['en'], updatedAt: '2026-01-01', keys: [] };
        }));
      },
    };
    const { routes } = await collect(services, { mode: 'local', port: 4321, sources: [source] });
    expect(routes.filter((r) => r.siteId === 'site-main' && r.path.startsWith('/en/')).map((r) => r.path).sort()).toEqual(['/en/about/mykomax', '/en/mykomax-news']);
    // Other sites (their own hosts, or a slug on the main host) keep the neighbours and lose the customer area too.
    const others = routes.filter((r) => r.siteId !== 'site-main');
    expect(others.length).toBeGreaterThan(0);
    expect(others.filter((r) => /^\/(mykomax|callback|editor)(\/|$)/i.test(r.pagePath))).toEqual([]);
    expect(others.some((r) => r.pagePath === '/mykomax-news')).toBe(true);
  });
});

describe('collect: a targeted run', () => {
  it('records per route its source and the data keys it read, and the record ids in those keys\' values', async () => {
    const a = fakeSource('a');
    const all = await collect(services, { mode: 'local', port: 4321, sources: [a.source] });
    const route = all.routes.find((r) => r.path === '/en/a')!;
    expect(route.source).toBe('a');
    expect(route.reads).toEqual(expect.arrayContaining([expect.stringContaining('"header"'), expect.stringContaining('"footer"')]));
    const header = route.reads.find((k) => k.includes('"header"'))!;
    expect(all.keyIds.get(header)!.length).toBeGreaterThan(0);
  });

  it('runs only the sources the named records concern, and keeps the routes of the others as the live release has them', async () => {
    const a = fakeSource('a');
    const b = fakeSource('b');
    const all = await collect(services, { mode: 'local', port: 4321, sources: [a.source, b.source] });
    const locales = new Set(all.routes.map((r) => r.locale.code)).size;
    expect(a.calls).toHaveLength(locales);
    const index: IndexedRoute[] = all.routes.map((r) => ({
      host: r.host, path: r.path, pagePath: r.pagePath, siteId: r.siteId, source: r.source, locale: r.locale.code, keys: r.keys, reads: r.reads,
      languages: r.languages, updatedAt: r.updatedAt, inSitemap: r.inSitemap,
    }));
    const byPath = new Map(index.map((r) => [`${r.host}${r.path}`, r]));
    const targets: CollectTargets = {
      sources: new Set(['a']),
      // Every /a route is affected; the /b routes are kept.
      keep: (host, path) => (path.endsWith('/a') ? null : byPath.get(`${host}${path}`) ?? null),
      routesOf: (host, locale, source) => index.filter((r) => r.host === host && r.locale === locale && r.source === source),
    };
    a.calls.length = 0;
    b.calls.length = 0;
    const targeted = await collect(services, { mode: 'local', port: 4321, sources: [a.source, b.source], targets });
    expect(a.calls).toHaveLength(locales);
    expect(b.calls).toEqual([]);
    expect(targeted.routes.map((r) => `${r.path} ${r.kept ? 'kept' : 'built'}`).sort()).toEqual(all.routes.map((r) => `${r.path} ${r.path.endsWith('/a') ? 'built' : 'kept'}`).sort());
    const keptB = targeted.routes.find((r) => r.path === '/en/b')!;
    expect(keptB).toMatchObject({ kept: true, source: 'b', keys: ['b-id'], reads: byPath.get('localhost/en/b')!.reads });

    // A kept route that cannot be kept (its file is gone): its source runs after all.
    b.calls.length = 0;
    await collect(services, { mode: 'local', port: 4321, sources: [a.source, b.source], targets: { ...targets, keep: (host, path) => (path === '/en/b' ? null : targets.keep(host, path)) } });
    expect(b.calls).toEqual(['en']);
  });
});
