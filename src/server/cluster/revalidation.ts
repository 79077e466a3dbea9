/**
 * The revalidation across several instances (REDIS_URL): a webhook received by any instance is
 * queued in Redis, and exactly one instance at a time runs the queue (src/lib/shared-state/redis-queue.ts);
 * webhooks that arrive during a run are merged into the next one. The release's file lock stays
 * as the guard under it. The webhook's answer is the result of the run that included it, on
 * whichever instance that ran.
 *
 * When the queue cannot be asked (Redis down) the webhook runs on the instance that received it,
 * as with one instance: the file lock still keeps a second writer out (it answers 409 and the
 * content hub retries), and the other instances find the new release by its pointer
 * (release-watch.ts).
 */
import { getLogger } from '../../lib/log/index.ts';
import { isSharedStateError } from '../../lib/shared-state/index.ts';
import { redisJobQueue, type JobQueue } from '../../lib/shared-state/redis-queue.ts';
import type { RedisConnection } from '../../lib/shared-state/redis.ts';
import type { PrerenderResult } from '../prerender/run.ts';
import { runFailureError, runFailureOf, type RunFailure } from '../revalidate/revalidate-failure.ts';
import type { RevalidateRequest } from '../revalidate/revalidate.ts';

const log = getLogger('revalidate');

/**
 * One request for what two asked for: ids, slugs and `all` add up; named records add up, and a
 * request naming none (everything) keeps the merged run one for everything.
 */
export function mergeRevalidations(a: RevalidateRequest, b: RevalidateRequest): RevalidateRequest {
  const everything = (f: RevalidateRequest) => !f.records?.length;
  return {
    ids: [...(a.ids ?? []), ...(b.ids ?? [])],
    slugs: [...(a.slugs ?? []), ...(b.slugs ?? [])],
    all: a.all || b.all,
    records: everything(a) || everything(b) ? undefined : [...a.records!, ...b.records!],
  };
}

export interface SharedRevalidation {
  /** Queues `force` for the one writer; resolves with the result of the run that included it. */
  run(force: RevalidateRequest): Promise<PrerenderResult>;
  close(): Promise<void>;
}

/** The revalidation of this instance over the shared queue; `runHere` runs a (merged) request on this instance when it is the writer. */
export function sharedRevalidation(redis: RedisConnection, runHere: (force: RevalidateRequest) => Promise<PrerenderResult>, opts: { lockMs?: number } = {}): SharedRevalidation {
  let queue: Promise<JobQueue<RevalidateRequest, PrerenderResult>> | null = null;
  const queueOf = () => (queue ??= redisJobQueue<RevalidateRequest, PrerenderResult>(redis, {
    name: 'revalidate',
    run: (jobs) => runHere(jobs.reduce(mergeRevalidations)),
    failureOf: runFailureOf,
    errorOf: (f) => runFailureError(f as RunFailure),
    ...(opts.lockMs ? { lockMs: opts.lockMs } : {}),
  }).catch((err: unknown) => {
    // Not listening (Redis down at start): the next webhook tries again.
    queue = null;
    throw err;
  }));
  return {
    async run(force) {
      let q: JobQueue<RevalidateRequest, PrerenderResult>;
      try {
        q = await queueOf();
        return await q.submit(force);
      } catch (err) {
        if (!isSharedStateError(err)) throw err;
        log.warn(`the revalidation queue cannot be asked (${(err as Error).message}): this instance runs the webhook itself, the release's file lock keeps a second writer out`);
        return runHere(force);
      }
    },
    async close() {
      const q = await queue?.catch(() => null);
      await q?.close();
    },
  };
}
