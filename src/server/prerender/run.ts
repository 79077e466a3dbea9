import { renderEnv, searchConfig as searchConfigOf, servicesFromEnv, upstreamTimeouts, type ServerEnv } from '../env.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { alternateLinks } from '../../site/alternates.ts';
import type { BuildMeta, LatestBuild, RouteRule } from '../static-site.ts';
import { readHostBuild, readReleaseHosts, routeFilesIntact } from '../release-check.ts';
import { collect, prerenderHost, type Collected, type CollectTargets, type HostMode } from './collect.ts';
import { appHash, readRouteIndex, ROUTE_INDEX_FILE, ROUTE_INDEX_FORMAT, routeId, target, type ChangedRecord, type IndexedRoute, type RouteIndex, type Targeting } from './targets.ts';
import { planRelease } from './plan.ts';
import { writeAtomic } from '../../lib/fs/atomic.ts';
import { answersUnchanged, recordingCalls, type CallRecording } from '../../lib/http/recording.ts';
import { askAgain } from '../../lib/http/timeouts.ts';
import { writeCompressedSiblings } from '../../lib/fs/compress.ts';
import { removeRoute, robotsTxt, routeDir, sitemapXml } from './output.ts';
import { renderAll } from './render-pool.ts';
import { indexKey, publishSearchDocuments, searchSiteKey, type Language, type SearchConfig, type SearchDocument } from '../../lib/search/index.ts';
import type { RenderJob } from './render-one.ts';
import { acquireLock, cleanStatic, HOSTS_FILE, linkTree, newReleaseId, publishRelease, readPointer, releaseDir, skipInCopy, stageRelease, takeStaged, type ReleaseHosts } from '../release.ts';
import { mainSite } from '../../site/main-site.ts';

export interface PrerenderOptions {
  distDir: string;
  /** The parsed environment: services, search and render configuration come from it. */
  env: ServerEnv;
  mode: HostMode;
  /** Port in the public origin of local hosts (http://localhost:4321). */
  port: number;
  concurrency?: number;
  /** Render threads (defaults to the machine's cores). */
  threads?: number;
  /** Re-render these pages (by id or slug) even when their fingerprint is unchanged. */
  force?: { ids?: string[]; slugs?: string[]; all?: boolean };
  /**
   * The changed records a webhook named: only the routes they affect are collected and built,
   * the rest is kept from the live release (see targets.ts; everything when it cannot be sure).
   */
  records?: ChangedRecord[];
  onProgress?: (p: Progress) => void;
  /** Stage the next run's link copy after a publish (default true; see release.ts takeStaged). */
  stage?: boolean;
  /** Told the result as soon as the release is live, before the clean-up and the staging that follow. */
  onPublished?: (result: PrerenderResult) => void;
  /**
   * Told when the search index of a published release is written: before the release goes live in
   * a full run, right after it in a targeted one (its pages need not wait for the search).
   */
  onSearchWritten?: () => void;
  /** Node options of the render worker threads (the bench profiles them with `--cpu-prof`). */
  workerExecArgv?: string[];
  /**
   * Told each step of a run that writes a release as it is reached (`PRERENDER_STEPS`): the crash
   * test kills the process at each of them (cli-options.ts, `PRERENDER_KILL_AT`).
   */
  onStep?: (step: PrerenderStep) => void;
}

/**
 * The steps of a run that writes a release, in order: the release folder linked from the live one,
 * half of the routes rendered, all rendered, the search index written (before the swap in a full
 * run), the manifests and hosts.json written, the release live, the older ones removed, the next
 * run's copy staged.
 */
export const PRERENDER_STEPS = ['linked', 'half-rendered', 'rendered', 'search-written', 'manifests-written', 'published', 'cleaned', 'staged'] as const;
export type PrerenderStep = (typeof PRERENDER_STEPS)[number];

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
  /** Making the new release a hard-link copy of the live one. */
  linkSeconds: number;
  renderSeconds: number;
  /** Writing the search index, manifests and sitemaps of a new release. */
  publishSeconds: number;
  /** After the publish: staging the next run's link copy (not in `seconds`). */
  stageSeconds: number;
  pagesPerSecond: number;
  /** `targeted` when only what the named records affect was collected, else why everything was. */
  scope: 'full' | 'targeted';
  /**
   * A full run that collected nothing: every service call of the last full collect, asked again,
   * got the same answer, and the release that collect left live is still live (see `lastFullRun`).
   */
  replayed?: true;
  /** The search index is written after the publish (a targeted run): `onSearchWritten` says when. */
  searchAfterPublish?: boolean;
  scopeReason?: string;
}

export interface BuiltEntry {
  app: { render(req: Request, opts: { locals: object }): Promise<Response> };
  buildId: string;
}

/**
 * The route index this process last wrote, by static root and release: the next targeted run of a
 * long-lived process (the server's prerender thread) takes it from memory instead of parsing the
 * file again (~15 MB for 10,000 routes). Never changed once written.
 */
let lastRouteIndex: { key: string; index: RouteIndex } | null = null;
function rememberRouteIndex(staticRoot: string, releaseId: string, index: RouteIndex): void {
  lastRouteIndex = { key: `${staticRoot}\n${releaseId}`, index };
}
function routeIndexOf(staticRoot: string, releaseId: string): RouteIndex | null {
  if (lastRouteIndex?.key === `${staticRoot}\n${releaseId}`) return lastRouteIndex.index;
  return readRouteIndex(releaseDir(staticRoot, releaseId));
}

/**
 * The last full collect of this process (the server's prerender thread runs one at every start
 * and every safety-net run) and the release it left live: its service calls and answers. The
 * collect is a function of those answers, the app and the day (sources date their routes), so
 * while the same release is live a full run first asks the same calls again: the same answers
 * mean nothing changed, with nothing parsed, built or fingerprinted. Any difference, a failure,
 * another release live (a webhook's run, another process) or a new day: the full collect.
 */
let lastFullRun: { key: string; recording: CallRecording; total: number } | null = null;
const fullRunKey = (staticRoot: string, liveId: string, app: string) => `${staticRoot}\n${liveId}\n${app}\n${new Date().toISOString().slice(0, 10)}`;

/** The result of a run that published nothing: what it looked at, and how long it took. */
function nothingPublished(r: Pick<PrerenderResult, 'unchanged' | 'total' | 'seconds' | 'collectSeconds' | 'scope'> & Partial<Pick<PrerenderResult, 'scopeReason' | 'replayed'>>): PrerenderResult {
  return { releaseId: null, rendered: 0, removed: 0, failed: [], linkSeconds: 0, renderSeconds: 0, publishSeconds: 0, stageSeconds: 0, pagesPerSecond: 0, ...r };
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

/** Where a run gets the built app and the records from; tests pass fakes (no build, no services). */
export interface PrerenderDeps {
  loadEntry?: (distDir: string) => Promise<BuiltEntry>;
  collect?: (opts: PrerenderOptions, more: { targets?: CollectTargets }) => Promise<Collected>;
}

/**
 * The incremental prerender: collects every record, fingerprints every route against the live
 * release, and when anything changed writes a NEW release (see `../release.ts`): a hard-link copy
 * of the live one, the changed routes rendered into it through the built App, vanished routes
 * removed, the search index, then per host meta, sitemap, robots and latest.json, then hosts.json;
 * only then is it made live, in one atomic pointer swap. Killed at any point, the live release
 * stays complete and the next run cleans up and renders again what was lost.
 */
export async function prerender(opts: PrerenderOptions, deps: PrerenderDeps = {}): Promise<PrerenderResult> {
  const staticRoot = join(opts.distDir, 'static');
  const searchConfig = searchConfigOf(opts.env, opts.distDir);
  const searchDir = searchConfig.engine === 'embedded' ? searchConfig.indexDir : undefined;
  const lock = await acquireLock(staticRoot);
  try {
    await cleanStatic(staticRoot, { searchDir });
    return await prerenderLocked(opts, deps, staticRoot, searchConfig, searchDir);
  } finally {
    await lock.release();
  }
}

async function prerenderLocked(opts: PrerenderOptions, deps: PrerenderDeps, staticRoot: string, searchConfig: SearchConfig, searchDir: string | undefined): Promise<PrerenderResult> {
  const started = performance.now();
  const entry = await (deps.loadEntry ?? loadEntry)(opts.distDir);
  // What every page is rendered with besides its records: the app build and the render configuration.
  const appInput = `${entry.buildId}\n${renderEnv(opts.env)}`;
  const app = appHash(appInput);
  const liveId = readPointer(staticRoot);
  const liveRoot = liveId ? releaseDir(staticRoot, liveId) : null;
  const liveHosts = liveRoot ? readReleaseHosts(liveRoot) : null;
  // Each host's build in the live release; a manifest not as written (release-check.ts) reads as missing.
  const liveBuilds = new Map<string, ReturnType<typeof readHostBuild>>();
  const buildOf = (host: string) => {
    let build = liveBuilds.get(host);
    if (!build) {
      build = liveRoot && liveId ? readHostBuild(liveRoot, liveHosts, host, liveId) : { latest: null, meta: null };
      liveBuilds.set(host, build);
    }
    return build;
  };
  const metaOf = (host: string) => buildOf(host).meta;
  // A route's files in the live release as its meta recorded them (sizes), else it is rendered again.
  const liveFilesIntact = (host: string, path: string) => !!liveRoot && routeFilesIntact(routeDir(join(liveRoot, host), path), metaOf(host)?.routes[path]?.sizes);

  // A webhook that named records: collect only what they affect, when the live release says what that is.
  let targeting: Targeting | null = null;
  if (opts.records?.length && !opts.force?.all && liveRoot && liveId) {
    // Pages forced by id or slug are named records too (built, never kept).
    const forced = [...(opts.force?.ids ?? []), ...(opts.force?.slugs ?? [])].map((id) => ({ model: 'forced', id }));
    targeting = target(routeIndexOf(staticRoot, liveId), app, [...opts.records, ...forced]);
  }
  if (targeting?.targeted && targeting.ids.length === 0) {
    // Only records of other stages (drafts): nothing served changes.
    const seconds = (performance.now() - started) / 1000;
    return nothingPublished({ unchanged: 0, total: 0, seconds, collectSeconds: seconds, scope: 'targeted', scopeReason: 'no published record named' });
  }
  const fullRun = !opts.records?.length && !opts.force?.all && !opts.force?.ids?.length && !opts.force?.slugs?.length;
  const last = lastFullRun;
  if (fullRun && liveId && last?.key === fullRunKey(staticRoot, liveId, app)) {
    lastFullRun = null;
    if (await answersUnchanged(last.recording, (call) => askAgain(call, upstreamTimeouts(opts.env)))) {
      lastFullRun = last;
      const seconds = (performance.now() - started) / 1000;
      return nothingPublished({ unchanged: last.total, total: last.total, seconds, collectSeconds: seconds, scope: 'full', replayed: true });
    }
  }
  let targets: CollectTargets | undefined;
  let index: RouteIndex | null = null;
  if (targeting?.targeted) {
    const { affected, sources } = targeting;
    index = targeting.index;
    const byId = new Map(index.routes.map((r) => [routeId(r.host, r.path), r]));
    const bySource = new Map<string, IndexedRoute[]>();
    for (const r of index.routes) {
      const k = `${r.host}\n${r.locale}\n${r.source}`;
      const list = bySource.get(k);
      if (list) list.push(r);
      else bySource.set(k, [r]);
    }
    targets = {
      sources,
      keep: (host, path) => {
        const id = routeId(host, path);
        if (affected.has(id)) return null;
        const r = byId.get(id);
        // Kept only with its rule and its files (as written) in the live release.
        return r && metaOf(host)?.routes[path] && liveFilesIntact(host, path) ? r : null;
      },
      routesOf: (host, locale, source) => bySource.get(`${host}\n${locale}\n${source}`) ?? [],
    };
  }
  const runCollect = (t?: CollectTargets) => (deps.collect ? deps.collect(opts, { targets: t }) : collect(servicesFromEnv(opts.env), { mode: opts.mode, port: opts.port, ...(t ? { targets: t } : {}) }));
  // A full run records its service calls (see lastFullRun).
  let recording: CallRecording | null = null;
  let collected: Collected;
  if (fullRun) ({ result: collected, recording } = await recordingCalls(() => runCollect()));
  else collected = await runCollect(targets);
  const remember = (live: string) => {
    if (recording) lastFullRun = { key: fullRunKey(staticRoot, live, app), recording, total: collected.routes.length };
  };
  let scopeReason = targeting && !targeting.targeted ? targeting.reason : undefined;
  if (index && index.system !== collected.systemHash) {
    // The system data (sites, locales, countries) changed too: every route may differ.
    index = null;
    scopeReason = 'the system data changed';
    collected = await runCollect();
  }
  const scope: PrerenderResult['scope'] = index ? 'targeted' : 'full';
  const collectSeconds = (performance.now() - started) / 1000;
  let releaseId = newReleaseId();
  let releaseRoot = releaseDir(staticRoot, releaseId);
  const timestamp = new Date().toISOString();

  const planned = planRelease({
    appInput,
    hosts: [...collected.hosts.keys()],
    routes: collected.routes,
    previous: metaOf,
    hasFile: liveFilesIntact,
    liveHosts: Object.keys(liveHosts?.hosts ?? {}),
    force: opts.force,
  });
  // A live host whose latest.json is damaged (its meta read by the release id) needs a new release for a new one.
  const damagedLatest = planned.hosts.some((p) => p.previous && !buildOf(p.host).latest);
  const changed = planned.changed || damagedLatest;
  // The link copy of the live release, staged after the last publish, when there is one.
  const linkStart = performance.now();
  const staged = changed && liveId ? await takeStaged(staticRoot, liveId, planned.hosts.filter((p) => p.previous).map((p) => p.host)) : null;
  if (staged) {
    releaseId = staged;
    releaseRoot = releaseDir(staticRoot, releaseId);
  }
  const plans = planned.hosts.map((p) => ({ ...p, hostDir: join(releaseRoot, p.host), liveHostDir: p.previous && liveRoot ? join(liveRoot, p.host) : null }));
  if (!changed) {
    if (liveId) remember(liveId);
    const unchanged = plans.reduce((n, p) => n + p.diff.unchanged.length, 0);
    const seconds = (performance.now() - started) / 1000;
    return nothingPublished({ unchanged, total: collected.routes.length, seconds, collectSeconds, scope, ...(scopeReason ? { scopeReason } : {}) });
  }

  // The new release starts as the live one: every file hard-linked (nothing read or copied), except
  // the build manifests, which are written anew.
  if (!staged) await Promise.all(plans.map((p) => (p.liveHostDir ? linkTree(p.liveHostDir, p.hostDir, { skip: skipInCopy }) : undefined)));
  const linkSeconds = (performance.now() - linkStart) / 1000;
  opts.onStep?.('linked');

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
    ...(opts.workerExecArgv ? { workerExecArgv: opts.workerExecArgv } : {}),
    onOutcome: (o) => {
      if (o.status !== 200) failed.push(`${o.host}${o.path} (${o.status})`);
      else rules.get(o.host)![o.path] = { fingerprint: fingerprintOf.get(o.host)![o.path]!, csp: o.csp, ...(o.sizes ? { sizes: o.sizes } : {}) };
      done++;
      if (done === Math.ceil(total / 2)) opts.onStep?.('half-rendered');
      const now = performance.now();
      if (now - lastReport > 200) { lastReport = now; report(); }
    },
  });
  report();
  const renderSeconds = (performance.now() - renderStart) / 1000;
  opts.onStep?.('rendered');

  let removed = 0;
  let unchanged = 0;
  for (const plan of plans) {
    const hostRules = rules.get(plan.host)!;
    for (const path of plan.diff.unchanged) hostRules[path] = plan.previous!.routes[path]!;
    unchanged += plan.diff.unchanged.length;
    for (const path of plan.diff.removed) await removeRoute(plan.hostDir, path);
    removed += plan.diff.removed.length;
  }

  // The search index is built from the text of every published route (rendered or kept).
  const docs: SearchDocument[] = [];
  // A targeted run that removed nothing changed only the indexes of the routes it built.
  const touched = scope === 'targeted' && removed === 0 ? new Set<string>() : null;
  const siteKeys = new Map(collected.system.sites.map((s) => [s.id, searchSiteKey(s)]));
  for (const r of collected.routes) {
    if (!r.search || !rules.get(r.host)?.[r.path]) continue;
    const site = siteKeys.get(r.siteId)!;
    docs.push({ id: r.pagePath || '/', url: r.path, ...r.search, site, locale: r.locale.language });
    if (touched && !r.kept) touched.add(indexKey(site, r.locale.language.toLowerCase().split(/[-_]/)[0] as Language));
  }
  // A full run writes everything before the swap. A targeted run, which adds no page and removes
  // none, makes its pages live first and writes after the swap what no request needs at once: the
  // search index (its text follows the page a moment later), the sitemaps (their lastmod) and the
  // route index (a run killed before it is written leaves a release without one, and the next
  // webhook then collects everything). Each of these files is replaced atomically.
  const deferTail = touched !== null;
  const writeSearch = async () => {
    const at = performance.now();
    await publishSearchDocuments(docs, searchConfig, touched ? { touched } : {});
    return (performance.now() - at) / 1000;
  };
  let searchSeconds = deferTail ? 0 : await writeSearch();
  if (!deferTail) opts.onStep?.('search-written');
  const write = async (file: string, text: string) => {
    await writeAtomic(file, text);
    await writeCompressedSiblings(file, text);
  };
  const writeSitemaps = async () => {
    for (const plan of plans) {
      const origin = collected.hosts.get(plan.host)!;
      const hostRules = rules.get(plan.host)!;
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
      await write(join(plan.hostDir, 'sitemap.xml'), sitemapXml(sitemap));
      if (!deferTail) await write(join(plan.hostDir, 'robots.txt'), robotsTxt(origin));
    }
  };
  if (!deferTail) await writeSitemaps();
  // Bytes of every manifest written, recorded in hosts.json (release-check.ts).
  const sizes: Record<string, number> = {};
  for (const plan of plans) {
    const meta: BuildMeta = { id: releaseId, timestamp, appBuildId: entry.buildId, routes: rules.get(plan.host)!, redirects: collected.redirects };
    const metaText = JSON.stringify(meta);
    await write(join(plan.hostDir, 'builds/meta', `${releaseId}.json`), metaText);
    sizes[`${plan.host}/builds/meta/${releaseId}.json`] = Buffer.byteLength(metaText);
    // Last in the host's tree: once live, a changed latest.json tells the open pages of a new release.
    const latestText = JSON.stringify({ id: releaseId, timestamp } satisfies LatestBuild);
    await write(join(plan.hostDir, 'builds/latest.json'), latestText);
    sizes[`${plan.host}/builds/latest.json`] = Buffer.byteLength(latestText);
  }
  // The route index of the release: what a later targeted run keeps without building (see targets.ts).
  const indexed: IndexedRoute[] = [];
  const keyIds: Record<string, string[]> = {};
  for (const r of collected.routes) {
    if (!rules.get(r.host)?.[r.path]) continue;
    indexed.push({
      host: r.host, path: r.path, pagePath: r.pagePath, siteId: r.siteId, source: r.source, locale: r.locale.code, keys: r.keys, reads: r.reads,
      languages: r.languages, updatedAt: r.updatedAt, ...(r.search ? { search: r.search } : {}), inSitemap: r.inSitemap,
    });
    for (const k of r.reads) keyIds[k] ??= collected.keyIds.get(k) ?? index?.keyIds[k] ?? [];
  }
  const routeIndex: RouteIndex = { format: ROUTE_INDEX_FORMAT, app, system: collected.systemHash, keyIds, routes: indexed };
  const writeRouteIndex = async () => {
    await writeAtomic(join(releaseRoot, ROUTE_INDEX_FILE), JSON.stringify(routeIndex));
    rememberRouteIndex(staticRoot, releaseId, routeIndex);
  };
  if (!deferTail) await writeRouteIndex();
  const main = mainSite(collected.system);
  const hosts: ReleaseHosts = { main: (main && prerenderHost(main, opts.mode)) ?? null, hosts: Object.fromEntries(collected.hosts), sizes };
  await writeAtomic(join(releaseRoot, HOSTS_FILE), JSON.stringify(hosts));
  opts.onStep?.('manifests-written');
  // Every file of the release is written: make it live in one step, then drop the releases
  // older than the previous one (requests still reading the previous one can finish).
  await publishRelease(staticRoot, releaseId);
  opts.onStep?.('published');
  if (failed.length === 0) remember(releaseId);
  const seconds = (performance.now() - started) / 1000;
  if (!deferTail) opts.onSearchWritten?.();
  const published = (stageSeconds: number): PrerenderResult => ({
    releaseId,
    rendered: done - failed.length,
    unchanged,
    removed,
    failed,
    total: collected.routes.length,
    seconds,
    collectSeconds,
    linkSeconds,
    renderSeconds,
    publishSeconds: searchSeconds,
    stageSeconds,
    scope,
    ...(deferTail ? { searchAfterPublish: true } : {}),
    ...(scopeReason ? { scopeReason } : {}),
    pagesPerSecond: renderSeconds > 0 ? (done / renderSeconds) : 0,
  });
  opts.onPublished?.(published(0));
  if (deferTail) {
    // The search first: visitors look for the changed page, nobody waits for the rest.
    searchSeconds = await writeSearch();
    opts.onStep?.('search-written');
    opts.onSearchWritten?.();
    await writeRouteIndex();
    await writeSitemaps();
  }
  // The releases this publish superseded go (all but live and previous).
  await cleanStatic(staticRoot, { searchDir, superseded: true });
  opts.onStep?.('cleaned');
  // Live now: the next run's link copy is made here, off the path of its change (see takeStaged).
  const stageStart = performance.now();
  if (opts.stage !== false) await stageRelease(staticRoot, releaseId, plans.map((p) => p.host));
  opts.onStep?.('staged');
  const stageSeconds = (performance.now() - stageStart) / 1000;
  return published(stageSeconds);
}
