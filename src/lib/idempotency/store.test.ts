import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryIdempotencyStore, once, processIdempotencyStore, setSharedIdempotency, type IdempotencyStore } from './store.ts';

describe('memoryIdempotencyStore and once', () => {
  it('runs a write once per key and gives the first result to a repeat', async () => {
    const store = memoryIdempotencyStore<string>();
    const write = vi.fn(async () => ({ value: 'SR-1', keep: true }));
    expect(await once(store, 'k', 'f', write)).toEqual({ kind: 'fresh', value: 'SR-1' });
    expect(await once(store, 'k', 'f', write)).toEqual({ kind: 'replayed', value: 'SR-1' });
    expect(write).toHaveBeenCalledTimes(1);
  });

  it('says "in progress" to a concurrent duplicate, and "mismatch" to the same key with another request', async () => {
    const store = memoryIdempotencyStore<string>();
    let finish!: () => void;
    const first = once(store, 'k', 'f', () => new Promise((ok) => { finish = () => ok({ value: 'SR-1', keep: true }); }));
    expect(await once(store, 'k', 'f', async () => ({ value: 'SR-2', keep: true }))).toEqual({ kind: 'in-progress' });
    expect(await once(store, 'k', 'other', async () => ({ value: 'SR-2', keep: true }))).toEqual({ kind: 'mismatch' });
    finish();
    expect(await first).toEqual({ kind: 'fresh', value: 'SR-1' });
    expect(await once(store, 'k', 'other', async () => ({ value: 'SR-2', keep: true }))).toEqual({ kind: 'mismatch' });
  });

  it('releases a key whose write failed or threw, so the retry runs again', async () => {
    const store = memoryIdempotencyStore<string>();
    expect(await once(store, 'k', 'f', async () => ({ value: 'timeout', keep: false }))).toEqual({ kind: 'fresh', value: 'timeout' });
    await expect(once(store, 'k', 'f', async () => { throw new Error('down'); })).rejects.toThrow('down');
    expect(await once(store, 'k', 'f', async () => ({ value: 'SR-1', keep: true }))).toEqual({ kind: 'fresh', value: 'SR-1' });
  });

  it('forgets results after the TTL and takes over a claim left pending too long', async () => {
    let now = 1_000_000;
    const store = memoryIdempotencyStore<string>({ ttlMs: 24 * 3600_000, pendingMs: 60_000, now: () => now });
    await once(store, 'done', 'f', async () => ({ value: 'SR-1', keep: true }));
    expect(await store.begin('stuck', 'f')).toEqual({ kind: 'started' });
    now += 30_000;
    expect(await store.begin('stuck', 'f')).toEqual({ kind: 'in-progress' });
    now += 31_000;
    expect(await store.begin('stuck', 'f')).toEqual({ kind: 'started' });
    now += 23 * 3600_000;
    expect(await store.begin('done', 'f')).toEqual({ kind: 'done', value: 'SR-1' });
    now += 3600_000;
    expect(await store.begin('done', 'f')).toEqual({ kind: 'started' });
  });

  it('stays bounded in keys', async () => {
    const store = memoryIdempotencyStore<string>({ max: 100 });
    for (let i = 0; i < 1000; i++) await once(store, `k${i}`, 'f', async () => ({ value: 'x', keep: true }));
    expect(store.size).toBeLessThanOrEqual(100);
  });
});

describe('processIdempotencyStore (several instances: the store the server registers for REDIS_URL)', () => {
  afterEach(() => setSharedIdempotency(null));

  it('uses the registered shared store, named per endpoint; without one, the memory store', async () => {
    const memory = memoryIdempotencyStore<string>();
    const store = processIdempotencyStore('answers', memory);
    expect(await store.begin('k', 'f')).toEqual({ kind: 'started' });
    expect(memory.size).toBe(1);
    // Two "instances" registering stores over the same place (Redis): what one began, the other sees.
    const shared = memoryIdempotencyStore<string>();
    const names: string[] = [];
    setSharedIdempotency(<T>(name: string) => { names.push(name); return shared as unknown as IdempotencyStore<T>; });
    const other = processIdempotencyStore('answers', memoryIdempotencyStore<string>());
    expect(await store.begin('k2', 'f')).toEqual({ kind: 'started' });
    await store.finish('k2', 'f', 'first answer');
    expect(await other.begin('k2', 'f')).toEqual({ kind: 'done', value: 'first answer' });
    expect(names).toEqual(['answers', 'answers']);
    expect(memory.size).toBe(1);
  });

  it('fails open to the memory store when the shared one cannot be asked (and says so)', async () => {
    const errors: unknown[] = [];
    const down = () => Promise.reject(new Error('Redis down'));
    setSharedIdempotency(() => ({ begin: down, finish: down, release: down }), (err) => errors.push(err));
    const memory = memoryIdempotencyStore<string>();
    const store = processIdempotencyStore('submissions', memory);
    expect(await store.begin('k', 'f')).toEqual({ kind: 'started' });
    expect(await store.begin('k', 'f')).toEqual({ kind: 'in-progress' });
    expect(errors).toHaveLength(2);
  });
});
