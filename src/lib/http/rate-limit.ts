/**
 * A per-client fixed-window rate limit held in memory (one process; behind several instances each
 * counts its own, which only makes the limit looser). Used for password checks and form posts.
 * @example const limit = rateLimiter({ limit: 5, windowMs: 60_000 }); const r = limit.hit(ip); if (!r.allowed) 429 with Retry-After r.retryAfterSeconds
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
  hit(key: string, now?: number): RateLimitResult;
  /** Forgets `key` (e.g. after a successful sign-in). */
  reset(key: string): void;
}

/** `limit` hits per `windowMs` per key; at most `maxKeys` clients remembered (least recently seen go first). */
export function rateLimiter(options: { limit: number; windowMs: number; maxKeys?: number }): RateLimiter {
  const windows = new LRUCache<string, { start: number; count: number }>({ max: options.maxKeys ?? 10_000 });
  return {
    hit(key, now = Date.now()) {
      let w = windows.get(key);
      if (!w || now - w.start >= options.windowMs) {
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      const retryAfterSeconds = Math.max(1, Math.ceil((w.start + options.windowMs - now) / 1000));
      return { allowed: w.count <= options.limit, remaining: Math.max(0, options.limit - w.count), retryAfterSeconds };
    },
    reset(key) {
      windows.delete(key);
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
