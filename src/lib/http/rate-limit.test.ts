import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientKey, rateLimiter, setSharedCounter, type SharedCounter } from './rate-limit.ts';

afterEach(() => setSharedCounter(null));

describe('rateLimiter', () => {
  it('allows `limit` hits per window per key, then refuses with the seconds to wait', async () => {
    const limit = rateLimiter({ limit: 3, windowMs: 60_000 });
    const t = 1_000_000;
    for (let i = 0; i < 3; i++) expect((await limit.hit('a', t)).allowed).toBe(true);
    const refused = await limit.hit('a', t + 10_000);
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 50 });
    expect((await limit.hit('b', t + 10_000)).allowed).toBe(true);
    expect((await limit.hit('a', t + 60_000)).allowed).toBe(true);
  });

  it('forgets a key on reset', async () => {
    const limit = rateLimiter({ limit: 1, windowMs: 60_000 });
    await limit.hit('a');
    expect((await limit.hit('a')).allowed).toBe(false);
    await limit.reset('a');
    expect((await limit.hit('a')).allowed).toBe(true);
  });
});

describe('rateLimiter with a shared counter (several instances)', () => {
  /** One counter two "instances" share, as Redis is. */
  function sharedMemory(): SharedCounter & { keys: string[] } {
    const counts = new Map<string, number>();
    return {
      keys: [],
      async hit(key) {
        this.keys.push(key);
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return { count: counts.get(key)!, resetInMs: 30_500 };
      },
      async reset(key) { counts.delete(key); },
    };
  }

  it('counts the hits of every limiter with the same name together, under rate:<name>:<key>', async () => {
    const counter = sharedMemory();
    setSharedCounter(counter);
    // Two instances: each has its own limiter object (and memory), the same name.
    const a = rateLimiter({ limit: 2, windowMs: 60_000, name: 'forms' });
    const b = rateLimiter({ limit: 2, windowMs: 60_000, name: 'forms' });
    expect((await a.hit('10.0.0.1')).allowed).toBe(true);
    expect((await b.hit('10.0.0.1')).allowed).toBe(true);
    expect(await b.hit('10.0.0.1')).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 31 });
    expect(counter.keys).toEqual(['rate:forms:10.0.0.1', 'rate:forms:10.0.0.1', 'rate:forms:10.0.0.1']);
    await a.reset('10.0.0.1');
    expect((await b.hit('10.0.0.1')).allowed).toBe(true);
  });

  it('a limiter without a name (a test\'s own) counts in memory only', async () => {
    const counter = sharedMemory();
    setSharedCounter(counter);
    await rateLimiter({ limit: 1, windowMs: 60_000 }).hit('x');
    expect(counter.keys).toEqual([]);
  });

  it('fails open to the in-memory count when the shared store does not answer (and says so)', async () => {
    const onError = vi.fn();
    setSharedCounter({ hit: () => Promise.reject(new Error('Redis down')), reset: () => Promise.reject(new Error('Redis down')) }, onError);
    const limit = rateLimiter({ limit: 1, windowMs: 60_000, name: 'forms' });
    expect((await limit.hit('a')).allowed).toBe(true);
    // Still limited per instance meanwhile.
    expect((await limit.hit('a')).allowed).toBe(false);
    await limit.reset('a');
    expect(onError).toHaveBeenCalledTimes(3);
  });
});

describe('clientKey', () => {
  it('uses the client address, and one bucket when Astro cannot tell it', () => {
    expect(clientKey({ clientAddress: '10.0.0.1' })).toBe('10.0.0.1');
    const throwing = { get clientAddress(): string { throw new Error('unavailable'); } };
    expect(clientKey(throwing)).toBe('unknown');
  });
});
