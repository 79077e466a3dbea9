import { createHash } from 'node:crypto';

/** A short, stable hash of any JSON-serialisable value. */
export function hashOf(value: unknown): string {
  return createHash('sha256').update(typeof value === 'string' ? value : JSON.stringify(value)).digest('base64url').slice(0, 22);
}

/**
 * A route's fingerprint: the app build id plus the hashes of every record the route was rendered
 * from. Equal fingerprints mean the saved HTML is still what a render would produce.
 */
export function routeFingerprint(appBuildId: string, route: string, recordHashes: string[]): string {
  return hashOf([appBuildId, route, ...recordHashes].join('\n'));
}

export interface RouteDiff {
  render: string[];
  unchanged: string[];
  removed: string[];
}

/** Compares the fingerprints of the new route set with the previous build's. */
export function diffRoutes(previous: Record<string, { fingerprint: string }>, next: Record<string, string>, force: Set<string> = new Set()): RouteDiff {
  const render: string[] = [];
  const unchanged: string[] = [];
  for (const [route, fp] of Object.entries(next)) {
    if (!force.has(route) && previous[route]?.fingerprint === fp) unchanged.push(route);
    else render.push(route);
  }
  const removed = Object.keys(previous).filter((r) => !(r in next));
  return { render, unchanged, removed };
}
