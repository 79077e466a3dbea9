import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SharedStateError } from './index.ts';
import { redisConnection, type RedisConnection } from './redis.ts';
import { redisIdempotencyStore, type RedisIdempotencyOptions } from './redis-idempotency.ts';
import { ensureRedisServer, freePort, startRedis, type RunningRedis } from '../../../tests/support/redis.ts';

const server = ensureRedisServer();

describe.skipIf('skip' in server)('the idempotency store in Redis (a real redis-server)', () => {
  let redis: RunningRedis;
  let raw: Redis;
  const opened: RedisConnection[] = [];
  const prefix = `test-${randomBytes(6).toString('hex')}:`;
  /** A store on a connection of its own (one "instance"). */
  const store = (opts: Partial<RedisIdempotencyOptions> = {}, url = redis.url) => {
    const connection = redisConnection({ url, commandTimeoutMs: 30_000, connectTimeoutMs: 10_000, prefix });
    opened.push(connection);
    return redisIdempotencyStore<{ status: number; body: string }>(connection, { name: 'answers', ...opts });
  };
  const id = () => `scope\u0000${randomBytes(8).toString('hex')}`;
  const ANSWER = { status: 201, body: '{"id":"SR-1"}' };

  beforeAll(async () => {
    redis = await startRedis((server as { path: string }).path);
    raw = new Redis(redis.url, { lazyConnect: true });
  });
  afterAll(async () => {
    await Promise.all(opened.map((c) => c.close()));
    raw?.disconnect();
    await redis?.stop();
  });

  it('starts a key once; while it runs the same request is "in progress", another one a "mismatch"; then the first result', async () => {
    const s = store();
    const k = id();
    expect(await s.begin(k, 'f')).toEqual({ kind: 'started' });
    expect(await raw.exists(`${prefix}idempotency:answers:${k}`)).toBe(1);
    expect(await s.begin(k, 'f')).toEqual({ kind: 'in-progress' });
    expect(await s.begin(k, 'other')).toEqual({ kind: 'mismatch' });
    await s.finish(k, 'f', ANSWER);
    expect(await s.begin(k, 'f')).toEqual({ kind: 'done', value: ANSWER });
    expect(await s.begin(k, 'other')).toEqual({ kind: 'mismatch' });
  });

  it('release lets the next attempt run again, but never drops a finished result', async () => {
    const s = store();
    const k = id();
    await s.begin(k, 'f');
    await s.release(k);
    expect(await s.begin(k, 'f')).toEqual({ kind: 'started' });
    await s.finish(k, 'f', ANSWER);
    await s.release(k);
    expect(await s.begin(k, 'f')).toEqual({ kind: 'done', value: ANSWER });
  });

  it('keeps a result for the TTL and a pending claim for pendingMs (then another attempt takes it over)', async () => {
    const s = store({ ttlMs: 3_600_000, pendingMs: 50 });
    const [done, stuck] = [id(), id()];
    await s.begin(done, 'f');
    const before = Date.now();
    await s.finish(done, 'f', ANSWER);
    const expiresAt = await raw.call('PEXPIRETIME', `${prefix}idempotency:answers:${done}`) as number;
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3_600_000);
    expect(await s.begin(stuck, 'f')).toEqual({ kind: 'started' });
    await expect.poll(() => s.begin(stuck, 'f'), { interval: 10 }).toEqual({ kind: 'started' });
  });

  it('two instances share keys: of concurrent attempts exactly one starts, and a retry on the other instance gets the first result', async () => {
    const [a, b] = [store(), store()];
    const k = id();
    const begun = await Promise.all([a, b, a, b].map((s) => s.begin(k, 'f')));
    expect(begun.filter((r) => r.kind === 'started')).toHaveLength(1);
    expect(begun.filter((r) => r.kind === 'in-progress')).toHaveLength(3);
    await a.finish(k, 'f', ANSWER);
    expect(await b.begin(k, 'f')).toEqual({ kind: 'done', value: ANSWER });
  });

  it('stores of different names do not see each other\'s keys', async () => {
    const k = id();
    await store({ name: 'answers' }).begin(k, 'f');
    expect(await store({ name: 'submissions' }).begin(k, 'f')).toEqual({ kind: 'started' });
  });

  it('a Redis that cannot be reached rejects every call with a SharedStateError', async () => {
    const s = store({}, `redis://127.0.0.1:${await freePort()}`);
    await expect(s.begin(id(), 'f')).rejects.toBeInstanceOf(SharedStateError);
    await expect(s.finish(id(), 'f', ANSWER)).rejects.toThrow(/could not be asked idempotency finish/);
    await expect(s.release(id())).rejects.toBeInstanceOf(SharedStateError);
  });
});
