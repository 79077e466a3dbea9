/**
 * Facts every server instance has to agree on, each kept until its own expiry: revoked editor
 * sessions and used one-time tokens (src/features/editor/). The app reaches this state through the
 * {@link SharedState} interface only: the in-process implementation here (one instance), or the
 * Redis one in redis.ts (`claim` = `SET key 1 NX PXAT expiresAt`, `has` = `EXISTS key`) when
 * REDIS_URL is set (src/server/boot/shared-state.ts). Every entry expires, so the set stays bounded by
 * what is still live.
 * @example
 *   const state = memorySharedState();
 *   await state.claim('editor-handoff:used:abc', Date.now() + 60_000); // true: first use
 *   await state.claim('editor-handoff:used:abc', Date.now() + 60_000); // false: already used
 */

/** Both methods reject with a {@link SharedStateError} when the state cannot be asked (the in-process one never does). */
export interface SharedState {
  /**
   * Records `key` until `expiresAt` (ms since the epoch). True when this call recorded it, false
   * when it was recorded already (and not expired): of several claims of one key only the first wins.
   */
  claim(key: string, expiresAt: number): Promise<boolean>;
  /** Whether `key` is recorded and not expired. */
  has(key: string): Promise<boolean>;
}

/**
 * The shared state could not be asked (not reachable, too slow, an error answer). Callers that
 * check something for security treat it as a refusal, never as "not recorded" (fail closed):
 * `unavailable` makes the error page answer 503 with Retry-After (src/site/error-page.ts).
 */
export class SharedStateError extends Error {
  override name = 'SharedStateError';
  readonly unavailable = true;
}

/**
 * Whether `err` is a {@link SharedStateError}. By name, not `instanceof`: the server and the
 * built app each load their own copy of this module, and one process-wide client serves both.
 */
export function isSharedStateError(err: unknown): err is SharedStateError {
  return err instanceof Error && err.name === 'SharedStateError';
}

/** Below this many entries expired ones are left until they are looked up (sweeping costs a pass over all). */
const MIN_SWEEP = 1024;

/**
 * The state of this process: a map of key → expiry. Expired entries go when they are looked up,
 * and all at once whenever the map has doubled since the last sweep, so memory follows the number
 * of live entries. With several instances each holds its own (see docs/operations.md).
 */
export function memorySharedState(clock: () => number = Date.now): SharedState & { size(): number } {
  const entries = new Map<string, number>();
  let sweepAt = MIN_SWEEP;
  const live = (key: string, now: number): boolean => {
    const until = entries.get(key);
    if (until === undefined) return false;
    if (until > now) return true;
    entries.delete(key);
    return false;
  };
  return {
    claim(key, expiresAt) {
      const now = clock();
      if (live(key, now)) return Promise.resolve(false);
      if (expiresAt <= now) return Promise.resolve(true);
      entries.set(key, expiresAt);
      if (entries.size >= sweepAt) {
        for (const [k, until] of entries) if (until <= now) entries.delete(k);
        sweepAt = Math.max(MIN_SWEEP, entries.size * 2);
      }
      return Promise.resolve(true);
    },
    has(key) {
      return Promise.resolve(live(key, clock()));
    },
    /** Entries held, expired ones not yet swept included (for tests and metrics). */
    size: () => entries.size,
  };
}
