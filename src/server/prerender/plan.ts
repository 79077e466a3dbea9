import type { BuildMeta } from '../delivery/static-site.ts';
import { diffRoutes, routeFingerprint, type RouteDiff } from './fingerprint.ts';

/** What planning needs of a route (a `PlannedRoute` of `collect.ts` has more). */
export interface PlanRoute {
  host: string;
  origin: string;
  path: string;
  recordHashes: string[];
  keys: string[];
  /** Kept by a targeted run without being built: the live release's rule and files stay. */
  kept?: boolean;
}

export interface PlanInput<R extends PlanRoute> {
  /** What every page is rendered with besides its records: the app build id and the render configuration. */
  appInput: string;
  /** The hosts prerendered now, and the routes of all of them. */
  hosts: string[];
  routes: R[];
  /** A host's meta in the live release, or null when the live release has none for it. */
  previous(host: string): BuildMeta | null;
  /**
   * Whether the live release still holds the files of a route it lists as they were written (its
   * HTML there, of the recorded sizes: release-check.ts): a missing or truncated file is rendered again.
   */
  hasFile(host: string, path: string): boolean;
  /** Hosts of the live release (its hosts.json); empty when nothing is live. */
  liveHosts: string[];
  /** Re-render these pages (by id or slug, or everything) even when their fingerprint is unchanged. */
  force?: { ids?: string[]; slugs?: string[]; all?: boolean };
}

export interface HostPlan<R extends PlanRoute> {
  host: string;
  previous: BuildMeta | null;
  fingerprints: Record<string, string>;
  byPath: Map<string, R>;
  /** Routes to render, to keep from the live release, and to remove. */
  diff: RouteDiff;
}

/**
 * Decides per host which routes are rendered (new, changed fingerprint, forced, or files missing or damaged),
 * kept (unchanged fingerprint) or removed (gone from the route set), and whether a new release
 * is needed at all. Pure but for the two look-ups into the live release it is given.
 */
export function planRelease<R extends PlanRoute>(input: PlanInput<R>): { hosts: HostPlan<R>[]; changed: boolean } {
  const byHost = new Map<string, R[]>();
  for (const r of input.routes) {
    const list = byHost.get(r.host) ?? [];
    list.push(r);
    byHost.set(r.host, list);
  }
  const forceIds = new Set(input.force?.ids ?? []);
  const forceSlugs = new Set(input.force?.slugs ?? []);

  const hosts = input.hosts.map((host): HostPlan<R> => {
    const previous = input.previous(host);
    const prevRoutes = previous?.routes ?? {};
    const fingerprints: Record<string, string> = {};
    const byPath = new Map<string, R>();
    const force = new Set<string>();
    for (const r of byHost.get(host) ?? []) {
      const prev = prevRoutes[r.path];
      if (r.kept && prev) {
        fingerprints[r.path] = prev.fingerprint;
        byPath.set(r.path, r);
        continue;
      }
      fingerprints[r.path] = routeFingerprint(input.appInput, `${r.origin}${r.path}`, r.recordHashes);
      byPath.set(r.path, r);
      if (input.force?.all || r.keys.some((k) => forceIds.has(k) || forceSlugs.has(k))) force.add(r.path);
      // A route whose files went missing or were cut short is rendered again.
      else if (prevRoutes[r.path] && !input.hasFile(host, r.path)) force.add(r.path);
    }
    return { host, previous, fingerprints, byPath, diff: diffRoutes(prevRoutes, fingerprints, force) };
  });
  // A host of the live release that is no longer prerendered is left out of the new one.
  const changed = hosts.some((p) => p.diff.render.length || p.diff.removed.length || !p.previous)
    || input.liveHosts.some((h) => !input.hosts.includes(h));
  return { hosts, changed };
}
