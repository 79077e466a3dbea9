/**
 * The shared state of this process (editor session revocations, used handoff tokens, rate-limit
 * counters, idempotency keys): Redis when REDIS_URL is set (every instance sees what any one
 * recorded), else this process's memory (one instance only). One per process: the server runs this module from source and the built app
 * bundles its own copy, so the one connection is kept on globalThis (as the root logger is), and
 * the server closes it when it closes.
 */
import { memorySharedState, type SharedState } from '../../lib/shared-state/index.ts';
import { redisConnection, redisSharedState, type RedisConnection } from '../../lib/shared-state/redis.ts';
import { redisIdempotencyStore } from '../../lib/shared-state/redis-idempotency.ts';
import { redisRateCounter } from '../../lib/shared-state/redis-rate-limit.ts';
import { setSharedCounter } from '../../lib/http/rate-limit.ts';
import { setSharedIdempotency } from '../../lib/idempotency/store.ts';
import { getLogger } from '../../lib/log/index.ts';
import type { ServerEnv } from './env.ts';

const log = getLogger('shared-state');
/** A failing shared store is logged at most this often (every request would hit it). */
const FALLBACK_LOG_MS = 60_000;

/** Logs that `what` answers from this instance's memory while Redis fails (at most once a minute). */
function fallbackLogger(what: string): (err: unknown) => void {
  let last = 0;
  return (err) => {
    const now = Date.now();
    if (now - last < FALLBACK_LOG_MS) return;
    last = now;
    log.warn(`${what} from this instance's memory while Redis fails: ${err instanceof Error ? err.message : String(err)}`);
  };
}

type SharedStateEnv = Pick<ServerEnv, 'REDIS_URL' | 'UPSTREAM_TIMEOUT_MS' | 'UPSTREAM_CONNECT_TIMEOUT_MS'>;

interface Entry {
  state: SharedState;
  redis?: RedisConnection;
}

const SLOT = Symbol.for('komax.shared-state');
const slot = globalThis as unknown as Record<symbol, Map<string, Entry> | undefined>;

function entryFor(env: SharedStateEnv): Entry {
  const entries = (slot[SLOT] ??= new Map());
  const key = env.REDIS_URL ?? '';
  let entry = entries.get(key);
  if (!entry) {
    if (env.REDIS_URL) {
      const redis = redisConnection({ url: env.REDIS_URL, commandTimeoutMs: env.UPSTREAM_TIMEOUT_MS, connectTimeoutMs: env.UPSTREAM_CONNECT_TIMEOUT_MS });
      entry = { state: redisSharedState(redis), redis };
      // The limiters and idempotency stores of this process (server and built app alike) count in Redis.
      setSharedCounter(redisRateCounter(redis), fallbackLogger('rate limits are counted'));
      setSharedIdempotency(<T>(name: string) => redisIdempotencyStore<T>(redis, { name }), fallbackLogger('idempotency keys are kept'));
    } else {
      entry = { state: memorySharedState() };
    }
    entries.set(key, entry);
  }
  return entry;
}

/** The process's shared state for `env` (the same object on every call). */
export function processSharedState(env: SharedStateEnv): SharedState {
  return entryFor(env).state;
}

/** The process's Redis connection when REDIS_URL is set (for other shared stores over the same connection), else null. */
export function processRedis(env: SharedStateEnv): RedisConnection | null {
  return entryFor(env).redis ?? null;
}

/** Closes the process's Redis connection, if any (the server's close). */
export async function closeProcessSharedState(): Promise<void> {
  const entries = slot[SLOT];
  if (!entries) return;
  slot[SLOT] = undefined;
  setSharedCounter(null);
  setSharedIdempotency(null);
  await Promise.all([...entries.values()].map((e) => e.redis?.close()));
}
