import { join } from 'node:path';
import { servicesFromEnv } from '../boot/env.ts';
import { recordingCalls, type CallRecording } from '../../lib/http/recording.ts';
import { cleanStatic, linkTree, newReleaseId, publishRelease, releaseDir, skipInCopy, stageRelease, takeStaged } from '../release/release.ts';
import { collect, type Collected, type CollectTargets } from './collect.ts';
import { planRelease } from './plan.ts';
import { renderAll } from './render-pool.ts';
import type { RenderJob } from './render-one.ts';
import { routeId, target, type IndexedRoute, type RouteIndex, type Targeting } from './targets.ts';
import type { PrerenderDeps, PrerenderResult } from './run.ts';
import type { ArtifactsPhase } from './artifacts.ts';
import { secondsSince, type HostRules, type HostWork, type LiveRelease, type NewRelease, type RunState } from './run-state.ts';

/** What the target phase decided: which records the run builds, and from which live route index. */
export interface TargetPhase {
  /** No record named and nothing forced: the run may replay the last full collect. */
  fullRun: boolean;
  targeting: Targeting | null;
  /** Set when the live release's route index says what the named records affect. */
  targets?: CollectTargets;
  index: RouteIndex | null;
}

/**
 * A webhook that named records: collect only what they affect, when the live release says what
 * that is. `routeIndexOf` reads the live release's route index (from memory when this process wrote it).
 */
export function targetPhase(state: RunState, routeIndexOf: (staticRoot: string, releaseId: string) => RouteIndex | null): TargetPhase {
  const { opts, live } = state;
  let targeting: Targeting | null = null;
  if (opts.records?.length && !opts.force?.all && live.root && live.id) {
    // Pages forced by id or slug are named records too (built, never kept).
    const forced = [...(opts.force?.ids ?? []), ...(opts.force?.slugs ?? [])].map((id) => ({ model: 'forced', id }));
    targeting = target(routeIndexOf(state.staticRoot, live.id), state.app, [...opts.records, ...forced]);
  }
  const fullRun = !opts.records?.length && !opts.force?.all && !opts.force?.ids?.length && !opts.force?.slugs?.length;
  if (!targeting?.targeted) return { fullRun, targeting, index: null };
  return { fullRun, targeting, index: targeting.index, targets: collectTargets(targeting.index, targeting.affected, targeting.sources, live) };
}

/**
 * A targeted collect's look-ups into the live route index: a route not affected is kept only with
 * its rule and its files (as written) in the live release.
 */
export function collectTargets(index: RouteIndex, affected: Set<string>, sources: Set<string>, live: Pick<LiveRelease, 'metaOf' | 'filesIntact'>): CollectTargets {
  const byId = new Map(index.routes.map((r) => [routeId(r.host, r.path), r]));
  const bySource = new Map<string, IndexedRoute[]>();
  for (const r of index.routes) {
    const k = `${r.host}\n${r.locale}\n${r.source}`;
    const list = bySource.get(k);
    if (list) list.push(r);
    else bySource.set(k, [r]);
  }
  return {
    sources,
    keep: (host, path) => {
      const id = routeId(host, path);
      if (affected.has(id)) return null;
      const r = byId.get(id);
      return r && live.metaOf(host)?.routes[path] && live.filesIntact(host, path) ? r : null;
    },
    routesOf: (host, locale, source) => bySource.get(`${host}\n${locale}\n${source}`) ?? [],
  };
}

/** What the collect phase gathered, and whether the run stayed targeted. */
export interface CollectPhase {
  collected: Collected;
  /** A full run's service calls and answers (see run.ts lastFullRun). */
  recording: CallRecording | null;
  /** The live route index a targeted run builds on; null when the run collected everything. */
  index: RouteIndex | null;
  scope: PrerenderResult['scope'];
  scopeReason?: string;
  collectSeconds: number;
}

export async function collectPhase(state: RunState, t: TargetPhase, deps: PrerenderDeps): Promise<CollectPhase> {
  const { opts } = state;
  const runCollect = (targets?: CollectTargets) => (deps.collect ? deps.collect(opts, { targets }) : collect(servicesFromEnv(opts.env), { mode: opts.mode, port: opts.port, ...(targets ? { targets } : {}) }));
  // A full run records its service calls (see run.ts lastFullRun).
  let recording: CallRecording | null = null;
  let collected: Collected;
  if (t.fullRun) ({ result: collected, recording } = await recordingCalls(() => runCollect()));
  else collected = await runCollect(t.targets);
  let index = t.index;
  let scopeReason = t.targeting && !t.targeting.targeted ? t.targeting.reason : undefined;
  if (index && index.system !== collected.systemHash) {
    // The system data (sites, locales, countries) changed too: every route may differ.
    index = null;
    scopeReason = 'the system data changed';
    collected = await runCollect();
  }
  return { collected, recording, index, scope: index ? 'targeted' : 'full', ...(scopeReason ? { scopeReason } : {}), collectSeconds: secondsSince(state.started) };
}

/** The link phase's answer: nothing to publish (and how many routes were unchanged), or the new release. */
export type LinkPhase = { changed: false; unchanged: number } | ({ changed: true; linkSeconds: number } & NewRelease);

/**
 * Plans the release against the live one and, when anything changed, makes the new release: the
 * copy staged after the last publish, else a hard-link copy of the live release made now (every
 * file linked, nothing read or copied, except the build manifests, which are written anew).
 */
export async function linkPhase(state: RunState, collected: Collected): Promise<LinkPhase> {
  const { live, staticRoot } = state;
  let releaseId = newReleaseId();
  let releaseRoot = releaseDir(staticRoot, releaseId);
  const timestamp = new Date().toISOString();
  const planned = planRelease({
    appInput: state.appInput,
    hosts: [...collected.hosts.keys()],
    routes: collected.routes,
    previous: live.metaOf,
    hasFile: live.filesIntact,
    liveHosts: Object.keys(live.hosts?.hosts ?? {}),
    force: state.opts.force,
  });
  // A live host whose latest.json is damaged (its meta read by the release id) needs a new release for a new one.
  const damagedLatest = planned.hosts.some((p) => p.previous && !live.buildOf(p.host).latest);
  const changed = planned.changed || damagedLatest;
  const linkStart = performance.now();
  const staged = changed && live.id ? await takeStaged(staticRoot, live.id, planned.hosts.filter((p) => p.previous).map((p) => p.host)) : null;
  if (staged) {
    releaseId = staged;
    releaseRoot = releaseDir(staticRoot, releaseId);
  }
  const plans: HostWork[] = planned.hosts.map((p) => ({ ...p, hostDir: join(releaseRoot, p.host), liveHostDir: p.previous && live.root ? join(live.root, p.host) : null }));
  if (!changed) return { changed: false, unchanged: plans.reduce((n, p) => n + p.diff.unchanged.length, 0) };
  if (!staged) await Promise.all(plans.map((p) => (p.liveHostDir ? linkTree(p.liveHostDir, p.hostDir, { skip: skipInCopy }) : undefined)));
  return { changed: true, releaseId, releaseRoot, timestamp, plans, linkSeconds: secondsSince(linkStart) };
}

/** The render jobs of a release: every route its plans render, into the new release's host folder. */
export function renderJobs(plans: HostWork[]): RenderJob[] {
  return plans.flatMap((p) => p.diff.render.map((path) => {
    const route = p.byPath.get(path)!;
    return { host: p.host, hostDir: p.hostDir, origin: route.origin, path, model: route.model };
  }));
}

export interface RenderPhase {
  /** Each host's rules of the routes rendered (200); the artifacts phase adds the unchanged ones. */
  rules: HostRules;
  /** The routes that answered an error (`host/path (status)`): left out of the release. */
  failed: string[];
  /** Routes rendered, failed or not. */
  done: number;
  renderSeconds: number;
}

/** Renders the changed routes into the new release, telling the progress and the `half-rendered` step. */
export async function renderPhase(state: RunState, collected: Collected, release: NewRelease): Promise<RenderPhase> {
  const { opts } = state;
  const { plans } = release;
  const jobs = renderJobs(plans);
  const total = jobs.length;
  const failed: string[] = [];
  const rules: HostRules = new Map(plans.map((p) => [p.host, {}]));
  let done = 0;
  const renderStart = performance.now();
  let lastReport = 0;
  const report = () => {
    const secs = secondsSince(renderStart);
    const rate = secs > 0 ? done / secs : 0;
    opts.onProgress?.({ done, total, pagesPerSecond: rate, secondsLeft: rate > 0 ? (total - done) / rate : 0 });
  };
  const fingerprintOf = new Map(plans.map((p) => [p.host, p.fingerprints]));
  await renderAll(jobs, {
    app: state.entry.app,
    distDir: opts.distDir,
    system: collected.system,
    releaseId: release.releaseId,
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
  return { rules, failed, done, renderSeconds: secondsSince(renderStart) };
}

/** Everything a run that publishes did, for its result. */
export interface PublishedRun {
  run: CollectPhase;
  release: NewRelease & { linkSeconds: number };
  rendered: RenderPhase;
  artifacts: Pick<ArtifactsPhase, 'unchanged' | 'removed' | 'deferTail'>;
}

/** The result of a run that published a release (`searchSeconds`: its search index, written before or after the publish). */
export function publishedResult({ run, release, rendered, artifacts }: PublishedRun, times: { seconds: number; searchSeconds: number; stageSeconds: number }): PrerenderResult {
  const { done, failed, renderSeconds } = rendered;
  return {
    releaseId: release.releaseId,
    rendered: done - failed.length,
    unchanged: artifacts.unchanged,
    removed: artifacts.removed,
    failed,
    total: run.collected.routes.length,
    seconds: times.seconds,
    collectSeconds: run.collectSeconds,
    linkSeconds: release.linkSeconds,
    renderSeconds,
    publishSeconds: times.searchSeconds,
    stageSeconds: times.stageSeconds,
    scope: run.scope,
    ...(artifacts.deferTail ? { searchAfterPublish: true } : {}),
    ...(run.scopeReason ? { scopeReason: run.scopeReason } : {}),
    pagesPerSecond: renderSeconds > 0 ? (done / renderSeconds) : 0,
  };
}

/**
 * Every file of the release is written: makes it live in one step (telling `onPublished` at once),
 * writes what a targeted run left for after the swap, drops the releases older than the previous
 * one (requests still reading the previous one can finish) and stages the next run's link copy.
 * `remember` keeps the full collect that led to a release published without failures.
 */
export async function publishPhase(state: RunState, done: PublishedRun & { artifacts: ArtifactsPhase }, after: { searchDir: string | undefined; remember: (releaseId: string) => void }): Promise<PrerenderResult> {
  const { opts, staticRoot } = state;
  const { release, rendered, artifacts } = done;
  await publishRelease(staticRoot, release.releaseId);
  opts.onStep?.('published');
  if (rendered.failed.length === 0) after.remember(release.releaseId);
  const seconds = secondsSince(state.started);
  if (!artifacts.deferTail) opts.onSearchWritten?.();
  let searchSeconds = artifacts.searchSeconds;
  opts.onPublished?.(publishedResult(done, { seconds, searchSeconds, stageSeconds: 0 }));
  if (artifacts.deferTail) searchSeconds = await artifacts.writeTail();
  // The releases this publish superseded go (all but live and previous).
  await cleanStatic(staticRoot, { searchDir: after.searchDir, superseded: true });
  opts.onStep?.('cleaned');
  // Live now: the next run's link copy is made here, off the path of its change (see takeStaged).
  const stageStart = performance.now();
  if (opts.stage !== false) await stageRelease(staticRoot, release.releaseId, release.plans.map((p) => p.host));
  opts.onStep?.('staged');
  return publishedResult(done, { seconds, searchSeconds, stageSeconds: secondsSince(stageStart) });
}
