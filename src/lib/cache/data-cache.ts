import { LRUCache } from 'lru-cache';

/** Spec §9: at most 100 entries, 30-minute lifetime, stale values served while a refresh runs, lock reset after 5 s. */
export const CACHE_MAX_ENTRIES = 100;
export const CACHE_TTL_MS = 30 * 60 * 1000;
export const CACHE_LOCK_MS = 5000;
export const NEXT_RELEASE_PREFIX = 'nextRelease_';

export type CacheMode = 'use' | 'bypass' | 'clear';

/** `?cache=false` bypasses the cache, `?cache=clear` empties it; anything else uses it. */
export function cacheModeFromQuery(params: URLSearchParams): CacheMode {
  const v = params.get('cache');
  if (v === 'false') return 'bypass';
  if (v === 'clear') return 'clear';
  return 'use';
}

/**
 * The cache mode of a request: the spec's `?cache=` parameters are honoured only for a request
 * that is allowed to use them (it carries the revalidation secret); everyone else uses the cache.
 */
export function cacheModeFor(params: URLSearchParams, privileged: boolean): CacheMode {
  return privileged ? cacheModeFromQuery(params) : 'use';
}

/** The cache key of a record; next-release mode gets its own key space. */
export function cacheKey(parts: readonly KeyPart[], nextRelease: boolean): string {
  const key = parts.map((p) => p ?? '').join(':');
  return nextRelease ? `${NEXT_RELEASE_PREFIX}${key}` : key;
}

/** One part of a record's key: `['content', 'page', 'PUBLISHED', 'de|en', 'main', '/about']`. */
export type KeyPart = string | number | boolean | null | undefined;

/**
 * The one way page builders read records: `get(key, load)` returns the record stored under `key`,
 * loading it with `load` when there is none. On demand it is the process's {@link DataCache}
 * (with the request's cache mode and next-release key space, see {@link cachedSource}); in the
 * prerender it is a run-wide memo that also records which keys each route read, so a route's
 * fingerprint covers exactly the records its model was built from. Cache keys are built by the
 * cached getters of each service (`src/lib/<service>/cached.ts`), never by their callers.
 */
export interface DataSource {
  get<T>(key: readonly KeyPart[], load: () => Promise<T>): Promise<T>;
}

/** The data source of one on-demand request: the shared cache, in the request's mode. */
export function cachedSource(cache: DataCache, mode: CacheMode, nextRelease: boolean): DataSource {
  return { get: (key, load) => cache.get(cacheKey(key, nextRelease), load, mode) };
}

interface Entry {
  value: unknown;
  /** The clear generation the value was loaded in: older values are refreshed before use. */
  generation: number;
}
interface LoadContext {
  load: () => Promise<unknown>;
  generation: number;
}

/**
 * The data cache for on-demand rendering, on lru-cache: concurrent loads of one key share one
 * promise (the "lock"); a load that holds it longer than 5 s no longer blocks others — they get
 * the stale value, or load for themselves when there is none — while it finishes and refreshes
 * the entry in the background. A value is never dropped for a load that fails: after its
 * lifetime it is served stale while a refresh runs, and when the refresh fails it stays.
 *
 * Clearing never throws a value away either (during an outage it could not be fetched again):
 * it starts a new generation, and the next read of an older entry waits for a fresh load and
 * swaps it in, or keeps serving the old value when that load fails.
 */
export class DataCache {
  private lru: LRUCache<string, Entry, LoadContext>;
  private lockMs: number;
  private generation = 0;
  /** Keys whose load after the last clear failed: they are refreshed in the background from now on. */
  private failedRefresh = new Map<string, number>();

  constructor(opts: { max?: number; ttlMs?: number; lockMs?: number } = {}) {
    this.lockMs = opts.lockMs ?? CACHE_LOCK_MS;
    this.lru = new LRUCache<string, Entry, LoadContext>({
      max: opts.max ?? CACHE_MAX_ENTRIES,
      ttl: opts.ttlMs ?? CACHE_TTL_MS,
      allowStale: true,
      noDeleteOnStaleGet: true,
      allowStaleOnFetchRejection: true,
      allowStaleOnFetchAbort: true,
      ignoreFetchAbort: true,
      fetchMethod: async (_key, _stale, { context }) => ({ value: await context.load(), generation: context.generation }),
    });
  }

  async get<T>(key: string, load: () => Promise<T>, mode: CacheMode = 'use'): Promise<T> {
    if (mode === 'clear') this.clear();
    if (mode === 'bypass') return load();
    const previous = this.lru.peek(key, { allowStale: true });
    // An entry from before the last clear is loaded again, and the reader waits for that load
    // (unless it already failed once in this generation: then the old value is served at once
    // while another load runs in the background).
    const outdated = previous !== undefined && previous.generation < this.generation;
    const wait = outdated && this.failedRefresh.get(key) !== this.generation;
    // The caller that starts the load keeps its own promise: when lru-cache gives up on it (lock
    // timeout, or a rejection it turns into undefined), that caller still gets its result or error
    // instead of loading a second time. Callers that only joined load for themselves.
    let own: Promise<T> | undefined;
    const hit = await this.lru.fetch(key, {
      context: { load: () => (own = load()), generation: this.generation },
      signal: AbortSignal.timeout(this.lockMs),
      forceRefresh: outdated,
      allowStale: !wait,
    });
    if (hit === undefined) return own ?? load();
    if (outdated && hit === previous) {
      // The load after the clear failed or outlasted the lock: the old value stays.
      if (wait) this.failedRefresh.set(key, this.generation);
      return previous.value as T;
    }
    return hit.value as T;
  }

  /** Marks every entry outdated: each is loaded again on its next read, its old value kept if that fails. */
  clear(): void {
    this.generation++;
    this.failedRefresh.clear();
  }

  get size(): number {
    return this.lru.size;
  }
}
