/**
 * The idempotency-key store in Redis, for several server instances: a retry that lands on another
 * instance gets the first answer of its key too. It implements the `IdempotencyStore` of
 * src/lib/idempotency/store.ts.
 * Each key is one Redis string (under the connection's `kmx:` prefix): `p{"f":…}` while its write
 * runs (expiring after `pendingMs`, so a write that never finished is taken over), then
 * `d{"f":…,"v":…}` with the result for `ttlMs`. Redis bounds the memory (its `maxmemory`), not this
 * module; every failure rejects with a SharedStateError (see redis.ts).
 */
import type { IdempotencyStore } from '../idempotency/store.ts';
import type { RedisConnection } from './redis.ts';


export interface RedisIdempotencyOptions {
  /** How long a result is kept. Default 24 h (IDEMPOTENCY_TTL_MS). */
  ttlMs?: number;
  /** How long a claim may stay pending before another attempt may take it over. Default 2 minutes (longer than any upstream call). */
  pendingMs?: number;
  /** Keeps the stores of different endpoints apart (e.g. `answers`, `submissions`). */
  name: string;
}

/** Claims the key for a new write, or gives what holds it: nil when claimed, else the stored entry. One step, so two instances never both start. */
const BEGIN = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return nil end
return redis.call('GET', KEYS[1])`;
/** Deletes the key only while its write is pending (a finished result stays). */
const RELEASE = `local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, 1) == 'p' then return redis.call('DEL', KEYS[1]) end
return 0`;

/** An {@link IdempotencyStore} over the process's Redis connection. */
export function redisIdempotencyStore<T>(redis: RedisConnection, opts: RedisIdempotencyOptions): IdempotencyStore<T> {
  const ttlMs = opts.ttlMs ?? 24 * 60 * 60 * 1000;
  const pendingMs = opts.pendingMs ?? 120_000;
  const keyOf = (id: string) => `idempotency:${opts.name}:${id}`;
  return {
    async begin(id, fingerprint) {
      const held = await redis.run('idempotency begin', (c) => c.eval(BEGIN, 1, keyOf(id), `p${JSON.stringify({ f: fingerprint })}`, pendingMs) as Promise<string | null>);
      if (held === null) return { kind: 'started' };
      const entry = JSON.parse(held.slice(1)) as { f: string; v?: T };
      if (entry.f !== fingerprint) return { kind: 'mismatch' };
      return held.startsWith('d') ? { kind: 'done', value: entry.v as T } : { kind: 'in-progress' };
    },
    async finish(id, fingerprint, value) {
      await redis.run('idempotency finish', (c) => c.set(keyOf(id), `d${JSON.stringify({ f: fingerprint, v: value })}`, 'PX', ttlMs));
    },
    async release(id) {
      await redis.run('idempotency release', (c) => c.eval(RELEASE, 1, keyOf(id)));
    },
  };
}
