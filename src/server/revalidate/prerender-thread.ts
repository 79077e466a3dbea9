import { Worker } from 'node:worker_threads';
import type { ServerEnv } from '../boot/env.ts';
import type { PrerenderResult } from '../prerender/run.ts';
import { currentRequestId } from '../../lib/log/index.ts';
import { runFailureError, type RunFailure } from './revalidate-failure.ts';
import type { RevalidateRequest } from './revalidate-endpoint.ts';

/** Young generation of the prerender thread (see where it is started). */
const PRERENDER_YOUNG_GENERATION_MB = 96;

type ThreadMessage = { ok: boolean; result?: PrerenderResult; error?: string; failure?: RunFailure } | { event: 'search-written'; run: number };

/**
 * The prerender thread of the revalidation: started on the first run (or at once with `start`) and
 * kept, so the built App stays loaded; one run at a time (the caller queues). A crashed thread
 * fails its run and is replaced on the next one.
 */
export function prerenderThread(opts: { distDir: string; env: ServerEnv }) {
  let worker: Worker | null = null;
  let pending: { resolve(r: PrerenderResult): void; reject(err: Error): void } | null = null;
  /** Per run: settled when it has written its search index (see `searchWrittenFor`). */
  const searchWritten = new Map<number, () => void>();
  const searchOf = new WeakMap<PrerenderResult, Promise<void>>();
  let runs = 0;

  const settle = (outcome: (p: NonNullable<typeof pending>) => void) => {
    const p = pending;
    pending = null;
    if (p) outcome(p);
  };

  const onMessage = (m: ThreadMessage) => {
    if ('event' in m) {
      searchWritten.get(m.run)?.();
      searchWritten.delete(m.run);
      return;
    }
    // The error's fields (which service, down or not) survive the thread: the answer names them.
    settle((p) => (m.ok ? p.resolve(m.result!) : p.reject(runFailureError(m.failure ?? { message: m.error ?? 'the prerender failed' }))));
  };

  const thread = (): Worker => {
    if (worker) return worker;
    const w = new Worker(new URL('../prerender/revalidation-thread.ts', import.meta.url), {
      workerData: { distDir: opts.distDir, env: opts.env, mode: opts.env.PRERENDER_HOSTS, port: Number(opts.env.PUBLIC_PORT ?? opts.env.PORT) },
      // A run's collect parses and builds tens of MB of short-lived records: with V8's default
      // young generation (16 MB semi-spaces) a quarter of it was garbage collection. 96 MB made
      // the 10k-route collect of bench:prerender ~30 % faster (1.55 → 1.03 s; 48 MB: 1.23, 192 MB: 1.04).
      resourceLimits: { maxYoungGenerationSizeMb: PRERENDER_YOUNG_GENERATION_MB },
    });
    w.on('message', onMessage);
    const gone = (err: Error) => {
      if (worker === w) worker = null;
      settle((p) => p.reject(err));
    };
    w.once('error', gone);
    w.once('exit', (code) => gone(new Error(`the prerender thread exited (${code})`)));
    w.unref();
    worker = w;
    return w;
  };

  const run = (force: RevalidateRequest) => new Promise<PrerenderResult>((resolve, reject) => {
    const runId = ++runs;
    const written = new Promise<void>((r) => { searchWritten.set(runId, r); });
    pending = {
      resolve: (result) => {
        if (result.releaseId) searchOf.set(result, written);
        else searchWritten.delete(runId);
        resolve(result);
      },
      reject: (err) => { searchWritten.delete(runId); reject(err); },
    };
    // The thread's lines carry the id of the request that started the run.
    thread().postMessage({ force: { ids: force.ids, slugs: force.slugs, all: force.all }, records: force.records, reqId: currentRequestId(), run: runId });
  });

  return {
    start: () => { thread(); },
    run,
    /** Settles when the run that gave `result` has written its search index (undefined for a run of another source). */
    searchWrittenFor: (result: PrerenderResult): Promise<void> | undefined => searchOf.get(result),
    close: () => {
      if (worker) void worker.terminate();
      worker = null;
    },
  };
}
