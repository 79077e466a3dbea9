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

/** The cache key of a record; next-release mode gets its own key space. */
export function cacheKey(parts: (string | number | null | undefined)[], nextRelease: boolean): string {
  const key = parts.map((p) => p ?? '').join(':');
  return nextRelease ? `${NEXT_RELEASE_PREFIX}${key}` : key;
}

/** Localized product data is keyed by language, country and slug. */
export function productCacheKey(language: string, country: string, slug: string, nextRelease: boolean): string {
  return cacheKey(['product', language, country, slug], nextRelease);
}

type Loader = () => Promise<unknown>;

/**
 * The data cache for on-demand rendering, on lru-cache: concurrent loads of one key share one
 * promise (the "lock"); a load that holds it longer than 5 s no longer blocks others — they get
 * the stale value, or load for themselves when there is none — while it finishes and refreshes
 * the entry in the background.
 */
export class DataCache {
  private lru: LRUCache<string, { value: unknown }, Loader>;
  private lockMs: number;

  constructor(opts: { max?: number; ttlMs?: number; lockMs?: number } = {}) {
    this.lockMs = opts.lockMs ?? CACHE_LOCK_MS;
    this.lru = new LRUCache<string, { value: unknown }, Loader>({
      max: opts.max ?? CACHE_MAX_ENTRIES,
      ttl: opts.ttlMs ?? CACHE_TTL_MS,
      allowStale: true,
      noDeleteOnStaleGet: true,
      allowStaleOnFetchRejection: true,
      allowStaleOnFetchAbort: true,
      ignoreFetchAbort: true,
      fetchMethod: async (_key, _stale, { context }) => ({ value: await context() }),
    });
  }

  async get<T>(key: string, load: () => Promise<T>, mode: CacheMode = 'use'): Promise<T> {
    if (mode === 'clear') this.clear();
    if (mode === 'bypass') return load();
    // The caller that starts the load keeps its own promise: when lru-cache gives up on it (lock
    // timeout, or a rejection it turns into undefined), that caller still gets its result or error
    // instead of loading a second time. Callers that only joined load for themselves.
    let own: Promise<T> | undefined;
    const hit = await this.lru.fetch(key, { context: () => (own = load()), signal: AbortSignal.timeout(this.lockMs) });
    if (hit === undefined) return own ?? load();
    return hit.value as T;
  }

  clear(): void {
    this.lru.clear();
  }

  get size(): number {
    return this.lru.size;
  }
}
