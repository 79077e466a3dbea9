import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSharedStateError, memorySharedState, SharedStateError } from './index.ts';
import { KEY_PREFIX, redisConnection, redisSharedState, type RedisConnection } from './redis.ts';
import { ensureRedisServer, freePort, startRedis, type RunningRedis } from '../../../tests/support/redis.ts';
import { errorPageStatus } from '../../site/error-page.ts';

const server = ensureRedisServer();
const TIMEOUTS = { commandTimeoutMs: 30_000, connectTimeoutMs: 10_000 };

describe.skipIf('skip' in server)('the shared state in Redis (a real redis-server)', () => {
  let redis: RunningRedis;
  /** A client without prefix, to look at what the state wrote. */
  let raw: Redis;
  const opened: RedisConnection[] = [];
  /** A connection of its own (one "instance"), all under one prefix per test so tests do not see each other's keys. */
  const instance = (prefix: string, opts: Partial<Parameters<typeof redisConnection>[0]> = {}) => {
    const connection = redisConnection({ url: redis.url, ...TIMEOUTS, prefix, ...opts });
    opened.push(connection);
    return connection;
  };
  const prefix = () => `test-${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    redis = await startRedis((server as { path: string }).path);
    raw = new Redis(redis.url, { lazyConnect: true });
  });
  afterAll(async () => {
    await Promise.all(opened.map((c) => c.close()));
    raw?.disconnect();
    await redis?.stop();
  });

  it('claim is SET NX PXAT: the first claim wins, later ones are refused; has is EXISTS', async () => {
    const state = redisSharedState(instance(prefix()));
    const until = Date.now() + 60_000;
    expect(await state.has('editor-handoff:used:a')).toBe(false);
    expect(await state.claim('editor-handoff:used:a', until)).toBe(true);
    expect(await state.claim('editor-handoff:used:a', until)).toBe(false);
    expect(await state.has('editor-handoff:used:a')).toBe(true);
    expect(await state.has('editor-handoff:used:b')).toBe(false);
  });

  it('keys carry the kmx: prefix and expire exactly at expiresAt', async () => {
    const state = redisSharedState(instance(KEY_PREFIX));
    const key = `editor-session:revoked:${randomBytes(8).toString('hex')}`;
    const until = Date.now() + 3_600_000;
    await state.claim(key, until);
    expect(await raw.exists(`kmx:${key}`)).toBe(1);
    expect(await raw.exists(key)).toBe(0);
    expect(await raw.call('PEXPIRETIME', `kmx:${key}`)).toBe(until);
  });

  it('a claim that expires already records nothing (as the in-process state does)', async () => {
    const state = redisSharedState(instance(prefix()));
    const memory = memorySharedState();
    const past = Date.now() - 1000;
    expect(await state.claim('k', past)).toBe(true);
    expect(await memory.claim('k', past)).toBe(true);
    expect(await state.has('k')).toBe(false);
    expect(await memory.has('k')).toBe(false);
  });

  it('an entry is gone once its time is over, and can be claimed again', async () => {
    const state = redisSharedState(instance(prefix()));
    expect(await state.has('short')).toBe(false); // connected
    expect(await state.claim('short', Date.now() + 50)).toBe(true);
    // Waits for the condition (Redis expires the key at its time; the exact time is the test above), not for a fixed time.
    await expect.poll(() => state.has('short'), { interval: 10 }).toBe(false);
    expect(await state.claim('short', Date.now() + 60_000)).toBe(true);
  });

  it('two instances (two connections) see each other\'s entries; two in-process states do not', async () => {
    const p = prefix();
    const [a, b] = [redisSharedState(instance(p)), redisSharedState(instance(p))];
    expect(await a.claim('editor-session:revoked:s1', Date.now() + 60_000)).toBe(true);
    expect(await b.has('editor-session:revoked:s1')).toBe(true);
    expect(await b.claim('editor-session:revoked:s1', Date.now() + 60_000)).toBe(false);

    const [m1, m2] = [memorySharedState(), memorySharedState()];
    await m1.claim('editor-session:revoked:s1', Date.now() + 60_000);
    expect(await m2.has('editor-session:revoked:s1')).toBe(false);
  });

  it('of many instances claiming one key at once exactly one wins', async () => {
    const p = prefix();
    const states = Array.from({ length: 5 }, () => redisSharedState(instance(p)));
    const wins = await Promise.all(states.map((s) => s.claim('editor-handoff:used:race', Date.now() + 60_000)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('a command Redis does not answer in time fails with a clear error (the upstream timeout), not a hang', async () => {
    const state = redisSharedState(instance(prefix(), { commandTimeoutMs: 100 }));
    expect(await state.has('k')).toBe(false); // connected
    // Redis holds every client's commands for 1 s: ours must give up after its 100 ms.
    await raw.call('CLIENT', 'PAUSE', '1000', 'ALL');
    const err = await state.has('k').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SharedStateError);
    expect((err as Error).message).toBe(`Redis at 127.0.0.1:${redis.port} did not answer EXISTS within 100 ms (UPSTREAM_TIMEOUT_MS)`);
    await expect(state.claim('k', Date.now() + 60_000)).rejects.toThrow(/did not answer SET NX PXAT within 100 ms/);
  });

  it('a Redis that cannot be reached fails at once, with an error the error page answers with 503', async () => {
    const port = await freePort();
    const state = redisSharedState(instance(prefix(), { url: `redis://:secret-password@127.0.0.1:${port}` }));
    const err = await state.has('editor-session:revoked:x').catch((e: unknown) => e);
    expect(isSharedStateError(err)).toBe(true);
    expect((err as Error).message).toMatch(new RegExp(`^Redis at 127\\.0\\.0\\.1:${port} could not be asked EXISTS: `));
    expect((err as Error).message).not.toContain('secret-password');
    expect(errorPageStatus(err)).toEqual({ status: 503, retryAfter: 60 });
    await expect(state.claim('k', Date.now() + 60_000)).rejects.toBeInstanceOf(SharedStateError);
  });
});

describe.skipIf('skip' in server)('a Redis that stops while the server runs', () => {
  it('fails the next commands (never "not revoked")', async () => {
    const redis = await startRedis((server as { path: string }).path);
    const connection = redisConnection({ url: redis.url, ...TIMEOUTS, prefix: 'stop:' });
    const state = redisSharedState(connection);
    try {
      await state.claim('editor-session:revoked:s', Date.now() + 60_000);
      expect(await state.has('editor-session:revoked:s')).toBe(true);
      await redis.stop();
      await expect(state.has('editor-session:revoked:s')).rejects.toBeInstanceOf(SharedStateError);
    } finally {
      await connection.close();
      await redis.stop();
    }
  });
});
