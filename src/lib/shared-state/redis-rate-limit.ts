/**
 * The rate limiters' counters in Redis, for several server instances: a client's hits on every
 * instance count against one budget (src/lib/http/rate-limit.ts). A fixed window per key: the
 * first hit creates the key with the window as its expiry (`INCR`, then `PEXPIRE` when it is new),
 * in one script, so the count and its expiry never part. Every failure rejects with a
 * SharedStateError; the limiter then counts in memory (fails open, see docs/operations.md).
 * @example setSharedCounter(redisRateCounter(redis)) // the server does this when REDIS_URL is set
 */
import type { SharedCounter } from '../http/rate-limit.ts';
import type { RedisConnection } from './redis.ts';

/** Count and ms left; a key left without expiry (never by this script) gets one. */
const HIT = `local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if n == 1 or ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

/** A {@link SharedCounter} over the process's Redis connection. */
export function redisRateCounter(redis: RedisConnection): SharedCounter {
  return {
    async hit(key, windowMs) {
      const [count, resetInMs] = await redis.run('rate-limit INCR', (c) => c.eval(HIT, 1, key, Math.max(1, Math.round(windowMs))) as Promise<[number, number]>);
      return { count, resetInMs };
    },
    async reset(key) {
      await redis.run('rate-limit DEL', (c) => c.del(key));
    },
  };
}
