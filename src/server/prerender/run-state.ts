import { join } from 'node:path';
import { renderEnv } from '../boot/env.ts';
import type { BuildMeta, LatestBuild, RouteRule } from '../delivery/static-site.ts';
import { readHostBuild, readReleaseHosts, routeFilesIntact } from '../release/release-check.ts';
import { readPointer, releaseDir, type ReleaseHosts } from '../release/release.ts';
import { routeDir } from './output.ts';
import type { HostPlan } from './plan.ts';
import type { PlannedRoute } from './collect.ts';
import { appHash } from './targets.ts';
import type { BuiltEntry, PrerenderOptions } from './run.ts';

/** The live release a run starts from, read lazily (each host's manifests once). */
export interface LiveRelease {
  id: string | null;
  root: string | null;
  hosts: ReleaseHosts | null;
  /** A host's build in the live release; a manifest not as written (release-check.ts) reads as missing. */
  buildOf(host: string): { latest: LatestBuild | null; meta: BuildMeta | null };
  metaOf(host: string): BuildMeta | null;
  /** A route's files in the live release as its meta recorded them (sizes), else it is rendered again. */
  filesIntact(host: string, path: string): boolean;
}

export function readLiveRelease(staticRoot: string): LiveRelease {
  const id = readPointer(staticRoot);
  const root = id ? releaseDir(staticRoot, id) : null;
  const hosts = root ? readReleaseHosts(root) : null;
  const builds = new Map<string, ReturnType<typeof readHostBuild>>();
  const buildOf = (host: string) => {
    let build = builds.get(host);
    if (!build) {
      build = root && id ? readHostBuild(root, hosts, host, id) : { latest: null, meta: null };
      builds.set(host, build);
    }
    return build;
  };
  const metaOf = (host: string) => buildOf(host).meta;
  const filesIntact = (host: string, path: string) => !!root && routeFilesIntact(routeDir(join(root, host), path), metaOf(host)?.routes[path]?.sizes);
  return { id, root, hosts, buildOf, metaOf, filesIntact };
}

/** What every phase of a run reads: its options, the built app and the live release it starts from. */
export interface RunState {
  opts: PrerenderOptions;
  staticRoot: string;
  /** `performance.now()` when the run started (the result's seconds count from it). */
  started: number;
  entry: BuiltEntry;
  /** What every page is rendered with besides its records: the app build and the render configuration. */
  appInput: string;
  /** Hash of `appInput`, in the route index and the key of the last full run. */
  app: string;
  live: LiveRelease;
}

export function runState(opts: PrerenderOptions, staticRoot: string, entry: BuiltEntry, started: number): RunState {
  const appInput = `${entry.buildId}\n${renderEnv(opts.env)}`;
  return { opts, staticRoot, started, entry, appInput, app: appHash(appInput), live: readLiveRelease(staticRoot) };
}

export const secondsSince = (start: number): number => (performance.now() - start) / 1000;

/** A host's plan with the folders it is written to in the new release and read from in the live one. */
export type HostWork = HostPlan<PlannedRoute> & { hostDir: string; liveHostDir: string | null };

/** The new release the link phase made: where it is and what each host of it gets. */
export interface NewRelease {
  releaseId: string;
  releaseRoot: string;
  timestamp: string;
  plans: HostWork[];
}

/** Each host's route rules of the new release, filled by the render and artifacts phases. */
export type HostRules = Map<string, Record<string, RouteRule>>;
