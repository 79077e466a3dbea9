import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SystemData } from '../../site/types.ts';
import { renderOne, type RenderApp, type RenderJob, type RenderOutcome } from './render-one.ts';
import { currentRequestId } from '../../lib/log/index.ts';
import { installSyncDigest } from './sync-digest.ts';

/** Below this many routes a second thread costs more (loading the App) than it saves. */
const THREAD_THRESHOLD = 400;
const CHUNK = 40;

export interface PoolOptions {
  app: RenderApp;
  distDir: string;
  system: SystemData;
  releaseId: string;
  /** Routes in flight per thread (overlaps rendering with file writes). */
  concurrency?: number;
  /** Render threads including this one; defaults to the machine's cores. */
  threads?: number;
  onOutcome: (o: RenderOutcome) => void;
  /** Node options of the worker threads (the bench profiles them with `--cpu-prof`). */
  workerExecArgv?: string[];
}

/**
 * Renders jobs on this thread and, for large sets, on extra worker threads (one per further
 * core), each with its own copy of the App. Chunks are handed out as threads finish, so a slow
 * thread never holds the others up.
 */
export async function renderAll(jobs: RenderJob[], opts: PoolOptions): Promise<void> {
  const concurrency = opts.concurrency ?? 12;
  installSyncDigest();
  const shared = { system: opts.system, releaseId: opts.releaseId };
  const threads = jobs.length < THREAD_THRESHOLD ? 1 : Math.max(1, opts.threads ?? availableParallelism());
  let next = 0;
  const take = () => {
    const chunk = jobs.slice(next, next + CHUNK);
    next += chunk.length;
    return chunk;
  };

  const local = async () => {
    let chunk = take();
    while (chunk.length) {
      let i = 0;
      await Promise.all(Array.from({ length: Math.min(concurrency, chunk.length) }, async () => {
        while (i < chunk.length) opts.onOutcome(await renderOne(opts.app, chunk[i++]!, shared));
      }));
      chunk = take();
    }
  };

  const remote = () => new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL('./render-thread.ts', import.meta.url), {
      workerData: { distDir: opts.distDir, system: opts.system, releaseId: opts.releaseId, concurrency, reqId: currentRequestId() },
      ...(opts.workerExecArgv ? { execArgv: [...process.execArgv, ...opts.workerExecArgv] } : {}),
    });
    const send = () => {
      const chunk = take();
      if (chunk.length) worker.postMessage(chunk);
      else void worker.terminate().then(() => resolve());
    };
    worker.on('message', (m: 'ready' | RenderOutcome[]) => {
      if (m !== 'ready') for (const o of m) opts.onOutcome(o);
      send();
    });
    worker.once('error', reject);
  });

  await Promise.all([local(), ...Array.from({ length: threads - 1 }, remote)]);
}
