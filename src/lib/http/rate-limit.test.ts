import { describe, expect, it } from 'vitest';
import { clientKey, rateLimiter } from './rate-limit.ts';

describe('rateLimiter', () => {
  it('allows `limit` hits per window per key, then refuses with the seconds to wait', () => {
    const limit = rateLimiter({ limit: 3, windowMs: 60_000 });
    const t = 1_000_000;
    expect([1, 2, 3].map(() => limit.hit('a', t).allowed)).toEqual([true, true, true]);
    const refused = limit.hit('a', t + 10_000);
    expect(refused).toEqual({ allowed: false, remaining: 0, retryAfterSeconds: 50 });
    expect(limit.hit('b', t + 10_000).allowed).toBe(true);
    expect(limit.hit('a', t + 60_000).allowed).toBe(true);
  });

  it('forgets a key on reset', () => {
    const limit = rateLimiter({ limit: 1, windowMs: 60_000 });
    limit.hit('a');
    expect(limit.hit('a').allowed).toBe(false);
    limit.reset('a');
    expect(limit.hit('a').allowed).toBe(true);
  });
});

describe('clientKey', () => {
  it('uses the client address, and one bucket when Astro cannot tell it', () => {
    expect(clientKey({ clientAddress: '10.0.0.1' })).toBe('10.0.0.1');
    const throwing = { get clientAddress(): string { throw new Error('unavailable'); } };
    expect(clientKey(throwing)).toBe('unknown');
  });
});
