/**
 * Targeted revalidation: what a webhook naming changed records (model, id, stage) affects, worked
 * out from the route index of the live release (`releases/<id>/routes.json`, written by every run):
 * per route the record ids and slugs it declares (`keys`) and the data keys it read (`reads`), and
 * per data key the record ids found in its value (`keyIds`). A named record affects the routes that
 * declare it and the routes that read a value holding it (a list, a relation, navigation).
 *
 * A targeted run rebuilds only the affected routes; every other route is kept as the live release
 * has it, without fetching or building it. It falls back to a full collect when it cannot be sure:
 * no index, another app build or render configuration, or a named id the live release does not
 * know (a new record may join lists nobody can name). A record that joins or leaves a list it was
 * not on by an edit of a sort or filter field is only seen by a full collect: the revalidation
 * runs one shortly after every targeted run (the safety net, `revalidate.ts`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchText } from '../../features/platform/page-model.ts';
import { hashOf } from './fingerprint.ts';

export const ROUTE_INDEX_FILE = 'routes.json';
export const ROUTE_INDEX_FORMAT = 'komax-routes/2';

/** What a later run needs of a route it keeps without building it. */
export interface IndexedRoute {
  host: string;
  path: string;
  pagePath: string;
  siteId: string;
  /** The route source that made it (`content-pages`, `catalogue` …). */
  source: string;
  /** Locale code (`de-ch`). */
  locale: string;
  keys: string[];
  reads: string[];
  languages: string[];
  updatedAt: string;
  search?: SearchText;
  inSitemap: boolean;
}

export interface RouteIndex {
  format: typeof ROUTE_INDEX_FORMAT;
  /** Hash of the app build and render configuration the routes were rendered with. */
  app: string;
  /** Hash of the system data they were rendered with. */
  system: string;
  /** Data key → the record ids in its value. */
  keyIds: Record<string, string[]>;
  routes: IndexedRoute[];
}

/** A changed record as a headless CMS webhook names it. */
export interface ChangedRecord {
  model: string;
  id: string;
  /** Only the published stage is served: changes of other stages change nothing. */
  stage?: string;
}

export const appHash = (appInput: string): string => hashOf(appInput);

export function readRouteIndex(releaseRoot: string): RouteIndex | null {
  try {
    const index = JSON.parse(readFileSync(join(releaseRoot, ROUTE_INDEX_FILE), 'utf8')) as RouteIndex;
    return index.format === ROUTE_INDEX_FORMAT ? index : null;
  } catch {
    return null;
  }
}

/** The record ids a value holds: every string `id` property, at any depth. */
export function idsOf(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) {
    for (const v of value) idsOf(v, out);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === 'id' && typeof v === 'string') out.add(v);
      else if (v !== null && typeof v === 'object') idsOf(v, out);
    }
  }
  return out;
}

export type Targeting =
  | { targeted: true; ids: string[]; affected: Set<string>; sources: Set<string>; index: RouteIndex }
  | { targeted: false; reason: string };

export const routeId = (host: string, path: string): string => `${host}\n${path}`;

/**
 * Which routes of the live release the named records affect (`host\npath`), or why the run must
 * collect everything. Records of another stage than PUBLISHED are ignored; when only those are
 * named, nothing is affected.
 */
export function target(index: RouteIndex | null, app: string, records: ChangedRecord[]): Targeting {
  if (!index) return { targeted: false, reason: 'the live release has no route index' };
  if (index.app !== app) return { targeted: false, reason: 'the app build or render configuration changed' };
  const ids = [...new Set(records.filter((r) => !r.stage || r.stage.toUpperCase() === 'PUBLISHED').map((r) => r.id))];
  const named = new Set(ids);
  const known = new Set<string>();
  const dirtyKeys = new Set<string>();
  for (const [key, keyIds] of Object.entries(index.keyIds)) {
    for (const id of keyIds) {
      if (!named.has(id)) continue;
      known.add(id);
      dirtyKeys.add(key);
    }
  }
  const affected = new Set<string>();
  const sources = new Set<string>();
  for (const r of index.routes) {
    let hit = false;
    for (const k of r.keys) if (named.has(k)) { known.add(k); hit = true; }
    if (hit || r.reads.some((k) => dirtyKeys.has(k))) {
      affected.add(routeId(r.host, r.path));
      // Its source runs in every site and locale: the record may now have routes where it had none.
      sources.add(r.source);
    }
  }
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) return { targeted: false, reason: `not in the live release: ${unknown.slice(0, 5).join(', ')}` };
  return { targeted: true, ids, affected, sources, index };
}
