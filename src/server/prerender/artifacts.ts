import { join } from 'node:path';
import { alternateLinks } from '../../site/alternates.ts';
import type { SystemData } from '../../site/types.ts';
import type { BuildMeta, LatestBuild } from '../delivery/static-site.ts';
import { HOSTS_FILE, type ReleaseHosts } from '../release/release.ts';
import { writeAtomic } from '../../lib/fs/atomic.ts';
import { writeCompressedSiblings } from '../../lib/fs/compress.ts';
import { indexKey, publishSearchDocuments, searchSiteKey, type Language, type SearchConfig, type SearchDocument } from '../../lib/search/index.ts';
import { prerenderHost, type Collected, type HostMode } from './collect.ts';
import { removeRoute, robotsTxt, sitemapXml } from './output.ts';
import { ROUTE_INDEX_FILE, ROUTE_INDEX_FORMAT, type IndexedRoute, type RouteIndex } from './targets.ts';
import { secondsSince, type HostRules, type HostWork, type NewRelease, type RunState } from './run-state.ts';
import { mainSite } from '../../site/main-site.ts';

/**
 * Completes each host's rules with the routes kept unchanged and removes the files of the routes
 * that vanished, counting both.
 */
export async function settleRoutes(plans: HostWork[], rules: HostRules): Promise<{ unchanged: number; removed: number }> {
  let removed = 0;
  let unchanged = 0;
  for (const plan of plans) {
    const hostRules = rules.get(plan.host)!;
    for (const path of plan.diff.unchanged) hostRules[path] = plan.previous!.routes[path]!;
    unchanged += plan.diff.unchanged.length;
    for (const path of plan.diff.removed) await removeRoute(plan.hostDir, path);
    removed += plan.diff.removed.length;
  }
  return { unchanged, removed };
}

/**
 * The search documents of every published route (rendered or kept), and for a run that only
 * replaced pages (`onlyReplaced`: targeted, nothing removed) the indexes its built routes touch;
 * null touched means every index is written.
 */
export function searchDocuments(collected: Pick<Collected, 'routes' | 'system'>, rules: HostRules, onlyReplaced: boolean): { docs: SearchDocument[]; touched: Set<string> | null } {
  const docs: SearchDocument[] = [];
  const touched = onlyReplaced ? new Set<string>() : null;
  const siteKeys = new Map(collected.system.sites.map((s) => [s.id, searchSiteKey(s)]));
  for (const r of collected.routes) {
    if (!r.search || !rules.get(r.host)?.[r.path]) continue;
    const site = siteKeys.get(r.siteId)!;
    docs.push({ id: r.pagePath || '/', url: r.path, ...r.search, site, locale: r.locale.language });
    if (touched && !r.kept) touched.add(indexKey(site, r.locale.language.toLowerCase().split(/[-_]/)[0] as Language));
  }
  return { docs, touched };
}

/** The sitemap entries of one host: its published routes that go in a sitemap, with their alternates. */
export function sitemapEntries(plan: Pick<HostWork, 'byPath'>, hostRules: Record<string, unknown>, origin: string, system: SystemData) {
  // Every locale of a page has the same alternates: work them out once per page.
  const alternatesOf = new Map<string, ReturnType<typeof alternateLinks>>();
  return [...plan.byPath.values()].filter((r) => hostRules[r.path] && r.inSitemap).map((r) => {
    const key = `${r.siteId}|${r.pagePath}|${r.languages.join(',')}`;
    let alternates = alternatesOf.get(key);
    if (!alternates) {
      const site = system.sites.find((s) => s.id === r.siteId)!;
      alternates = alternateLinks(site, system, { languages: r.languages, path: r.pagePath }, origin);
      alternatesOf.set(key, alternates);
    }
    return { loc: `${origin}${r.path}`, lastmod: r.updatedAt, alternates };
  });
}

/**
 * The route index of the release: what a later targeted run keeps without building (see
 * targets.ts). A kept route's keys take their record ids from the live index it was kept from.
 */
export function routeIndexFor(collected: Pick<Collected, 'routes' | 'keyIds' | 'systemHash'>, rules: HostRules, app: string, liveIndex: RouteIndex | null): RouteIndex {
  const indexed: IndexedRoute[] = [];
  const keyIds: Record<string, string[]> = {};
  for (const r of collected.routes) {
    if (!rules.get(r.host)?.[r.path]) continue;
    indexed.push({
      host: r.host, path: r.path, pagePath: r.pagePath, siteId: r.siteId, source: r.source, locale: r.locale.code, keys: r.keys, reads: r.reads,
      languages: r.languages, updatedAt: r.updatedAt, ...(r.search ? { search: r.search } : {}), inSitemap: r.inSitemap,
    });
    for (const k of r.reads) keyIds[k] ??= collected.keyIds.get(k) ?? liveIndex?.keyIds[k] ?? [];
  }
  return { format: ROUTE_INDEX_FORMAT, app, system: collected.systemHash, keyIds, routes: indexed };
}

/** hosts.json of the release: the main host, every host's origin and the bytes of every manifest. */
export function releaseHosts(collected: Pick<Collected, 'system' | 'hosts'>, mode: HostMode, sizes: Record<string, number>): ReleaseHosts {
  const main = mainSite(collected.system);
  return { main: (main && prerenderHost(main, mode)) ?? null, hosts: Object.fromEntries(collected.hosts), sizes };
}

const writeWithSiblings = async (file: string, text: string) => {
  await writeAtomic(file, text);
  await writeCompressedSiblings(file, text);
};

/**
 * Each host's meta and, last in its tree, latest.json (once live, a changed latest.json tells the
 * open pages of a new release). Answers the bytes of each, recorded in hosts.json (release-check.ts).
 */
async function writeManifests(release: NewRelease, rules: HostRules, appBuildId: string, redirects: Collected['redirects']): Promise<Record<string, number>> {
  const { plans, releaseId, timestamp } = release;
  const sizes: Record<string, number> = {};
  for (const plan of plans) {
    const meta: BuildMeta = { id: releaseId, timestamp, appBuildId, routes: rules.get(plan.host)!, redirects };
    const metaText = JSON.stringify(meta);
    await writeWithSiblings(join(plan.hostDir, 'builds/meta', `${releaseId}.json`), metaText);
    sizes[`${plan.host}/builds/meta/${releaseId}.json`] = Buffer.byteLength(metaText);
    const latestText = JSON.stringify({ id: releaseId, timestamp } satisfies LatestBuild);
    await writeWithSiblings(join(plan.hostDir, 'builds/latest.json'), latestText);
    sizes[`${plan.host}/builds/latest.json`] = Buffer.byteLength(latestText);
  }
  return sizes;
}

/** What the artifacts phase wrote before the publish, and what it left for after (a targeted run). */
export interface ArtifactsPhase {
  unchanged: number;
  removed: number;
  /** Search, sitemaps and route index are written after the publish (`writeTail`). */
  deferTail: boolean;
  searchSeconds: number;
  /** Writes the search index (telling the `search-written` step), the route index and the sitemaps; seconds of the search. */
  writeTail(): Promise<number>;
}

/**
 * Everything of the new release besides its pages: the vanished routes removed, the search index,
 * per host sitemap, robots, meta and latest.json, the route index, then hosts.json (telling the
 * `search-written` and `manifests-written` steps).
 *
 * A full run writes everything before the swap. A targeted run, which adds no page and removes
 * none, makes its pages live first and writes after the swap what no request needs at once: the
 * search index (its text follows the page a moment later), the sitemaps (their lastmod) and the
 * route index (a run killed before it is written leaves a release without one, and the next
 * webhook then collects everything). Each of these files is replaced atomically.
 */
export async function artifactsPhase(
  state: RunState,
  run: { collected: Collected; scope: 'full' | 'targeted'; index: RouteIndex | null },
  release: NewRelease,
  rules: HostRules,
  io: { searchConfig: SearchConfig; rememberRouteIndex: (index: RouteIndex) => void },
): Promise<ArtifactsPhase> {
  const { opts } = state;
  const { collected } = run;
  const { plans, releaseRoot } = release;
  const { unchanged, removed } = await settleRoutes(plans, rules);
  const { docs, touched } = searchDocuments(collected, rules, run.scope === 'targeted' && removed === 0);
  const deferTail = touched !== null;
  const writeSearch = async () => {
    const at = performance.now();
    await publishSearchDocuments(docs, io.searchConfig, touched ? { touched } : {});
    return secondsSince(at);
  };
  const searchSeconds = deferTail ? 0 : await writeSearch();
  if (!deferTail) opts.onStep?.('search-written');
  const writeSitemaps = async () => {
    for (const plan of plans) {
      const origin = collected.hosts.get(plan.host)!;
      await writeWithSiblings(join(plan.hostDir, 'sitemap.xml'), sitemapXml(sitemapEntries(plan, rules.get(plan.host)!, origin, collected.system)));
      if (!deferTail) await writeWithSiblings(join(plan.hostDir, 'robots.txt'), robotsTxt(origin));
    }
  };
  if (!deferTail) await writeSitemaps();
  const sizes = await writeManifests(release, rules, state.entry.buildId, collected.redirects);
  const routeIndex = routeIndexFor(collected, rules, state.app, run.index);
  const writeRouteIndex = async () => {
    await writeAtomic(join(releaseRoot, ROUTE_INDEX_FILE), JSON.stringify(routeIndex));
    io.rememberRouteIndex(routeIndex);
  };
  if (!deferTail) await writeRouteIndex();
  await writeAtomic(join(releaseRoot, HOSTS_FILE), JSON.stringify(releaseHosts(collected, opts.mode, sizes)));
  opts.onStep?.('manifests-written');
  return {
    unchanged, removed, deferTail, searchSeconds,
    writeTail: async () => {
      // The search first: visitors look for the changed page, nobody waits for the rest.
      const seconds = await writeSearch();
      opts.onStep?.('search-written');
      opts.onSearchWritten?.();
      await writeRouteIndex();
      await writeSitemaps();
      return seconds;
    },
  };
}
