import type { ServerEnv } from '../boot/env.ts';
import type { PrerenderResult } from '../prerender/run.ts';
import { getLogger } from '../../lib/log/index.ts';
import { mergeRevalidations, type SharedRevalidation } from '../cluster/revalidation.ts';
import { prerenderThread } from './prerender-thread.ts';
import { revalidateRoute, type RevalidateRequest } from './revalidate-endpoint.ts';

export { RevalidateBody, REVALIDATE_LIMITS, WRONG_SECRET_LIMIT, type RevalidateRequest } from './revalidate-endpoint.ts';

const log = getLogger('revalidate');

/**
 * Runs never overlap: the first request starts one, the next waits for it, and every further one
 * merges into that waiting run (one run for a burst of webhooks).
 */
function coalescingQueue(runOne: (force: RevalidateRequest) => Promise<PrerenderResult>) {
  let running: Promise<PrerenderResult> | null = null;
  let queued: { force: RevalidateRequest; promise: Promise<PrerenderResult> } | null = null;
  const schedule = (force: RevalidateRequest): Promise<PrerenderResult> => {
    if (!running) {
      running = runOne(force).finally(() => { running = null; });
      return running;
    }
    if (!queued) {
      const after = running.catch(() => undefined);
      const entry = { force: { ...force }, promise: undefined as unknown as Promise<PrerenderResult> };
      entry.promise = after.then(() => { queued = null; return schedule(entry.force); });
      queued = entry;
      return entry.promise;
    }
    queued.force = mergeRevalidations(queued.force, force);
    return queued.promise;
  };
  return schedule;
}

/**
 * POST /api/revalidate (revalidate-endpoint.ts) and the runs behind it: the incremental prerender
 * in a worker (prerender-thread.ts) for the given page ids, slugs or records (re-rendered even if
 * unchanged), or for everything. Runs never overlap; a request that arrives during a run waits
 * for the next one. With `shared` (several instances, REDIS_URL) every request goes through the
 * shared queue, whose one writer runs them (cluster/revalidation.ts).
 */
export function createRevalidation(opts: {
  distDir: string;
  env: ServerEnv;
  onPublished?: () => Promise<void>;
  /**
   * Resolves once what visitors get serves the published release (the edge in front, when there is
   * one); the answer waits for it, so "live at the answer" holds through the edge too.
   */
  untilServed?: (releaseId: string) => Promise<void>;
  /** Runs one prerender; a worker thread by default (tests pass a fake). */
  runPrerender?: (force: RevalidateRequest) => Promise<PrerenderResult>;
  /**
   * After a targeted run (named records), a full run follows this long after the last one: the
   * safety net for what the named records could not tell (targets.ts). 0 turns it off.
   */
  safetyNetMs?: number;
  /** The shared queue over this instance's own run (several instances); without it, runs are this instance's alone. */
  shared?: (runHere: (force: RevalidateRequest) => Promise<PrerenderResult>) => SharedRevalidation;
}) {
  const safetyNetMs = opts.safetyNetMs ?? 60_000;
  let safetyNet: NodeJS.Timeout | null = null;
  const thread = opts.runPrerender ? null : prerenderThread(opts);
  // Started with the server when revalidation is configured: the first webhook finds the App loaded.
  if (thread && opts.env.REVALIDATE_SECRET) thread.start();
  const schedule = coalescingQueue(opts.runPrerender ?? thread!.run);

  const armSafetyNet = () => {
    if (safetyNet) clearTimeout(safetyNet);
    safetyNet = setTimeout(() => {
      safetyNet = null;
      run({}).catch((err) => log.error(`the full run after targeted revalidations failed: ${(err as Error).message}`));
    }, safetyNetMs);
    safetyNet.unref();
  };

  /** Reloads the search index after a published run (a targeted run's answer does not wait for it: its index is written after its pages went live). */
  async function reloadSearch(result: PrerenderResult): Promise<void> {
    if (!result.releaseId || !opts.onPublished) return;
    const reload = () => opts.onPublished!().catch((err) => log.error(`the new search index could not be loaded, the old one keeps serving: ${(err as Error).message}`));
    const written = thread?.searchWrittenFor(result);
    if (written && result.searchAfterPublish) void written.then(reload);
    else await (written ?? Promise.resolve()).then(reload);
  }

  /** One revalidation on this instance (queued behind a running one). */
  async function runHere(force: RevalidateRequest): Promise<PrerenderResult> {
    const result = await schedule(force);
    if (result.scope === 'targeted' && safetyNetMs > 0) armSafetyNet();
    if (result.releaseId && opts.untilServed) await opts.untilServed(result.releaseId);
    await reloadSearch(result);
    return result;
  }

  const shared = opts.shared?.(runHere) ?? null;
  /** One revalidation: through the shared queue when there is one, else here. */
  const run = (force: RevalidateRequest): Promise<PrerenderResult> => (shared ? shared.run(force) : runHere(force));

  return {
    route: revalidateRoute({ secret: () => opts.env.REVALIDATE_SECRET, distDir: opts.distDir, run }),
    run,
    close: () => {
      void shared?.close();
      if (safetyNet) clearTimeout(safetyNet);
      thread?.close();
    },
  };
}
