/**
 * A per-client fixed-window rate limit. With several server instances (REDIS_URL) the counts live
 * in Redis, so a client's hits on every instance add up to one budget; with one instance (or while
 * Redis does not answer) each process counts in its own memory. Used for password checks, form
 * posts, the webhook and every API endpoint that writes.
 * @example const limit = rateLimiter({ name: 'forms', limit: 5, windowMs: 60_000 }); const r = await limit.hit(ip); if (!r.allowed) 429 with Retry-After r.retryAfterSeconds
 */
import { LRUCache } from 'lru-cache';

export interface RateLimitResult {
  allowed: boolean;
  /** Hits left in the current window (0 when refused). */
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one hit for `key` and says whether it is allowed. */
  hit(key: string, now?: number): Promise<RateLimitResult>;
  /** Forgets `key` (e.g. after a successful sign-in). */
  reset(key: string): Promise<void>;
}

/**
 * Counters every instance shares (Redis: src/lib/shared-state/redis-rate-limit.ts), registered by
 * the server when REDIS_URL is set. Both methods reject when the store cannot be asked.
 */
export interface SharedCounter {
  /** Adds one to `key`, whose window starts with its first hit and lasts `windowMs`: the count so far and the ms left. */
  hit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  reset(key: string): Promise<void>;
}

/**
 * The process's shared counter, kept on globalThis: the server runs this module from source and
 * the built app bundles its own copy, and both must count in the same place.
 */
const COUNTER = Symbol.for('komax.rate-limit.shared-counter');
const slot = globalThis as unknown as Record<symbol, { counter: SharedCounter; onError: (err: unknown) => void } | undefined>;

/**
 * Makes every limiter of this process count in `counter` (null: back to memory). `onError` hears
 * each failed call (the limiter then counts in memory for that hit: it fails open to one
 * instance's limit, so a Redis outage never takes the site down).
 */
export function setSharedCounter(counter: SharedCounter | null, onError: (err: unknown) => void = () => {}): void {
  slot[COUNTER] = counter ? { counter, onError } : undefined;
}

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** At most this many clients remembered in memory (least recently seen go first). */
  maxKeys?: number;
  /**
   * Names the limiter's counters in the shared store (keys `rate:<name>:<key>`): unique per
   * limiter. Without a name the limiter counts in this process only (a test's own limiter).
   */
  name?: string;
}

/** `limit` hits per `windowMs` per key. */
export function rateLimiter(options: RateLimitOptions): RateLimiter {
  const windows = new LRUCache<string, { start: number; count: number }>({ max: options.maxKeys ?? 10_000 });
  const result = (count: number, resetInMs: number): RateLimitResult => ({
    allowed: count <= options.limit,
    remaining: Math.max(0, options.limit - count),
    retryAfterSeconds: Math.max(1, Math.ceil(resetInMs / 1000)),
  });
  const inMemory = (key: string, now: number): RateLimitResult => {
    let w = windows.get(key);
    if (!w || now - w.start >= options.windowMs) {
      w = { start: now, count: 0 };
      windows.set(key, w);
    }
    w.count += 1;
    return result(w.count, w.start + options.windowMs - now);
  };
  const sharedKey = (key: string) => `rate:${options.name}:${key}`;
  return {
    async hit(key, now = Date.now()) {
      const shared = options.name ? slot[COUNTER] : undefined;
      if (shared) {
        try {
          const { count, resetInMs } = await shared.counter.hit(sharedKey(key), options.windowMs);
          return result(count, resetInMs);
        } catch (err) {
          shared.onError(err);
        }
      }
      return inMemory(key, now);
    },
    async reset(key) {
      windows.delete(key);
      const shared = options.name ? slot[COUNTER] : undefined;
      if (shared) await shared.counter.reset(sharedKey(key)).catch((err: unknown) => shared.onError(err));
    },
  };
}

/** The client a request comes from: Astro's clientAddress when known, else one shared bucket. */
export function clientKey(context: { clientAddress?: string }): string {
  try {
    return context.clientAddress || 'unknown';
  } catch {
    // Astro throws when the adapter cannot tell the address (e.g. a request rendered without a socket).
    return 'unknown';
  }
}
