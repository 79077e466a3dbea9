/**
 * Finds files of a release that are not what its prerender wrote: a page cut short by a full disk,
 * a copy or restore that stopped midway, a manual edit. The prerender records the bytes it wrote
 * (each route's `index.html` and its `.br`/`.gz` siblings in the host's meta, each host's
 * `builds/latest.json` and meta in `hosts.json`); a file of another size is damaged. Sizes, not
 * hashes: one stat per file (about 30,000 for 10,000 routes, well under a second), where hashing
 * would read the whole release (~1 GB). A truncated file always has another size.
 *
 * The server logs the damage of the live release at start; the next prerender renders a damaged
 * route again and writes new manifests (see prerender/run.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { getLogger } from '../../lib/log/index.ts';
import { HOSTS_FILE, readPointer, releaseDir, type ReleaseHosts } from './release.ts';
import type { BuildMeta, LatestBuild, RouteSizes } from '../delivery/static-site.ts';
import { routeDir } from '../prerender/output.ts';

const log = getLogger('static');

/** The files of a route whose sizes a meta records, in the order of `RouteSizes`. */
export const ROUTE_FILES = ['index.html', 'index.html.br', 'index.html.gz'] as const;

/** At most this many damaged files are named in the start-up error (the count is always given). */
const NAMED_IN_LOG = 20;

/** The size of a file, or null when there is none (or it cannot be read). */
export function sizeOf(file: string): number | null {
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    return st?.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

/**
 * Whether a route's files in folder `dir` are as the meta recorded them: its `index.html` exists,
 * and when sizes are recorded it and its siblings have them (a sibling recorded as 0 was not
 * written). Without recorded sizes (an older meta) only the HTML's existence is checked.
 */
export function routeFilesIntact(dir: string, sizes: RouteSizes | undefined): boolean {
  const html = sizeOf(join(dir, ROUTE_FILES[0]));
  if (html === null) return false;
  if (!sizes) return true;
  if (html !== sizes[0]) return false;
  for (let i = 1; i < ROUTE_FILES.length; i++) {
    if (sizes[i] && sizeOf(join(dir, ROUTE_FILES[i]!)) !== sizes[i]) return false;
  }
  return true;
}

/** Whether a host's build manifest `rel` (`<host>/builds/…`) in release folder `dir` has the size hosts.json recorded. */
export function manifestIntact(dir: string, hosts: ReleaseHosts | null, rel: string): boolean {
  const recorded = hosts?.sizes?.[rel];
  return recorded === undefined || sizeOf(join(dir, rel)) === recorded;
}

/** A host's latest.json and meta in release folder `dir`, or null for each that is missing, unreadable or damaged. */
export function readHostBuild(dir: string, hosts: ReleaseHosts | null, host: string, releaseId: string): { latest: LatestBuild | null; meta: BuildMeta | null } {
  const read = <T>(rel: string): T | null => {
    if (!manifestIntact(dir, hosts, rel)) return null;
    try {
      return JSON.parse(readFileSync(join(dir, rel), 'utf8')) as T;
    } catch {
      return null;
    }
  };
  const latest = read<LatestBuild>(`${host}/builds/latest.json`);
  // A damaged latest.json loses no rule: the prerender names the meta after its release.
  const meta = read<BuildMeta>(`${host}/builds/meta/${latest?.id ?? releaseId}.json`);
  return { latest, meta };
}

/** The hosts.json of release folder `dir`, or null. */
export function readReleaseHosts(dir: string): ReleaseHosts | null {
  try {
    return JSON.parse(readFileSync(join(dir, HOSTS_FILE), 'utf8')) as ReleaseHosts;
  } catch {
    return null;
  }
}

/**
 * The damaged files of release `id` (paths inside the release folder, with what was found): the
 * build manifests and every route file whose recorded size differs. Empty when all is well.
 */
export function damagedFiles(staticRoot: string, id: string): string[] {
  const dir = releaseDir(staticRoot, id);
  const hosts = readReleaseHosts(dir);
  if (!hosts) return [`${HOSTS_FILE}: missing or unreadable`];
  const found: string[] = [];
  const describe = (rel: string, expected: number | null) => {
    const actual = sizeOf(join(dir, rel));
    return `${rel}: ${actual === null ? 'missing' : `${actual} bytes`}${expected === null ? '' : `, ${expected} written`}`;
  };
  for (const [rel, size] of Object.entries(hosts.sizes ?? {})) {
    if (sizeOf(join(dir, rel)) !== size) found.push(describe(rel, size));
  }
  for (const host of Object.keys(hosts.hosts ?? {})) {
    const { latest, meta } = readHostBuild(dir, hosts, host, id);
    if (!latest && !found.some((f) => f.startsWith(`${host}/builds/latest.json:`))) found.push(`${host}/builds/latest.json: unreadable`);
    if (!meta) {
      const rel = `${host}/builds/meta/${latest?.id ?? id}.json`;
      if (!found.some((f) => f.startsWith(`${rel}:`))) found.push(`${rel}: unreadable`);
      continue;
    }
    for (const [path, rule] of Object.entries(meta.routes)) {
      const routeFolder = routeDir(join(dir, host), path);
      if (routeFilesIntact(routeFolder, rule.sizes)) continue;
      ROUTE_FILES.forEach((name, i) => {
        const expected = rule.sizes?.[i] ?? null;
        const actual = sizeOf(join(routeFolder, name));
        // The HTML must exist; a sibling only when one was written (recorded non-zero).
        const bad = i === 0 ? actual === null || (expected !== null && actual !== expected) : !!expected && actual !== expected;
        if (bad) found.push(describe(join(host, path, name), expected));
      });
    }
  }
  return found;
}

/**
 * At server start: logs an error naming the damaged files of the live release (see the module
 * comment), which the next prerender renders again. Returns them. Never throws.
 */
export function reportLiveDamage(staticRoot: string): string[] {
  const live = readPointer(staticRoot);
  if (!live) return [];
  let found: string[];
  try {
    found = damagedFiles(staticRoot, live);
  } catch (err) {
    log.warn(`could not check the live release ${live}: ${(err as Error).message}`);
    return [];
  }
  if (found.length) {
    const more = found.length > NAMED_IN_LOG ? ` and ${found.length - NAMED_IN_LOG} more` : '';
    log.error({ release: live, damaged: found.length }, `the live release ${live} has ${found.length} damaged file(s), not as its prerender wrote them: `
      + `${found.slice(0, NAMED_IN_LOG).join('; ')}${more}. They are served as they are until the next prerender renders them again.`);
  }
  return found;
}
