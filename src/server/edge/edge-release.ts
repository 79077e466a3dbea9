// Reads what the edge configuration needs from a release: its hosts and each host's route rules.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOSTS_FILE, readPointer, releaseDir, type ReleaseHosts } from '../release/release.ts';
import type { BuildMeta, LatestBuild } from '../delivery/static-site.ts';
import type { EdgeRelease, HostRoutes } from './nginx-config.ts';

/** The rules of release `id` (default: the live one), or null when there is none or it cannot be read. */
export function readEdgeRelease(staticRoot: string, id: string | null = readPointer(staticRoot)): EdgeRelease | null {
  if (!id) return null;
  const dir = releaseDir(staticRoot, id);
  try {
    const hosts = JSON.parse(readFileSync(join(dir, HOSTS_FILE), 'utf8')) as ReleaseHosts;
    const routes: Record<string, HostRoutes> = {};
    for (const host of Object.keys(hosts.hosts)) {
      const latest = JSON.parse(readFileSync(join(dir, host, 'builds/latest.json'), 'utf8')) as LatestBuild;
      const meta = JSON.parse(readFileSync(join(dir, host, 'builds/meta', `${latest.id}.json`), 'utf8')) as BuildMeta;
      routes[host] = Object.fromEntries(Object.entries(meta.routes).map(([path, r]) => [path, { fingerprint: r.fingerprint, csp: r.csp }]));
    }
    return { id, dir, main: hosts.main, hosts: routes };
  } catch {
    // An unfinished or damaged release: Node repairs the pointer (release.ts repairLive); the edge keeps what it serves.
    return null;
  }
}

/**
 * The file in which the edge says which release it serves (written once nginx runs that release's
 * configuration). The instances behind it read it (EDGE_SERVING_FILE) so that a revalidation
 * answers once its release is what visitors get through the edge, not only from Node.
 */
export const SERVING_FILE = 'serving';

/** Records that the edge serves release `id` (atomically: an instance may read it at any moment). */
export function writeServing(file: string, id: string | null): void {
  writeFileSync(`${file}.tmp`, id ?? '');
  renameSync(`${file}.tmp`, file);
}

function readServing(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/**
 * Resolves true once the edge serves release `id` (or a later one: release ids sort by time),
 * false after `timeoutMs` (the edge is slow to switch or gone: the caller answers anyway and says so).
 */
export async function untilEdgeServes(file: string, id: string, opts: { timeoutMs?: number; pollMs?: number } = {}): Promise<boolean> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    const serving = readServing(file);
    if (serving !== null && serving >= id) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 25));
  }
}
