import { searchConfig as searchConfigOf, upstreamTimeouts, type ServerEnv } from '../boot/env.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Collected, CollectTargets, HostMode } from './collect.ts';
import { readRouteIndex, type ChangedRecord, type RouteIndex } from './targets.ts';
import { answersUnchanged, type CallRecording } from '../../lib/http/recording.ts';
import { askAgain } from '../../lib/http/timeouts.ts';
import type { SearchConfig } from '../../lib/search/index.ts';
import { acquireLock, cleanStatic, releaseDir } from '../release/release.ts';
import { runState, secondsSince, type RunState } from './run-state.ts';
import { collectPhase, linkPhase, publishPhase, renderPhase, targetPhase } from './phases.ts';
import { artifactsPhase } from './artifacts.ts';

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

/**
 * A full run while the release the last full collect left live is still live: asks that collect's
 * calls again, and with the same answers publishes nothing (see `lastFullRun`).
 */
async function replayLastFullRun(state: RunState, liveId: string): Promise<PrerenderResult | null> {
  const last = lastFullRun;
  if (last?.key !== fullRunKey(state.staticRoot, liveId, state.app)) return null;
  lastFullRun = null;
  if (!(await answersUnchanged(last.recording, (call) => askAgain(call, upstreamTimeouts(state.opts.env))))) return null;
  lastFullRun = last;
  const seconds = secondsSince(state.started);
  return nothingPublished({ unchanged: last.total, total: last.total, seconds, collectSeconds: seconds, scope: 'full', replayed: true });
}

async function prerenderLocked(opts: PrerenderOptions, deps: PrerenderDeps, staticRoot: string, searchConfig: SearchConfig, searchDir: string | undefined): Promise<PrerenderResult> {
  const started = performance.now();
  const state = runState(opts, staticRoot, await (deps.loadEntry ?? loadEntry)(opts.distDir), started);
  const { live, app } = state;

  const targeted = targetPhase(state, routeIndexOf);
  if (targeted.targeting?.targeted && targeted.targeting.ids.length === 0) {
    // Only records of other stages (drafts): nothing served changes.
    const seconds = secondsSince(started);
    return nothingPublished({ unchanged: 0, total: 0, seconds, collectSeconds: seconds, scope: 'targeted', scopeReason: 'no published record named' });
  }
  if (targeted.fullRun && live.id) {
    const replayed = await replayLastFullRun(state, live.id);
    if (replayed) return replayed;
  }

  const run = await collectPhase(state, targeted, deps);
  const { collected, recording, scope, scopeReason, collectSeconds } = run;
  const remember = (releaseId: string) => {
    if (recording) lastFullRun = { key: fullRunKey(staticRoot, releaseId, app), recording, total: collected.routes.length };
  };

  const linked = await linkPhase(state, collected);
  if (!linked.changed) {
    if (live.id) remember(live.id);
    return nothingPublished({ unchanged: linked.unchanged, total: collected.routes.length, seconds: secondsSince(started), collectSeconds, scope, ...(scopeReason ? { scopeReason } : {}) });
  }
  opts.onStep?.('linked');

  const rendered = await renderPhase(state, collected, linked);
  opts.onStep?.('rendered');

  const { releaseId } = linked;
  const artifacts = await artifactsPhase(state, run, linked, rendered.rules, {
    searchConfig,
    rememberRouteIndex: (index) => rememberRouteIndex(staticRoot, releaseId, index),
  });

  return publishPhase(state, { run, release: linked, rendered, artifacts }, { searchDir, remember });
}
