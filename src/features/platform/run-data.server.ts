import type { ContentContext } from '../../lib/content/index.ts';
import type { KeyPart } from '../../lib/cache/data-cache.ts';
import { localizedPath } from '../../site/paths.ts';
import { countryOf, resolveRequest, type RequestContext } from '../../site/request.ts';
import type { Locale, Site, SystemData } from '../../site/types.ts';
import { contentContextFor, type Services } from './context.ts';
import type { PageLoader, RouteSourceContext, RunData, SourcedRoute } from './route-source.ts';

/** The map key of a record: its key parts as JSON (`["content","story",…]`). */
export const keyString = (key: readonly KeyPart[]): string => JSON.stringify(key);

/** The prerender's data for one run: every key is loaded once; bulk loads may seed keys. */
export interface RunDataStore extends RunData {
  /** The settled value of a key that was read or seeded. */
  valueOf(key: string): Promise<unknown>;
}

/**
 * `transform` sees every loaded record by its key (`["catalogue","product","en","kappa-310"]`)
 * and may replace it: tests use it to simulate an edit in a service.
 */
export function createRunData(opts: { transform?: (key: string, value: unknown) => unknown } = {}): RunDataStore {
  const values = new Map<string, Promise<unknown>>();
  const transform = opts.transform;
  return {
    get<T>(key: readonly KeyPart[], load: () => Promise<T>): Promise<T> {
      const k = keyString(key);
      let p = values.get(k) as Promise<T> | undefined;
      if (!p) {
        p = transform ? load().then((v) => transform(k, v) as T) : load();
        values.set(k, p);
      }
      return p;
    },
    seed(key, value) {
      const k = keyString(key);
      if (!values.has(k)) values.set(k, Promise.resolve(value));
    },
    valueOf: (k) => values.get(k) ?? Promise.resolve(undefined),
  };
}

const NO_FLAGS = { testing: false, nextRelease: false, editorMode: false };

/**
 * The request context a visitor's request for a route would resolve to (same site, locale and
 * country): what the route's on-demand loader gets. Throws when the path is no page of the site.
 */
export function routeRequest(system: SystemData, host: string, site: Site, locale: Locale, pagePath: string): RequestContext {
  const pathname = localizedPath(site, locale, pagePath);
  const resolution = resolveRequest(system, { host, pathname, search: '', cookies: {}, flags: NO_FLAGS });
  if (resolution.kind !== 'page' || resolution.ctx.site.id !== site.id) throw new Error(`prerender: ${host}${pathname} does not resolve to a page of site ${site.id}`);
  return resolution.ctx;
}

export interface SourceContextInput {
  system: SystemData;
  site: Site;
  locale: Locale;
  /** The host the site is prerendered for (it resolves requests to the site). */
  host: string;
  services: Services;
  data: RunDataStore;
  /** Stable hash of a record (cached by identity by the caller). */
  hash: (record: unknown) => string;
  /** Told the data keys a built route read, with their values (the prerender's route index). */
  onBuilt?: (pagePath: string, keys: string[], values: unknown[]) => void;
  /** A targeted run's kept route at a path (see RouteSourceContext.kept). */
  kept?: (pagePath: string) => SourcedRoute | null;
}

/**
 * What a route source works with for one site × locale. `build` runs a page loader with the
 * run's data behind a recorder, and returns the hashes of every record the loader read.
 */
export function routeSourceContext(input: SourceContextInput): RouteSourceContext {
  const { system, site, locale, host, services, data, hash, onBuilt } = input;
  const content: ContentContext = contentContextFor(services.content, system, site, locale);
  const country = countryOf(system, locale);
  return {
    system, site, locale, country, content, services, data,
    kept: (pagePath) => input.kept?.(pagePath) ?? null,
    async build<M>(pagePath: string, load: PageLoader<M>) {
      const req = routeRequest(system, host, site, locale, pagePath);
      const read = new Set<string>();
      const recorder = { get: <T>(key: readonly KeyPart[], l: () => Promise<T>) => { read.add(keyString(key)); return data.get(key, l); } };
      const model = await load({ data: recorder, content, services }, req);
      const keys = [...read].sort();
      // A read that failed and that the loader handled (a page showing an unknown product leaves it
      // out) counts as its failure: the route is fingerprinted with it, and renders again once the
      // record exists. A failure the loader did not handle has already failed the build above.
      const values = await Promise.all(keys.map((k) => data.valueOf(k).catch((err: unknown) => ({ failedRead: err instanceof Error ? err.message : String(err) }))));
      onBuilt?.(pagePath, keys, values);
      return { model, recordHashes: keys.map((k, i) => `${k}=${hash(values[i])}`) };
    },
  };
}
