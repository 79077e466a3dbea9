import { getSystemData, listSystemRedirects, type ContentContext, type SystemRedirect } from '../../lib/content/index.ts';
import { siteLocales } from '../../site/locale.ts';
import { localizedPath } from '../../site/paths.ts';
import { isLocalHost } from '../../site/resolve-site.ts';
import type { Services } from '../../features/platform/context.ts';
import { createRunData, routeSourceContext } from '../../features/platform/run-data.server.ts';
import type { Locale, Site, SystemData } from '../../site/types.ts';
import { hashOf } from './fingerprint.ts';
import { ROUTE_SOURCES, type RouteSource, type SourcedRoute } from './sources.ts';

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
}

export interface Collected {
  system: SystemData;
  redirects: SystemRedirect[];
  routes: PlannedRoute[];
  /** Hosts and their origins, one static tree each. */
  hosts: Map<string, string>;
}

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
export async function collect(services: Services, opts: { mode: HostMode; port: number; sources?: RouteSource[] }): Promise<Collected> {
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

  for (const site of system.sites) {
    const host = prerenderHost(site, opts.mode);
    if (!host) continue;
    const origin = originOf(host, opts.mode, opts.port);
    hosts.set(host, origin);
    const siteSources = sources.filter((s) => s.appliesTo(site));
    await Promise.all(siteLocales(site, system).map(async (locale) => {
      const ctx = routeSourceContext({ system, site, locale, host, services, data, hash });
      for (const source of siteSources) {
        for (const r of await source.routes(ctx)) {
          routes.push({
            host, origin, path: localizedPath(site, locale, r.pagePath), pagePath: r.pagePath, siteId: site.id, locale,
            model: r.model, recordHashes: [systemHash, ...r.recordHashes],
            languages: r.languages, updatedAt: r.updatedAt, keys: r.keys, search: r.search, inSitemap: r.inSitemap !== false,
          });
        }
      }
    }));
  }
  return { system, redirects, routes, hosts };
}
