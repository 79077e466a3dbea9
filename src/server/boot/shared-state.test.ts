import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRedisServer, startRedis, type RunningRedis } from '../../../tests/support/redis.ts';
import { SharedStateError } from '../../lib/shared-state/index.ts';
import { parseServerEnv, servicesFromEnv } from './env.ts';
import { closeProcessSharedState, processRedis } from './shared-state.ts';
import { rateLimiter } from '../../lib/http/rate-limit.ts';
import { answerStore } from '../../lib/idempotency/http.ts';

const server = ensureRedisServer();

describe('the shared state of the process', () => {
  it('without REDIS_URL is this process\'s memory, one object however often the services are configured', async () => {
    const [a, b] = [servicesFromEnv(parseServerEnv({})), servicesFromEnv(parseServerEnv({}))];
    expect(a.sharedState).toBe(b.sharedState);
    expect(processRedis(parseServerEnv({}))).toBeNull();
    expect(await a.sharedState.claim('editor-handoff:used:m', Date.now() + 60_000)).toBe(true);
    expect(await b.sharedState.has('editor-handoff:used:m')).toBe(true);
  });
});

describe.skipIf('skip' in server)('with REDIS_URL (a real redis-server)', () => {
  let redis: RunningRedis;
  let raw: Redis;
  beforeAll(async () => {
    redis = await startRedis((server as { path: string }).path);
    raw = new Redis(redis.url, { lazyConnect: true });
  });
  afterAll(async () => {
    raw?.disconnect();
    await closeProcessSharedState();
    await redis?.stop();
  });

  it('is Redis: one connection per process, keys under kmx:, commands bounded by UPSTREAM_TIMEOUT_MS, closed with the server', async () => {
    // A limit no healthy command misses on a busy machine, and a pause far past it: the refused
    // EXISTS proves the bound however slowly this test runs.
    const env = parseServerEnv({ REDIS_URL: redis.url, UPSTREAM_TIMEOUT_MS: '1000' });
    const services = servicesFromEnv(env);
    expect(servicesFromEnv(env).sharedState).toBe(services.sharedState);
    expect(processRedis(env)).not.toBeNull();
    expect(await services.sharedState.claim('editor-session:revoked:p', Date.now() + 60_000)).toBe(true);
    expect(await raw.exists('kmx:editor-session:revoked:p')).toBe(1);

    // (Redis holds every client while paused, this test's own too: the pause ends by itself.)
    await raw.call('CLIENT', 'PAUSE', '6000', 'ALL');
    await expect(services.sharedState.has('editor-session:revoked:p')).rejects.toThrow(/did not answer EXISTS within 1000 ms \(UPSTREAM_TIMEOUT_MS\)/);

    await closeProcessSharedState();
    const closed = await services.sharedState.has('editor-session:revoked:p').catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(SharedStateError);
    expect((closed as Error).message).toMatch(/Connection is closed/);
    // A later configuration (a server started again in this process) gets a new connection.
    expect(servicesFromEnv(env).sharedState).not.toBe(services.sharedState);
  });

  it('carries the rate-limit counters and idempotency keys of every limiter and store of the process; closed, memory again', async () => {
    await raw.call('CLIENT', 'UNPAUSE');
    await closeProcessSharedState();
    const env = parseServerEnv({ REDIS_URL: redis.url });
    // Made before the connection, as the modules' own limiters and stores are.
    const limiter = rateLimiter({ limit: 1, windowMs: 60_000, name: 'shared-state-test' });
    const id = `scope\u0000${Date.now()}`;
    servicesFromEnv(env);
    expect((await limiter.hit('10.1.1.1')).allowed).toBe(true);
    expect(await raw.get('kmx:rate:shared-state-test:10.1.1.1')).toBe('1');
    expect(await answerStore.begin(id, 'f')).toEqual({ kind: 'started' });
    expect(await raw.exists(`kmx:idempotency:answers:${id}`)).toBe(1);

    await closeProcessSharedState();
    await raw.del('kmx:rate:shared-state-test:10.1.1.1');
    // In memory: this limiter had not counted the hit above, the store never saw the key.
    expect((await limiter.hit('10.1.1.1')).allowed).toBe(true);
    expect(await raw.exists('kmx:rate:shared-state-test:10.1.1.1')).toBe(0);
    expect(await answerStore.begin(id, 'f')).toEqual({ kind: 'started' });
  });
});
