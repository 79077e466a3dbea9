import { readFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getLogger } from '../lib/log/index.ts';

const log = getLogger('static');

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

/**
 * The prerendered output: for each host the route rules of its latest build. Reloaded when a
 * revalidation publishes a new build.
 */
export class StaticSite {
  private hosts = new Map<string, { latest: LatestBuild; meta: BuildMeta; checkedAt: number }>();
  /** How long a loaded build is trusted before latest.json is read again (another process may publish). */
  private recheckMs = 1000;
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  /** Reads `builds/latest.json` and its meta for a host (again when the id changed). */
  load(hostHeader: string): { latest: LatestBuild; meta: BuildMeta } | null {
    const host = normalizeHost(hostHeader);
    const known = this.hosts.get(host);
    if (known && performance.now() - known.checkedAt < this.recheckMs) return known;
    const dir = hostDir(this.root, host);
    if (!dir) return null;
    const latestFile = join(dir, 'builds/latest.json');
    if (!existsSync(latestFile)) {
      this.hosts.delete(host);
      return null;
    }
    try {
      const latest = JSON.parse(readFileSync(latestFile, 'utf8')) as LatestBuild;
      if (known?.latest.id === latest.id) {
        known.checkedAt = performance.now();
        return known;
      }
      const meta = JSON.parse(readFileSync(join(dir, 'builds/meta', `${latest.id}.json`), 'utf8')) as BuildMeta;
      const entry = { latest, meta, checkedAt: performance.now() };
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

  async html(host: string, pathname: string): Promise<string | null> {
    const dir = hostDir(this.root, host);
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
