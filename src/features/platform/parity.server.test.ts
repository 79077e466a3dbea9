import { testServices } from '../../../tests/support/services.ts';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServices, type DemoServices } from '../../../emulators/testing.ts';
import { cachedSource, DataCache } from '../../lib/cache/data-cache.ts';
import { getSystemData } from '../../lib/content/index.ts';
import { siteLocales } from '../../site/locale.ts';
import type { Locale, Site, SystemData } from '../../site/types.ts';
import { ROUTE_SOURCES } from '../../server/prerender/sources.ts';
import { contentContextFor, type Services } from './context.ts';
import type { PageLoader } from './route-source.ts';
import { createRunData, routeRequest, routeSourceContext } from './run-data.server.ts';
import { mainSite } from '../../site/main-site.ts';

/**
 * Parity of the two paths: for the prerendered routes of every page kind, site and locale tested,
 * the model the prerender wrote (built from bulk loads and seeded records) equals the model a
 * visitor's request builds on demand (one query per record, through the process's data cache).
 * Kinds with many routes (products, content pages) are sampled: at most `PER_GROUP` routes per
 * kind × site × locale, spread evenly over the sorted paths, so every group is represented.
 */
let demo: DemoServices;
let services: Services;
let system: SystemData;

const hash = (r: unknown) => createHash('sha256').update(JSON.stringify(r ?? null)).digest('base64url');
const KINDS = [
  'content-page', 'search-page', 'story-overview', 'story-detail', 'story-contacts', 'story-contact', 'media-release-list', 'media-release-detail',
  'catalogue-classification', 'catalogue-product', 'catalogue-service', 'catalogue-comparison',
] as const;

/** Enough routes per kind × site × locale to cover their variants (each is a full on-demand load). */
const PER_GROUP = 12;

/** At most `PER_GROUP` routes of each kind × site × locale, spread evenly over the sorted paths. */
function sampled(routes: Built[]): Built[] {
  const groups = new Map<string, Built[]>();
  for (const r of routes) {
    const key = `${r.kind} ${r.site.id} ${r.locale.urlCode}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].flatMap((group) => {
    const sorted = group.sort((a, b) => a.path.localeCompare(b.path));
    if (sorted.length <= PER_GROUP) return sorted;
    const step = sorted.length / PER_GROUP;
    return Array.from({ length: PER_GROUP }, (_, i) => sorted[Math.floor(i * step)]!);
  });
}

interface Built { path: string; kind: string; model: unknown; load: PageLoader<unknown>; site: Site; locale: Locale }

/** Every route of a site × locale as the prerender builds it, with the loader it was built by. */
async function prerendered(site: Site, locale: Locale): Promise<Built[]> {
  const data = createRunData();
  const ctx = routeSourceContext({ system, site, locale, host: hostOf(site), services, data, hash });
  const loaders = new Map<string, PageLoader<unknown>>();
  const build = ctx.build;
  ctx.build = (pagePath, load) => { loaders.set(pagePath, load as PageLoader<unknown>); return build(pagePath, load); };
  const out: Built[] = [];
  for (const source of ROUTE_SOURCES.filter((s) => s.appliesTo(site))) {
    for (const r of await source.routes(ctx)) out.push({ path: r.pagePath, kind: r.model.kind, model: r.model, load: loaders.get(r.pagePath)!, site, locale });
  }
  return out;
}

/** The same route on demand: resolved like a request, loaded through a fresh data cache. */
async function onDemand(route: Built): Promise<unknown> {
  const req = routeRequest(system, hostOf(route.site), route.site, route.locale, route.path);
  const lc = { data: cachedSource(new DataCache(), 'use', false), content: contentContextFor(services.content, system, route.site, route.locale), services };
  return route.load(lc, req);
}

const hostOf = (site: Site) => site.domains.find((d) => d.host.endsWith('localhost'))?.host ?? 'localhost';

beforeAll(async () => {
  demo = await startDemoServices();
  services = testServices(demo);
  system = await getSystemData({ config: services.content, locales: ['en'], stage: 'PUBLISHED' });
});

afterAll(() => demo.close());

describe('prerendered and on-demand models', () => {
  let routes: Built[] = [];
  beforeAll(async () => {
    const main = mainSite(system)!;
    const wanted = ['en', 'de-ch', 'en-us'];
    const mainLocales = siteLocales(main, system).filter((l) => wanted.includes(l.urlCode));
    const others = system.sites.filter((s) => !s.isMain).map((s) => [s, siteLocales(s, system)[0]!] as const);
    const lists = await Promise.all([...mainLocales.map((l) => prerendered(main, l)), ...others.map(([s, l]) => prerendered(s, l))]);
    routes = sampled(lists.flat());
  }, 60_000);

  it('cover every page kind', () => {
    expect(new Set(routes.map((r) => r.kind))).toEqual(new Set(KINDS));
  });

  it.each(KINDS)('are equal for the %s routes', async (kind) => {
    const ofKind = routes.filter((r) => r.kind === kind);
    expect(ofKind.length).toBeGreaterThan(0);
    for (const route of ofKind) {
      expect(await onDemand(route), `${route.site.id} /${route.locale.urlCode}${route.path}`).toEqual(route.model);
    }
  }, 60_000);
});
