import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { rateLimiter, setSharedCounter } from '../http/rate-limit.ts';
import { SharedStateError } from './index.ts';
import { redisConnection, type RedisConnection } from './redis.ts';
import { redisRateCounter } from './redis-rate-limit.ts';
import { ensureRedisServer, freePort, startRedis, type RunningRedis } from '../../../tests/support/redis.ts';

const server = ensureRedisServer();
const TIMEOUTS = { commandTimeoutMs: 30_000, connectTimeoutMs: 10_000 };

describe.skipIf('skip' in server)('rate limits counted in Redis (a real redis-server)', () => {
  let redis: RunningRedis;
  let raw: Redis;
  const opened: RedisConnection[] = [];
  /** One "instance": a connection of its own, under the test's prefix. */
  const instance = (prefix: string, url = redis.url) => {
    const c = redisConnection({ url, ...TIMEOUTS, prefix });
    opened.push(c);
    return c;
  };
  const prefix = () => `test-${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    redis = await startRedis((server as { path: string }).path);
    raw = new Redis(redis.url, { lazyConnect: true });
  });
  afterEach(() => setSharedCounter(null));
  afterAll(async () => {
    await Promise.all(opened.map((c) => c.close()));
    raw?.disconnect();
    await redis?.stop();
  });

  it('a client\'s hits on two instances count against one budget', async () => {
    const p = prefix();
    const [a, b] = [redisRateCounter(instance(p)), redisRateCounter(instance(p))];
    const limiter = rateLimiter({ limit: 3, windowMs: 60_000, name: 'forms' });
    setSharedCounter(a);
    expect((await limiter.hit('10.0.0.7')).allowed).toBe(true);
    expect((await limiter.hit('10.0.0.7')).allowed).toBe(true);
    // The same client on the other instance: its third hit is the last allowed, the fourth refused.
    setSharedCounter(b);
    const other = rateLimiter({ limit: 3, windowMs: 60_000, name: 'forms' });
    expect(await other.hit('10.0.0.7')).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await other.hit('10.0.0.7');
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(55);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Another client, another limiter name: budgets of their own.
    expect((await other.hit('10.0.0.8')).allowed).toBe(true);
    expect((await rateLimiter({ limit: 3, windowMs: 60_000, name: 'csp-report' }).hit('10.0.0.7')).allowed).toBe(true);
    // A reset on one instance (a successful sign-in) clears the budget for all.
    setSharedCounter(a);
    await limiter.reset('10.0.0.7');
    expect((await other.hit('10.0.0.7')).allowed).toBe(true);
  });

  it('the window is the key\'s expiry, set by its first hit: the count starts again after it', async () => {
    const p = prefix();
    const counter = redisRateCounter(instance(p));
    expect(await counter.hit('rate:forms:x', 60_000)).toEqual({ count: 1, resetInMs: 60_000 });
    expect((await counter.hit('rate:forms:x', 60_000)).count).toBe(2);
    const ttl = await raw.pttl(`${p}rate:forms:x`);
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect((await counter.hit('rate:forms:short', 60)).count).toBe(1);
    await expect.poll(() => raw.exists(`${p}rate:forms:short`), { interval: 10 }).toBe(0);
    expect((await counter.hit('rate:forms:short', 60)).count).toBe(1);
  });

  it('of many hits at once on several instances exactly `limit` are allowed', async () => {
    const p = prefix();
    const counters = Array.from({ length: 4 }, () => redisRateCounter(instance(p)));
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => counters[i % 4]!.hit('rate:burst:c', 60_000)));
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('a Redis that cannot be reached: the limiter fails open to this instance\'s own count, and says why', async () => {
    const down = redisRateCounter(instance(prefix(), `redis://127.0.0.1:${await freePort()}`));
    const onError = vi.fn();
    setSharedCounter(down, onError);
    const limiter = rateLimiter({ limit: 1, windowMs: 60_000, name: 'forms' });
    expect((await limiter.hit('c')).allowed).toBe(true);
    expect((await limiter.hit('c')).allowed).toBe(false);
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls[0]![0]).toBeInstanceOf(SharedStateError);
  });
});
