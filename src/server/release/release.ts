/**
 * The release layout of the prerendered output (`dist/static/`):
 *
 *   releases/<id>/hosts.json           the hosts of the release, their origins, the main site's host
 *   releases/<id>/<host>/…             one tree per host: pages, payloads, builds/, sitemap, robots
 *   live     → releases/<id>           symlink: the release being served
 *   previous → releases/<id>           symlink: the one before (kept for requests still reading it)
 *   .lock                              held by the one process writing a release
 *   releases/<id>/.staged              marks a STAGED release: a complete hard-link copy of the
 *                                      release it names, made after a publish for the next run
 *
 * A prerender writes a NEW release folder (a hard-link copy of the live one plus what changed)
 * and publishes it with one atomic rename of the `live` symlink once every file is written. A
 * crash at any point leaves the live release complete; what it left behind is removed by the
 * next prerender or server start.
 *
 * A release is COMPLETE once its `hosts.json` is written (the last file before the publish) and
 * names hosts whose build manifests are there. A `live` pointer that names anything else (a
 * mistyped manual rollback, a folder removed by hand) is repaired before every clean-up: it is
 * pointed at the newest complete release, with an error in the log. A complete release is only
 * ever removed by the clean-up after a publish (see cleanStatic).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { replaceAtomic } from '../../lib/fs/atomic.ts';
import { getLogger } from '../../lib/log/index.ts';
import { pool } from '../../lib/async/pool.ts';

const log = getLogger('static');

export const RELEASES = 'releases';
export const LIVE = 'live';
export const PREVIOUS = 'previous';
export const LOCK_FILE = '.lock';
export const HOSTS_FILE = 'hosts.json';
export const STAGED_FILE = '.staged';
/** What a release's link copy leaves out: the build manifests (written anew) and temporary files. */
export const skipInCopy = (rel: string): boolean => rel === 'builds' || rel.startsWith('builds/') || rel.endsWith('.tmp') || rel === STAGED_FILE;

/** `releases/<id>/hosts.json`: what the server maps Host headers to. */
export interface ReleaseHosts {
  /** The host of the main site (null when no main site is prerendered). */
  main: string | null;
  /** Host → origin (`localhost` → `http://localhost:4321`). */
  hosts: Record<string, string>;
  /**
   * Bytes of each host's build manifests as written (`<host>/builds/latest.json`,
   * `<host>/builds/meta/<id>.json`): a truncated one is found at start (release-check.ts).
   * Absent in releases written before sizes were recorded.
   */
  sizes?: Record<string, number>;
}

const RELEASE_ID = /^[0-9a-z]{8,32}$/;

/** A new release id: the base-36 time (fixed width until 2059, so ids sort by creation) and 6 random hex digits. */
export function newReleaseId(now: number = Date.now()): string {
  return `${now.toString(36).padStart(8, '0')}${randomBytes(3).toString('hex')}`;
}

export function releaseDir(staticRoot: string, id: string): string {
  if (!RELEASE_ID.test(id)) throw new Error(`Not a release id: ${JSON.stringify(id)}`);
  return join(staticRoot, RELEASES, id);
}

/** The live tree through its pointer: `<liveDir>/<host>/…` is always the current release. */
export function liveDir(staticRoot: string): string {
  return join(staticRoot, LIVE);
}

/**
 * The release a pointer (`live` or `previous`) names, or null when there is none. Synchronous and
 * cheap (one readlink): the server calls it per request, so a swap is seen at once.
 */
export function readPointer(staticRoot: string, name: typeof LIVE | typeof PREVIOUS = LIVE): string | null {
  let target: string;
  try {
    target = readlinkSync(join(staticRoot, name));
  } catch {
    return null;
  }
  return releaseIdOfTarget(target);
}

/** The release a pointer's target (`releases/<id>`) names, or null for anything else. */
export function releaseIdOfTarget(target: string): string | null {
  const id = target.startsWith(`${RELEASES}/`) ? target.slice(RELEASES.length + 1) : '';
  return RELEASE_ID.test(id) ? id : null;
}

/** The release ids under `releases/`, newest first (ids sort by creation). */
export function releaseIds(staticRoot: string): string[] {
  try {
    return readdirSync(join(staticRoot, RELEASES)).filter((id) => RELEASE_ID.test(id)).sort().reverse();
  } catch {
    return [];
  }
}

/**
 * Why release `id` cannot be served, or null when it is complete: the folder exists, its
 * `hosts.json` (written last, once every other file of the release is) reads, and every host it
 * lists has its `builds/latest.json` and the meta that names. A few small reads: called at start
 * and before every clean-up. (A manifest that is there but truncated is damage, not an unfinished
 * release: see release-check.ts.)
 */
export function releaseProblem(staticRoot: string, id: string): string | null {
  const dir = releaseDir(staticRoot, id);
  if (!existsSync(dir)) return `releases/${id} does not exist`;
  let hosts: ReleaseHosts;
  try {
    hosts = JSON.parse(readFileSync(join(dir, HOSTS_FILE), 'utf8')) as ReleaseHosts;
  } catch {
    return `releases/${id} has no readable ${HOSTS_FILE} (not a finished release)`;
  }
  if (!hosts || typeof hosts.hosts !== 'object' || hosts.hosts === null) return `releases/${id}/${HOSTS_FILE} lists no hosts`;
  for (const host of Object.keys(hosts.hosts)) {
    const latestFile = join(dir, host, 'builds/latest.json');
    if (!existsSync(latestFile)) return `releases/${id}/${host}/builds/latest.json is missing`;
    let latestId: unknown;
    try {
      latestId = (JSON.parse(readFileSync(latestFile, 'utf8')) as { id?: unknown }).id;
    } catch {
      // Truncated: damage, reported and repaired by the next run (release-check.ts).
      continue;
    }
    if (typeof latestId === 'string' && !existsSync(join(dir, host, 'builds/meta', `${latestId}.json`))) {
      return `releases/${id}/${host}/builds/meta/${latestId}.json is missing`;
    }
  }
  return null;
}

/** The newest complete release (see releaseProblem), or null when there is none. */
export function newestCompleteRelease(staticRoot: string): string | null {
  return releaseIds(staticRoot).find((id) => stagedBase(staticRoot, id) === null && releaseProblem(staticRoot, id) === null) ?? null;
}

/**
 * Makes sure `live` names a complete release (call it holding the lock): when it names a missing
 * or unfinished one, or there is none while a complete release exists, it is pointed at the
 * newest complete release and an error names the problem. Nothing is removed. Returns the live
 * release afterwards (null when there is none).
 */
export async function repairLive(staticRoot: string): Promise<string | null> {
  const live = readPointer(staticRoot, LIVE);
  let problem: string | null;
  if (live) {
    problem = releaseProblem(staticRoot, live);
  } else {
    let target: string | null = null;
    try {
      target = lstatSync(join(staticRoot, LIVE)).isSymbolicLink() ? readlinkSync(join(staticRoot, LIVE)) : '(not a symlink)';
    } catch {
      // No pointer at all: a first run, or one killed before its first publish.
    }
    problem = target === null ? 'there is no live pointer' : `it points at ${JSON.stringify(target)}, not at a release`;
  }
  if (!problem) return live;
  const fallback = newestCompleteRelease(staticRoot);
  if (!fallback) {
    // A first run killed before its first publish leaves no pointer and nothing complete: nothing to say.
    if (live) log.error(`the live release ${live} cannot be served (${problem}) and there is no complete release to fall back to: pages are rendered on demand until a prerender publishes one`);
    return live;
  }
  await setPointer(staticRoot, LIVE, fallback);
  log.error(`the live pointer was broken (${live ? `release ${live}: ${problem}` : problem}): it now points at the newest complete release, ${fallback}. Nothing was removed; to roll back, point live at a complete release (see docs/operations.md).`);
  return fallback;
}

/** Points `live` or `previous` at a release in one atomic step: a new symlink beside it, renamed over it. */
export async function setPointer(staticRoot: string, name: typeof LIVE | typeof PREVIOUS, id: string): Promise<void> {
  releaseDir(staticRoot, id);
  await replaceAtomic(join(staticRoot, name), (tmp) => symlink(`${RELEASES}/${id}`, tmp));
}

/**
 * Makes `id` the live release: `previous` is pointed at the release live until now, then `live`
 * at the new one (each one rename). Readers see either the old or the new release, never a mix.
 */
export async function publishRelease(staticRoot: string, id: string): Promise<void> {
  const current = readPointer(staticRoot, LIVE);
  if (current && current !== id) await setPointer(staticRoot, PREVIOUS, current);
  await setPointer(staticRoot, LIVE, id);
}

/**
 * Copies a tree as hard links (like `rsync --link-dest`): folders are created, every file is
 * linked, nothing is read. Files of the copy must never be changed in place, only replaced
 * (temporary file + rename, see `lib/fs/atomic.ts`), or the original would change too.
 */
export async function linkTree(from: string, to: string, opts: { skip?: (relPath: string) => boolean; concurrency?: number } = {}): Promise<{ files: number; dirs: number }> {
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const dirs: string[] = [];
  const files: string[] = [];
  for (const e of entries) {
    const rel = relative(from, join(e.parentPath, e.name));
    if (opts.skip?.(rel)) continue;
    if (e.isDirectory()) dirs.push(rel);
    else if (e.isFile()) files.push(rel);
  }
  await mkdir(to, { recursive: true });
  // Parents before children: one mkdir per folder, in depth order.
  dirs.sort((a, b) => a.split('/').length - b.split('/').length);
  await pool(dirs, opts.concurrency ?? 16, (rel) => mkdir(join(to, rel), { recursive: true }).then(() => undefined));
  await pool(files, opts.concurrency ?? 16, (rel) => link(join(from, rel), join(to, rel)));
  return { files: files.length, dirs: dirs.length };
}


/** The release a staged copy was made of, or null when `id` is no finished staged copy. */
export function stagedBase(staticRoot: string, id: string): string | null {
  try {
    const base = readFileSync(join(releaseDir(staticRoot, id), STAGED_FILE), 'utf8').trim();
    return RELEASE_ID.test(base) ? base : null;
  } catch {
    return null;
  }
}

/**
 * Prepares the next run's release ahead of time (call it holding the lock, after a publish): a
 * hard-link copy of every host tree of release `base` in a new release folder, marked as staged
 * (`.staged` names the base) only once every link is made. A run killed midway leaves an
 * unmarked folder, which `cleanStatic` removes like any unfinished release.
 */
export async function stageRelease(staticRoot: string, base: string, hosts: string[]): Promise<string> {
  const id = newReleaseId();
  const dir = releaseDir(staticRoot, id);
  const from = releaseDir(staticRoot, base);
  await mkdir(dir, { recursive: true });
  await Promise.all(hosts.map((h) => (existsSync(join(from, h)) ? linkTree(join(from, h), join(dir, h), { skip: skipInCopy }) : undefined)));
  await writeFile(join(dir, STAGED_FILE), base);
  return id;
}

/**
 * Takes the staged copy of release `base` for a new run, under a new id (ids sort by age): the
 * run then starts with every file of `base` linked, and the link copy is off its critical path.
 * Null when there is none (the run copies itself). Host trees not in `hosts` are dropped.
 */
export async function takeStaged(staticRoot: string, base: string, hosts: string[]): Promise<string | null> {
  let ids: string[];
  try {
    ids = await readdir(join(staticRoot, RELEASES));
  } catch {
    return null;
  }
  const staged = ids.find((id) => RELEASE_ID.test(id) && stagedBase(staticRoot, id) === base);
  if (!staged) return null;
  const id = newReleaseId();
  const dir = releaseDir(staticRoot, id);
  await rename(releaseDir(staticRoot, staged), dir);
  // From here on an ordinary unfinished release: a crash leaves it to cleanStatic.
  await unlink(join(dir, STAGED_FILE));
  const keep = new Set(hosts);
  for (const name of await readdir(dir)) if (!keep.has(name)) await rm(join(dir, name), { recursive: true, force: true });
  return id;
}

interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A holder is gone when it ran on this machine and its process no longer runs. This process is
 * never a live holder: it runs its prerenders one after another (revalidate.ts queues them), so a
 * lock with its own pid was left by a run that died (a terminated worker thread).
 */
function holderGone(h: LockHolder): boolean {
  return h.host === hostname() && (h.pid === process.pid || !isRunning(h.pid));
}

export interface StaticLock {
  release(): Promise<void>;
}

export class LockedError extends Error {}

/**
 * Takes the lock of the static output, so one process at a time writes releases and cleans up.
 * A lock left by a process that died is taken over. Throws a LockedError when another running
 * process holds it.
 */
export async function acquireLock(staticRoot: string): Promise<StaticLock> {
  await mkdir(staticRoot, { recursive: true });
  const file = join(staticRoot, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fh = await open(file, 'wx');
      try {
        await fh.writeFile(JSON.stringify(me));
      } finally {
        await fh.close();
      }
      return { release: () => unlink(file).catch(() => undefined) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: LockHolder | null = null;
    try {
      holder = JSON.parse(await readFile(file, 'utf8')) as LockHolder;
    } catch {
      // Empty or unreadable: being written right now, or left by a process killed while taking it.
    }
    if (holder && !holderGone(holder)) {
      throw new LockedError(`Another prerender is writing ${staticRoot} (pid ${holder.pid} on ${holder.host} since ${holder.since}); if none runs, delete ${file}`);
    }
    if (!holder && attempt === 0) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    await unlink(file).catch(() => undefined);
  }
  throw new LockedError(`${file} is held; if no prerender runs, delete it`);
}

/**
 * Removes what an interrupted prerender left (call it holding the lock): unfinished release
 * folders (see releaseProblem) that are neither live nor previous, pointer symlinks being swapped,
 * folders of the old one-tree-per-host layout, and temporary files of the search index. Returns
 * the names removed. A broken `live` pointer is repaired first (repairLive).
 *
 * A complete release is kept (after a rollback or a repair it may be the one someone wants back),
 * unless `superseded`: the clean-up right after a publish also removes the complete releases
 * other than live and previous, so the output holds two releases (and the staged copy) again.
 */
export async function cleanStatic(staticRoot: string, opts: { searchDir?: string; superseded?: boolean } = {}): Promise<string[]> {
  const removed: string[] = [];
  let top: string[] = [];
  try {
    top = await readdir(staticRoot);
  } catch {
    // No output yet.
  }
  for (const name of top) {
    if (name === LIVE || name === PREVIOUS || name === RELEASES || name === LOCK_FILE) continue;
    await rm(join(staticRoot, name), { recursive: true, force: true });
    removed.push(name);
  }
  const live = top.length ? await repairLive(staticRoot) : null;
  const keep = new Set([live, readPointer(staticRoot, PREVIOUS)].filter((id): id is string => !!id));
  let releases: string[] = [];
  try {
    releases = await readdir(join(staticRoot, RELEASES));
  } catch {
    // No release yet.
  }
  for (const id of releases) {
    if (keep.has(id)) continue;
    // A finished staged copy of the live release is the next run's head start: kept.
    if (live && stagedBase(staticRoot, id) === live) continue;
    if (!opts.superseded && RELEASE_ID.test(id) && releaseProblem(staticRoot, id) === null) continue;
    await rm(join(staticRoot, RELEASES, id), { recursive: true, force: true });
    removed.push(`${RELEASES}/${id}`);
  }
  if (opts.searchDir) {
    let entries: import('node:fs').Dirent[] = [];
    try {
      entries = await readdir(opts.searchDir, { recursive: true, withFileTypes: true });
    } catch {
      // No search index yet.
    }
    for (const e of entries) {
      if (!e.isFile() || !e.name.endsWith('.tmp')) continue;
      const file = join(e.parentPath, e.name);
      await rm(file, { force: true });
      removed.push(file);
    }
  }
  return removed;
}

/**
 * At server start: removes an interrupted prerender's leftovers unless a prerender is running
 * right now (it cleans up itself). Never throws.
 */
export async function tidyStatic(staticRoot: string, opts: { searchDir?: string } = {}): Promise<string[]> {
  let lock: StaticLock;
  try {
    lock = await acquireLock(staticRoot);
  } catch (err) {
    if (!(err instanceof LockedError)) log.warn(`could not check ${staticRoot} for leftovers: ${(err as Error).message}`);
    return [];
  }
  try {
    const removed = await cleanStatic(staticRoot, opts);
    if (removed.length) log.info(`removed what an interrupted prerender left: ${removed.join(', ')}`);
    return removed;
  } catch (err) {
    log.warn(`could not remove leftovers in ${staticRoot}: ${(err as Error).message}`);
    return [];
  } finally {
    await lock.release();
  }
}
