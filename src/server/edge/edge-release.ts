// Reads what the edge configuration needs from a release: its hosts and each host's route rules.
import { readFileSync } from 'node:fs';
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
