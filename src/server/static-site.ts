import { readFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLogger } from '../lib/log/index.ts';

const log = getLogger('static');
import { liveDir, readPointer, releaseDir } from './release.ts';

/** One prerendered route of a host, as recorded in `builds/meta/<id>.json`. */
export interface RouteRule {
  fingerprint: string;
  /** The CSP Astro computed for the page (sent as a header too). */
  csp: string | null;
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
}

/**
 * The prerendered output (`dist/static`, see `release.ts`): for each host the route rules of the
 * live release. The `live` pointer is read on every load (one readlink), so a published release
 * is seen at once; each host's rules and files are pinned to the release they were loaded from,
 * so a request never mixes two releases and a request in flight keeps reading its release.
 */
export class StaticSite {
  private hosts = new Map<string, LoadedBuild & { release: string }>();
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

export function normalizeHost(hostHeader: string): string {
  return hostHeader.toLowerCase().replace(/:\d+$/, '');
}
