import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CACHE_LOCK_MS, CACHE_MAX_ENTRIES, CACHE_TTL_MS, cacheKey, cacheModeFor, cacheModeFromQuery, DataCache, NEXT_RELEASE_PREFIX, cachedSource,
} from './data-cache.ts';

const realPerformance = performance;

beforeEach(() => {
  vi.useFakeTimers();
  // lru-cache keeps the `performance` object it saw when it was loaded, and AbortSignal.timeout
  // runs on Node's internal timers: both are routed through the fake clock here.
  vi.spyOn(realPerformance, 'now').mockImplementation(() => Date.now());
  vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms: number) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), ms);
    return controller.signal;
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A loader whose calls stay pending until the test settles them. */
function deferredLoader<T>() {
  const calls: { resolve: (v: T) => void; reject: (e: unknown) => void }[] = [];
  const load = vi.fn(() => new Promise<T>((resolve, reject) => calls.push({ resolve, reject })));
  return { load, calls };
}

/** Tracks whether a promise has settled, without awaiting it. */
function track<T>(p: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  p.then((value) => Object.assign(state, { settled: true, value }), (error) => Object.assign(state, { settled: true, error }));
  return state;
}

describe('limits from the spec', () => {
  it('are 100 entries, 30 minutes and a 5 s lock', () => {
    expect(CACHE_MAX_ENTRIES).toBe(100);
    expect(CACHE_TTL_MS).toBe(30 * 60 * 1000);
    expect(CACHE_LOCK_MS).toBe(5000);
  });
});

describe('caching', () => {
  it('loads a key once and serves it from the cache afterwards', async () => {
    const cache = new DataCache();
    const load = vi.fn(async () => ({ title: 'About' }));
    expect(await cache.get('page', load)).toEqual({ title: 'About' });
    expect(await cache.get('page', load)).toEqual({ title: 'About' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('caches null answers too (a missing page is not asked for again)', async () => {
    const cache = new DataCache();
    const load = vi.fn(async () => null);
    await cache.get('missing', load);
    expect(await cache.get('missing', load)).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps at most 100 entries, dropping the least recently used', async () => {
    const cache = new DataCache();
    for (let i = 0; i <= 100; i++) await cache.get(`k${i}`, async () => i);
    expect(cache.size).toBe(100);
    const reload = vi.fn(async () => -1);
    expect(await cache.get('k100', reload)).toBe(100);
    expect(await cache.get('k1', reload)).toBe(1);
    expect(reload).not.toHaveBeenCalled();
    expect(await cache.get('k0', reload)).toBe(-1);
  });
});

describe('lifetime of 30 minutes', () => {
  it('serves a value for 30 minutes without loading again', async () => {
    const cache = new DataCache();
    const load = vi.fn(async () => 'v1');
    await cache.get('k', load);
    await vi.advanceTimersByTimeAsync(CACHE_TTL_MS - 1000);
    expect(await cache.get('k', load)).toBe('v1');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('serves the stale value while a refresh runs, then the refreshed one', async () => {
    const cache = new DataCache();
    await cache.get('k', async () => 'old');
    await vi.advanceTimersByTimeAsync(CACHE_TTL_MS + 1000);

    const refresh = deferredLoader<string>();
    expect(await cache.get('k', refresh.load)).toBe('old');
    expect(refresh.load).toHaveBeenCalledTimes(1);
    expect(await cache.get('k', refresh.load)).toBe('old');
    expect(refresh.load).toHaveBeenCalledTimes(1);

    refresh.calls[0]!.resolve('new');
    await vi.advanceTimersByTimeAsync(0);
    expect(await cache.get('k', async () => 'unused')).toBe('new');
  });

  it('keeps serving the stale value when the refresh fails', async () => {
    const cache = new DataCache();
    await cache.get('k', async () => 'old');
    await vi.advanceTimersByTimeAsync(CACHE_TTL_MS + 1000);
    expect(await cache.get('k', async () => { throw new Error('content hub down'); })).toBe('old');
  });
});

describe('concurrent loads of one key', () => {
  it('call the loader once and share its result', async () => {
    const cache = new DataCache();
    const { load, calls } = deferredLoader<string>();
    const all = Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)]);
    expect(load).toHaveBeenCalledTimes(1);
    calls[0]!.resolve('shared');
    expect(await all).toEqual(['shared', 'shared', 'shared']);
  });

  it('do not share across keys', async () => {
    const cache = new DataCache();
    const load = vi.fn(async () => 'x');
    await Promise.all([cache.get('a', load), cache.get('b', load)]);
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('a failing load', () => {
  it('reaches the caller, with the loader called once', async () => {
    const cache = new DataCache();
    const load = vi.fn(async () => { throw new Error('GraphQL Error (Code: 500)'); });
    await expect(cache.get('k', load)).rejects.toThrow('GraphQL Error (Code: 500)');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('is not cached: the next caller loads again', async () => {
    const cache = new DataCache();
    await cache.get('k', async () => { throw new Error('boom'); }).catch(() => {});
    expect(await cache.get('k', async () => 'recovered')).toBe('recovered');
  });
});

describe('lock reset after 5 s', () => {
  it('lets the next caller load for itself while the first load hangs', async () => {
    const cache = new DataCache();
    const slow = deferredLoader<string>();
    const first = track(cache.get('k', slow.load));

    await vi.advanceTimersByTimeAsync(CACHE_LOCK_MS + 1);
    const next = vi.fn(async () => 'own');
    expect(await cache.get('k', next)).toBe('own');
    expect(next).toHaveBeenCalledTimes(1);
    expect(first.settled).toBe(false);
  });

  it('makes a caller that joined the hanging load stop waiting for it after 5 s', async () => {
    const cache = new DataCache();
    const slow = deferredLoader<string>();
    void cache.get('k', slow.load);
    const joined = deferredLoader<string>();
    const waiting = track(cache.get('k', joined.load));

    await vi.advanceTimersByTimeAsync(CACHE_LOCK_MS - 1);
    expect(joined.load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2);
    expect(joined.load).toHaveBeenCalledTimes(1);
    joined.calls[0]!.resolve('loaded myself');
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.value).toBe('loaded myself');
  });

  it('lets the caller holding the lock keep its own load instead of starting another', async () => {
    const cache = new DataCache();
    const slow = deferredLoader<string>();
    const first = track(cache.get('k', slow.load));

    await vi.advanceTimersByTimeAsync(6000);
    expect(slow.load).toHaveBeenCalledTimes(1);
    slow.calls[0]!.resolve('slow but done');
    await vi.advanceTimersByTimeAsync(0);
    expect(first.value).toBe('slow but done');
  });

  it('still stores a slow refresh in the background once it finishes', async () => {
    const cache = new DataCache();
    await cache.get('k', async () => 'old');
    await vi.advanceTimersByTimeAsync(CACHE_TTL_MS + 1000);
    const slow = deferredLoader<string>();
    expect(await cache.get('k', slow.load)).toBe('old');

    await vi.advanceTimersByTimeAsync(CACHE_LOCK_MS + 1000);
    expect(await cache.get('k', async () => 'unused')).toBe('old');
    slow.calls[0]!.resolve('new');
    await vi.advanceTimersByTimeAsync(0);
    expect(await cache.get('k', async () => 'unused')).toBe('new');
  });
});

describe('cache modes', () => {
  it('read ?cache=false as bypass, ?cache=clear as clear, anything else as use', () => {
    expect(cacheModeFromQuery(new URLSearchParams('cache=false'))).toBe('bypass');
    expect(cacheModeFromQuery(new URLSearchParams('cache=clear'))).toBe('clear');
    expect(cacheModeFromQuery(new URLSearchParams('cache=true'))).toBe('use');
    expect(cacheModeFromQuery(new URLSearchParams(''))).toBe('use');
  });

  it('bypass loads every time and leaves the cache as it was', async () => {
    const cache = new DataCache();
    await cache.get('k', async () => 'cached');
    const load = vi.fn(async () => 'fresh');
    expect(await cache.get('k', load, 'bypass')).toBe('fresh');
    expect(await cache.get('k', load, 'bypass')).toBe('fresh');
    expect(load).toHaveBeenCalledTimes(2);
    expect(await cache.get('k', load)).toBe('cached');
  });

  it('clear loads every entry again on its next read and swaps the new value in', async () => {
    const cache = new DataCache();
    await cache.get('a', async () => 'a');
    await cache.get('b', async () => 'b');
    expect(await cache.get('b', async () => 'b2', 'clear')).toBe('b2');
    expect(await cache.get('a', async () => 'a2')).toBe('a2');
    expect(await cache.get('b', async () => 'b3')).toBe('b2');
    expect(await cache.get('a', async () => 'a3')).toBe('a2');
  });

  it('clear during an outage keeps serving the old values', async () => {
    const cache = new DataCache();
    await cache.get('a', async () => 'a');
    await cache.get('b', async () => 'b');
    const down = vi.fn(async (): Promise<string> => { throw new Error('Content hub unreachable: no answer within 5000 ms'); });
    expect(await cache.get('b', down, 'clear')).toBe('b');
    expect(await cache.get('a', down)).toBe('a');
    expect(down).toHaveBeenCalledTimes(2);
    // Within and after the lifetime, and after another clear, the old values stay.
    expect(await cache.get('a', down)).toBe('a');
    await vi.advanceTimersByTimeAsync(CACHE_TTL_MS + 1000);
    expect(await cache.get('a', down)).toBe('a');
    expect(await cache.get('a', down, 'clear')).toBe('a');
    expect(await cache.get('b', down)).toBe('b');
  });

  it('after a failed load following a clear, serves the old value at once and swaps in the next successful load', async () => {
    const cache = new DataCache();
    await cache.get('k', async () => 'old');
    expect(await cache.get('k', async (): Promise<string> => { throw new Error('down'); }, 'clear')).toBe('old');
    const refresh = deferredLoader<string>();
    expect(await cache.get('k', refresh.load)).toBe('old');
    expect(refresh.load).toHaveBeenCalledTimes(1);
    refresh.calls[0]!.resolve('new');
    await vi.advanceTimersByTimeAsync(0);
    expect(await cache.get('k', async () => 'unused')).toBe('new');
  });

  it('keeps the old value when the load after a clear hangs beyond the lock time, and stores the load when it ends', async () => {
    const cache = new DataCache();
    await cache.get('k', async () => 'old');
    const slow = deferredLoader<string>();
    const first = track(cache.get('k', slow.load, 'clear'));
    await vi.advanceTimersByTimeAsync(CACHE_LOCK_MS + 1);
    expect(first.value).toBe('old');
    expect(await cache.get('k', async () => 'unused')).toBe('old');
    slow.calls[0]!.resolve('new');
    await vi.advanceTimersByTimeAsync(0);
    expect(await cache.get('k', async () => 'unused')).toBe('new');
  });

  it('are honoured only for a privileged request (one with the revalidation secret)', () => {
    expect(cacheModeFor(new URLSearchParams('cache=clear'), false)).toBe('use');
    expect(cacheModeFor(new URLSearchParams('cache=false'), false)).toBe('use');
    expect(cacheModeFor(new URLSearchParams('cache=clear'), true)).toBe('clear');
    expect(cacheModeFor(new URLSearchParams('cache=false'), true)).toBe('bypass');
  });
});

describe('cache keys', () => {
  it('get the nextRelease_ prefix in next-release mode', () => {
    expect(NEXT_RELEASE_PREFIX).toBe('nextRelease_');
    expect(cacheKey(['page', 'site-main', '/about'], false)).toBe('page:site-main:/about');
    expect(cacheKey(['page', 'site-main', '/about'], true)).toBe('nextRelease_page:site-main:/about');
  });

  it('write missing parts as empty', () => {
    expect(cacheKey(['a', null, undefined, 3], false)).toBe('a:::3');
  });

  it('keep the request\'s key space and mode in the cached source', async () => {
    const cache = new DataCache();
    const load = vi.fn(async () => 'v1');
    const published = cachedSource(cache, 'use', false);
    const next = cachedSource(cache, 'use', true);
    await published.get(['product', 'de', 'alpha-550'], load);
    await published.get(['product', 'de', 'alpha-550'], load);
    expect(load).toHaveBeenCalledTimes(1);
    await next.get(['product', 'de', 'alpha-550'], load);
    expect(load).toHaveBeenCalledTimes(2);
    await cachedSource(cache, 'bypass', false).get(['product', 'de', 'alpha-550'], load);
    expect(load).toHaveBeenCalledTimes(3);
  });
});
