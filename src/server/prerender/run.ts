import { renderEnv, serverEnv } from '../env.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { ContentConfig } from '../../lib/content/index.ts';
import { alternateLinks } from '../../site/alternates.ts';
import type { BuildMeta, LatestBuild, RouteRule } from '../static-site.ts';
import { collect, type HostMode, type PlannedRoute } from './collect.ts';
import { diffRoutes, routeFingerprint } from './fingerprint.ts';
import { removeRoute, robotsTxt, routeDir, sitemapXml, writeAtomic } from './output.ts';
import { renderAll } from './render-pool.ts';
import { publishSearchDocuments, searchConfigFromEnv, searchSiteKey, type SearchDocument } from '../../lib/search/index.ts';
import type { RenderJob } from './render-one.ts';

export interface PrerenderOptions {
  distDir: string;
  content: ContentConfig;
  mode: HostMode;
  /** Port in the public origin of local hosts (http://localhost:4321). */
  port: number;
  concurrency?: number;
  /** Render threads (defaults to the machine's cores). */
  threads?: number;
  /** Re-render these pages (by id or slug) even when their fingerprint is unchanged. */
  force?: { ids?: string[]; slugs?: string[]; all?: boolean };
  onProgress?: (p: Progress) => void;
}

export interface Progress {
  done: number;
  total: number;
  pagesPerSecond: number;
  secondsLeft: number;
}

export interface PrerenderResult {
  /** The release published, or null when nothing changed. */
  releaseId: string | null;
  rendered: number;
  unchanged: number;
  removed: number;
  failed: string[];
  total: number;
  seconds: number;
  /** Pulling the records from the services and planning the routes. */
  collectSeconds: number;
  renderSeconds: number;
  /** Writing the search index, manifests and sitemaps of a new release. */
  publishSeconds: number;
  pagesPerSecond: number;
}

interface BuiltEntry {
  app: { render(req: Request, opts: { locals: object }): Promise<Response> };
  buildId: string;
}

const entryCache = new Map<string, Promise<BuiltEntry>>();
/** Imports the built server entry once per process. */
export function loadEntry(distDir: string): Promise<BuiltEntry> {
  const file = join(distDir, 'server/entry.mjs');
  if (!existsSync(file)) throw new Error(`No built app at ${file}: run "npm run build" first.`);
  let p = entryCache.get(file);
  if (!p) {
    // The built app is production code: React and friends must not run their development builds.
    process.env.NODE_ENV = 'production';
    p = import(pathToFileURL(file).href) as Promise<BuiltEntry>;
    entryCache.set(file, p);
  }
  return p;
}

function readPrevious(hostDir: string): BuildMeta | null {
  try {
    const latest = JSON.parse(readFileSync(join(hostDir, 'builds/latest.json'), 'utf8')) as LatestBuild;
    return JSON.parse(readFileSync(join(hostDir, 'builds/meta', `${latest.id}.json`), 'utf8')) as BuildMeta;
  } catch {
    return null;
  }
}

/**
 * The incremental prerender: collects every record, fingerprints every route, renders only the
 * routes whose fingerprint changed through the built App, removes vanished routes, and publishes
 * a new release (meta, sitemap, robots, then latest.json) per host when anything changed.
 */
export async function prerender(opts: PrerenderOptions): Promise<PrerenderResult> {
  const started = performance.now();
  const entry = await loadEntry(opts.distDir);
  const collected = await collect(opts.content, { mode: opts.mode, port: opts.port });
  // What every page is rendered with besides its records: the app build and the render configuration.
  const appInput = `${entry.buildId}\n${renderEnv(serverEnv())}`;
  const collectSeconds = (performance.now() - started) / 1000;
  const staticRoot = join(opts.distDir, 'static');
  const releaseId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const timestamp = new Date().toISOString();

  const byHost = new Map<string, PlannedRoute[]>();
  for (const r of collected.routes) {
    const list = byHost.get(r.host) ?? [];
    list.push(r);
    byHost.set(r.host, list);
  }
  const forceIds = new Set(opts.force?.ids ?? []);
  const forceSlugs = new Set(opts.force?.slugs ?? []);

  const plans = [...collected.hosts.keys()].map((host) => {
    const routes = byHost.get(host) ?? [];
    const hostDir = join(staticRoot, host);
    const previous = readPrevious(hostDir);
    const prevRoutes = previous?.routes ?? {};
    const fingerprints: Record<string, string> = {};
    const byPath = new Map<string, PlannedRoute>();
    const force = new Set<string>();
    for (const r of routes) {
      fingerprints[r.path] = routeFingerprint(appInput, `${r.origin}${r.path}`, r.recordHashes);
      byPath.set(r.path, r);
      if (opts.force?.all || r.keys.some((k) => forceIds.has(k) || forceSlugs.has(k))) force.add(r.path);
      // A route whose files went missing is rendered again.
      else if (prevRoutes[r.path] && !existsSync(join(routeDir(hostDir, r.path), 'index.html'))) force.add(r.path);
    }
    return { host, hostDir, previous, fingerprints, byPath, diff: diffRoutes(prevRoutes, fingerprints, force) };
  });

  const total = plans.reduce((n, p) => n + p.diff.render.length, 0);
  const failed: string[] = [];
  const rules = new Map<string, Record<string, RouteRule>>(plans.map((p) => [p.host, {}]));
  let done = 0;
  const renderStart = performance.now();
  let lastReport = 0;
  const report = () => {
    const secs = (performance.now() - renderStart) / 1000;
    const rate = secs > 0 ? done / secs : 0;
    opts.onProgress?.({ done, total, pagesPerSecond: rate, secondsLeft: rate > 0 ? (total - done) / rate : 0 });
  };

  const jobs: RenderJob[] = plans.flatMap((p) => p.diff.render.map((path) => {
    const route = p.byPath.get(path)!;
    return { host: p.host, hostDir: p.hostDir, origin: route.origin, path, model: route.model };
  }));
  const fingerprintOf = new Map(plans.map((p) => [p.host, p.fingerprints]));
  await renderAll(jobs, {
    app: entry.app,
    distDir: opts.distDir,
    system: collected.system,
    releaseId,
    concurrency: opts.concurrency,
    threads: opts.threads,
    onOutcome: (o) => {
      if (o.status !== 200) failed.push(`${o.host}${o.path} (${o.status})`);
      else rules.get(o.host)![o.path] = { fingerprint: fingerprintOf.get(o.host)![o.path]!, csp: o.csp };
      done++;
      const now = performance.now();
      if (now - lastReport > 200) { lastReport = now; report(); }
    },
  });
  report();
  const renderSeconds = (performance.now() - renderStart) / 1000;

  let removed = 0;
  let publishSeconds = 0;
  let unchanged = 0;
  let changed = false;
  for (const plan of plans) {
    const hostRules = rules.get(plan.host)!;
    for (const path of plan.diff.unchanged) hostRules[path] = plan.previous!.routes[path]!;
    unchanged += plan.diff.unchanged.length;
    for (const path of plan.diff.removed) await removeRoute(plan.hostDir, path);
    removed += plan.diff.removed.length;
    if (plan.diff.render.length || plan.diff.removed.length || !plan.previous) changed = true;
  }

  if (changed) {
    // The search index is built from the text of every published route (rendered or kept).
    const docs: SearchDocument[] = [];
    for (const r of collected.routes) {
      if (!r.search || !rules.get(r.host)?.[r.path]) continue;
      const site = collected.system.sites.find((s) => s.id === r.siteId)!;
      docs.push({ id: r.pagePath || '/', url: r.path, ...r.search, site: searchSiteKey(site), locale: r.locale.language });
    }
    const publishStart = performance.now();
    await publishSearchDocuments(docs, searchConfigFromEnv(process.env, opts.distDir));
    publishSeconds = (performance.now() - publishStart) / 1000;
    for (const plan of plans) {
      const origin = collected.hosts.get(plan.host)!;
      const hostRules = rules.get(plan.host)!;
      const meta: BuildMeta = { id: releaseId, timestamp, appBuildId: entry.buildId, routes: hostRules, redirects: collected.redirects };
      // Every locale of a page has the same alternates: work them out once per page.
      const alternatesOf = new Map<string, ReturnType<typeof alternateLinks>>();
      const sitemap = [...plan.byPath.values()].filter((r) => hostRules[r.path] && r.inSitemap).map((r) => {
        const key = `${r.siteId}|${r.pagePath}|${r.languages.join(',')}`;
        let alternates = alternatesOf.get(key);
        if (!alternates) {
          const site = collected.system.sites.find((s) => s.id === r.siteId)!;
          alternates = alternateLinks(site, collected.system, { languages: r.languages, path: r.pagePath }, origin);
          alternatesOf.set(key, alternates);
        }
        return { loc: `${origin}${r.path}`, lastmod: r.updatedAt, alternates };
      });
      await writeAtomic(join(plan.hostDir, 'builds/meta', `${releaseId}.json`), JSON.stringify(meta));
      await writeAtomic(join(plan.hostDir, 'sitemap.xml'), sitemapXml(sitemap));
      await writeAtomic(join(plan.hostDir, 'robots.txt'), robotsTxt(origin));
      // Last: publishing latest.json switches the server and the browsers to the new release.
      await writeAtomic(join(plan.hostDir, 'builds/latest.json'), JSON.stringify({ id: releaseId, timestamp } satisfies LatestBuild));
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    releaseId: changed ? releaseId : null,
    rendered: done - failed.length,
    unchanged,
    removed,
    failed,
    total: collected.routes.length,
    seconds,
    collectSeconds,
    renderSeconds,
    publishSeconds,
    pagesPerSecond: renderSeconds > 0 ? (done / renderSeconds) : 0,
  };
}
