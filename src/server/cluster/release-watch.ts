/**
 * Every instance reloads its embedded search when the live release changes (several instances,
 * REDIS_URL). The files on disk are the truth: the `live` pointer and the search index's manifest.
 * The instance that ran a revalidation announces it on a Redis channel, so the others look at once;
 * they also look every `intervalMs`, so one that missed the message (Redis down, a reconnect)
 * catches up within that time.
 * @example
 *   const watch = await watchRelease({ staticRoot, searchDir, reload: () => search.reload(), redis });
 *   // after this instance's own reload:
 *   await watch.announce();
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { getLogger } from '../../lib/log/index.ts';
import type { RedisConnection } from '../../lib/shared-state/redis.ts';
import { MANIFEST_FILE } from '../../lib/search/embedded.ts';
import { readPointer } from '../release/release.ts';

const log = getLogger('search');

/** The channel the writer announces a new release on. */
export const RELEASE_CHANNEL = 'release:live';

export interface ReleaseWatch {
  /** Reloads the search when the release or the index changed since the last look. */
  check(): Promise<void>;
  /** This instance loaded the current files itself: records them as seen, and tells the others. */
  announce(): Promise<void>;
  close(): Promise<void>;
}

/** What is on disk now: the live release and the index manifest's time. */
function stateOf(staticRoot: string, searchDir: string | undefined): string {
  let index = '';
  if (searchDir) {
    try {
      index = String(statSync(join(searchDir, MANIFEST_FILE)).mtimeMs);
    } catch {
      index = 'none';
    }
  }
  return `${readPointer(staticRoot) ?? 'none'}|${index}`;
}

export async function watchRelease(opts: {
  staticRoot: string;
  /** The embedded index's folder (none for OpenSearch, which every instance asks directly). */
  searchDir?: string;
  reload: () => Promise<void>;
  redis: RedisConnection | null;
  /** How often the files are looked at without a message. Default 500 ms. */
  intervalMs?: number;
}): Promise<ReleaseWatch> {
  let seen = stateOf(opts.staticRoot, opts.searchDir);
  let checking: Promise<void> | null = null;
  let closed = false;
  const look = async (): Promise<void> => {
    const now = stateOf(opts.staticRoot, opts.searchDir);
    if (now === seen || closed) return;
    try {
      await opts.reload();
      seen = now;
      log.info(`reloaded: release ${now.split('|')[0]} is live`);
    } catch (err) {
      log.error(`the new search index could not be loaded, the old one keeps serving: ${(err as Error).message}`);
    }
  };
  const check = (): Promise<void> => {
    // One look at a time; a message during a reload is covered by the next tick. (Cleared after
    // the look settles, never inside it: a look that returns at once would clear it before it is set.)
    if (!checking) checking = look().finally(() => { checking = null; });
    return checking;
  };
  const timer = setInterval(() => void check(), opts.intervalMs ?? 500);
  timer.unref();
  let unsubscribe: (() => Promise<void>) | null = null;
  if (opts.redis) {
    unsubscribe = await opts.redis.subscribe(RELEASE_CHANNEL, () => void check()).catch((err: Error) => {
      log.warn(`not told of new releases over Redis (${err.message}): every instance still looks at the live release every ${opts.intervalMs ?? 500} ms`);
      return null;
    });
  }
  return {
    check,
    async announce() {
      seen = stateOf(opts.staticRoot, opts.searchDir);
      await opts.redis?.publish(RELEASE_CHANNEL, seen).catch((err: Error) => log.warn(`the other instances were not told of the new release (${err.message}): they find it on disk within ${opts.intervalMs ?? 500} ms`));
    },
    async close() {
      closed = true;
      clearInterval(timer);
      await unsubscribe?.();
    },
  };
}
