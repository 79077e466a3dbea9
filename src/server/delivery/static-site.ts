import { readFile, stat } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { getLogger } from '../../lib/log/index.ts';
import { liveDir, readPointer, releaseDir } from '../release/release.ts';
import { SUFFIX, type Encoding } from './encoding.ts';

const log = getLogger('static');

/** A file of a release in memory, with the precompressed siblings it has. */
export interface StaticFile {
  /** The body per coding: `identity` always, `br`/`gzip` when the file has that sibling. */
  bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer };
  /** The codings available, best first (for negotiateEncoding). */
  encodings: Encoding[];
  /** A validator of the identity file (size and modification time), the same for every coding. */
  tag: string;
}

/** Files kept in memory (bytes of all codings), and the largest one kept. */
const FILE_CACHE_BYTES = 64 * 1048576;
const FILE_CACHE_MAX_ENTRY = 4 * 1048576;

/** Bytes of a route's `index.html`, `index.html.br` and `index.html.gz` as written (0: no such sibling). */
export type RouteSizes = [html: number, br: number, gz: number];

/** One prerendered route of a host, as recorded in `builds/meta/<id>.json`. */
export interface RouteRule {
  fingerprint: string;
  /** The CSP Astro computed for the page (sent as a header too). */
  csp: string | null;
  /** What the prerender wrote, to find a damaged file (release-check.ts); absent in older metas. */
  sizes?: RouteSizes;
}

export interface BuildMeta {
  id: string;
  timestamp: string;
  appBuildId: string;
  routes: Record<string, RouteRule>;
  redirects: { previousUrl: string; target: string }[];
}

export interface LatestBuild {
  id: string;
  timestamp: string;
}

/** Where the static tree of a host lives. Host names are lowercased, the port dropped. */
export function hostDir(root: string, hostHeader: string): string | null {
  const host = hostHeader.toLowerCase().replace(/:\d+$/, '');
  // Labels of letters, digits and dashes only: no '.', '..' or empty labels that would leave the root.
  if (!/^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/.test(host)) return null;
  return join(root, host);
}

/** A host's loaded build: its latest.json and meta, and the folder of the release they came from. */
export interface LoadedBuild {
  latest: LatestBuild;
  meta: BuildMeta;
  /** The host's tree in that release (`<static>/releases/<id>/<host>`): read its files from here. */
  dir: string;
  /** The id of that release. */
  release: string;
}

/**
 * The prerendered output (`dist/static`, see `release.ts`): for each host the route rules of the
 * live release. The `live` pointer is read on every load (one readlink), so a published release
 * is seen at once; each host's rules and files are pinned to the release they were loaded from,
 * so a request never mixes two releases and a request in flight keeps reading its release.
 */
export class StaticSite {
  private hosts = new Map<string, LoadedBuild>();
  /**
   * Files read from release trees, by release folder and path (`missing`: no such file). A release folder is
   * never changed once live (a new release is a new folder), so an entry never goes stale; it is
   * dropped when the cache is full (least recently used first).
   */
  private files = new LRUCache<string, StaticFile | { missing: true }>({
    // Also bounded in count: misses (any path a client asks for) are remembered too.
    max: 50_000,
    maxSize: FILE_CACHE_BYTES,
    maxEntrySize: FILE_CACHE_MAX_ENTRY,
    sizeCalculation: (f) => ('missing' in f ? 64 : Object.values(f.bodies).reduce((n, b) => n + b.byteLength, 64)),
  });
  /** The output folder holding `releases/` and the `live` pointer. */
  readonly staticRoot: string;
  /** The live tree through its pointer: `<root>/<host>/…` is always the current release. */
  readonly root: string;

  constructor(staticRoot: string) {
    this.staticRoot = staticRoot;
    this.root = liveDir(staticRoot);
  }

  /** Reads `builds/latest.json` and its meta for a host from the live release (again after a swap). */
  load(hostHeader: string): LoadedBuild | null {
    const host = normalizeHost(hostHeader);
    const release = readPointer(this.staticRoot);
    if (!release) {
      this.hosts.clear();
      return null;
    }
    const known = this.hosts.get(host);
    if (known?.release === release) return known;
    const dir = hostDir(releaseDir(this.staticRoot, release), host);
    if (!dir) return null;
    const latestFile = join(dir, 'builds/latest.json');
    if (!existsSync(latestFile)) {
      this.hosts.delete(host);
      return null;
    }
    try {
      const latest = JSON.parse(readFileSync(latestFile, 'utf8')) as LatestBuild;
      const meta = JSON.parse(readFileSync(join(dir, 'builds/meta', `${latest.id}.json`), 'utf8')) as BuildMeta;
      const entry = { latest, meta, dir, release };
      this.hosts.set(host, entry);
      return entry;
    } catch (err) {
      log.error(`could not read the build of ${host}: ${(err as Error).message}`);
      return null;
    }
  }

  /** How many hosts have a loaded build. */
  get loadedHosts(): number {
    return this.hosts.size;
  }

  /** Forgets what was loaded, so the next request reads the newest build. */
  invalidate(): void {
    this.hosts.clear();
  }

  route(host: string, pathname: string): RouteRule | null {
    return this.hosts.get(normalizeHost(host))?.meta.routes[pathname] ?? null;
  }

  latest(host: string): LatestBuild | null {
    return this.hosts.get(normalizeHost(host))?.latest ?? null;
  }

  /** How many files (and known misses) are held in memory. */
  get cachedFiles(): number {
    return this.files.size;
  }

  /**
   * A file of the host's tree (`builds/latest.json`, `en/index.html`), with its `.br` and `.gz`
   * siblings, from the release the host's rules were loaded from (see load); null when missing.
   */
  async file(host: string, relPath: string): Promise<StaticFile | null> {
    const dir = this.hosts.get(normalizeHost(host))?.dir;
    if (!dir) return null;
    // Keyed by the release folder and the path as asked (no path work on a hit).
    const key = `${dir}\0${relPath}`;
    const known = this.files.get(key);
    if (known) return 'missing' in known ? null : known;
    const clean = relPath.split('/').filter((s) => s && s !== '.' && s !== '..').join('/');
    const file = await readStaticFile(join(dir, clean));
    this.files.set(key, file ?? { missing: true });
    return file;
  }

  /** The saved HTML of a route, from the release the host's rules were loaded from. */
  async html(host: string, pathname: string): Promise<string | null> {
    const dir = this.hosts.get(normalizeHost(host))?.dir ?? hostDir(this.root, host);
    if (!dir) return null;
    try {
      return await readFile(join(dir, pathname === '/' ? '' : pathname, 'index.html'), 'utf8');
    } catch {
      return null;
    }
  }
}

/** Reads a file and its precompressed siblings (`<file>.br`, `<file>.gz`) when they exist. */
async function readStaticFile(abs: string): Promise<StaticFile | null> {
  let identity: Buffer;
  let tag: string;
  try {
    const [st, body] = await Promise.all([stat(abs), readFile(abs)]);
    if (!st.isFile()) return null;
    identity = body;
    tag = `${st.size.toString(36)}-${Math.floor(st.mtimeMs).toString(36)}`;
  } catch {
    return null;
  }
  const bodies: StaticFile['bodies'] = { identity };
  const encodings: Encoding[] = [];
  for (const enc of ['br', 'gzip'] as const) {
    try {
      bodies[enc] = await readFile(`${abs}${SUFFIX[enc]}`);
      encodings.push(enc);
    } catch {
      // No sibling (a small file, or one written before compression): identity only.
    }
  }
  encodings.push('identity');
  return { bodies, encodings, tag };
}

export function normalizeHost(hostHeader: string): string {
  return hostHeader.toLowerCase().replace(/:\d+$/, '');
}
