import { getSystemData, listSystemRedirects, type ContentContext, type SystemRedirect } from '../../lib/content/index.ts';
import { siteLocales } from '../../site/locale.ts';
import { localizedPath } from '../../site/paths.ts';
import { isLocalHost } from '../../site/resolve-site.ts';
import type { Services } from '../../features/platform/context.ts';
import { createRunData, routeSourceContext } from '../../features/platform/run-data.server.ts';
import type { Locale, Site, SystemData } from '../../site/types.ts';
import { hashOf } from './fingerprint.ts';
import { ROUTE_SOURCES, type RouteSource, type SourcedRoute } from './sources.ts';
import { DELIVERY } from './policies.ts';
import { idsOf, type IndexedRoute } from './targets.ts';
import { getLogger } from '../../lib/log/index.ts';

const log = getLogger('prerender');

export type HostMode = 'local' | 'public';

/** One static route: where it goes (host, full path, site and locale) and what its source said of it. */
export interface PlannedRoute extends Omit<SourcedRoute, 'inSitemap'> {
  host: string;
  origin: string;
  /** Full URL path: `/de-ch/about-us`; `pagePath` is the part below locale and site slug. */
  path: string;
  siteId: string;
  locale: Locale;
  inSitemap: boolean;
  /** The data keys the route was built from (for the route index of targeted revalidations). */
  reads: string[];
  /** The route source that made it. */
  source: string;
}

export interface Collected {
  system: SystemData;
  redirects: SystemRedirect[];
  routes: PlannedRoute[];
  /** Hosts and their origins, one static tree each. */
  hosts: Map<string, string>;
  /** Data key → record ids in its value, for every key a built route read. */
  keyIds: Map<string, string[]>;
  /** Hash of the system data (a targeted run collects everything when it changed). */
  systemHash: string;
}

/** What a targeted run keeps of the live release: the route at host and path, unbuilt, or null (build it). */
export type KeepRoute = (host: string, path: string) => IndexedRoute | null;

/** A targeted run's collect: only the sources named run; the others' routes are kept as indexed. */
export interface CollectTargets {
  /** The sources of the routes the named records affect: they run (in every site and locale). */
  sources: Set<string>;
  keep: KeepRoute;
  /** The live release's routes of a source in one locale of a host. */
  routesOf(host: string, localeCode: string, source: string): IndexedRoute[];
}

/** A kept route's stand-in model: never rendered (its files are the live release's). */
const KEPT_MODEL = { kind: 'kept' } as unknown as SourcedRoute['model'];

/** The host a site is prerendered for: its loopback domain locally, its public domain otherwise. */
export function prerenderHost(site: Site, mode: HostMode): string | null {
  const pick = site.domains.find((d) => isLocalHost(d.host) === (mode === 'local'));
  return pick?.host ?? null;
}

export function originOf(host: string, mode: HostMode, port: number): string {
  return mode === 'local' ? `http://${host}:${port}` : `https://${host}`;
}

/**
 * Pulls everything the static routes are rendered from — system data, navigation, and the
 * records of every route source per site and locale — and plans one route per site × locale ×
 * record. Records shared by locales with the same locale chain are fetched once. Throws (and
 * nothing is written) when a service fails.
 */
export async function collect(services: Services, opts: { mode: HostMode; port: number; sources?: RouteSource[]; targets?: CollectTargets }): Promise<Collected> {
  const targets = opts.targets;
  const base: ContentContext = { config: services.content, locales: ['en'], stage: 'PUBLISHED' };
  const [system, redirects] = await Promise.all([getSystemData(base), listSystemRedirects(base)]);
  const sources = opts.sources ?? ROUTE_SOURCES;
  const routes: PlannedRoute[] = [];
  const hosts = new Map<string, string>();
  const data = createRunData();
  const hashes = new WeakMap<object, string>();
  const hash = (record: unknown): string => {
    if (record === null || typeof record !== 'object') return hashOf(record ?? null);
    let h = hashes.get(record);
    if (!h) { h = hashOf(record); hashes.set(record, h); }
    return h;
  };
  const systemHash = hash(system);
  const keyIds = new Map<string, string[]>();
  const idCache = new WeakMap<object, string[]>();
  const idsOfValue = (value: unknown): string[] => {
    if (value === null || typeof value !== 'object') return [];
    let ids = idCache.get(value);
    if (!ids) { ids = [...idsOf(value)]; idCache.set(value, ids); }
    return ids;
  };

  for (const site of system.sites) {
    const host = prerenderHost(site, opts.mode);
    if (!host) continue;
    const origin = originOf(host, opts.mode, opts.port);
    hosts.set(host, origin);
    const siteSources = sources.filter((s) => s.appliesTo(site));
    await Promise.all(siteLocales(site, system).map(async (locale) => {
      const reads = new Map<string, string[]>();
      const onBuilt = (pagePath: string, keys: string[], values: unknown[]) => {
        reads.set(pagePath, keys);
        keys.forEach((k, i) => { if (!keyIds.has(k)) keyIds.set(k, idsOfValue(values[i])); });
      };
      const keptRoute = (r: IndexedRoute): SourcedRoute => {
        reads.set(r.pagePath, r.reads);
        return {
          pagePath: r.pagePath, model: KEPT_MODEL, recordHashes: [], languages: r.languages, updatedAt: r.updatedAt, keys: r.keys,
          ...(r.search ? { search: r.search } : {}), inSitemap: r.inSitemap, kept: true,
        };
      };
      const kept = targets && ((pagePath: string): SourcedRoute | null => {
        const r = targets.keep(host, localizedPath(site, locale, pagePath));
        return r ? keptRoute(r) : null;
      });
      /** A source the named records do not concern: its routes as the live release has them (null: run it). */
      const keptSource = (source: RouteSource): SourcedRoute[] | null => {
        if (!targets || targets.sources.has(source.name)) return null;
        const previous = targets.routesOf(host, locale.code, source.name);
        return previous.every((r) => targets.keep(host, r.path)) ? previous.map(keptRoute) : null;
      };
      const ctx = routeSourceContext({ system, site, locale, host, services, data, hash, onBuilt, ...(kept ? { kept } : {}) });
      for (const source of siteSources) {
        for (const r of keptSource(source) ?? await source.routes(ctx)) {
          // Pages a feature declares never static (the customer area, the callback, the editor area:
          // policies.ts) are skipped whatever a source offers.
          const owner = DELIVERY.neverStatic(r.pagePath);
          if (owner) {
            log.warn(`${source.name} offered ${localizedPath(site, locale, r.pagePath)}: the ${owner} feature's pages are never prerendered`);
            continue;
          }
          routes.push({
            source: source.name, reads: reads.get(r.pagePath) ?? [], ...(r.kept ? { kept: true } : {}),
            host, origin, path: localizedPath(site, locale, r.pagePath), pagePath: r.pagePath, siteId: site.id, locale,
            model: r.model, recordHashes: [systemHash, ...r.recordHashes],
            languages: r.languages, updatedAt: r.updatedAt, keys: r.keys, search: r.search, inSitemap: r.inSitemap !== false,
          });
        }
      }
    }));
  }
  return { system, redirects, routes, hosts, keyIds, systemHash };
}
