// Runs one incremental prerender in a worker thread, so the server keeps serving meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import { prerender, type PrerenderOptions } from './run.ts';

const opts = workerData as Omit<PrerenderOptions, 'onProgress'>;
try {
  const result = await prerender(opts);
  parentPort!.postMessage({ ok: true, result });
} catch (err) {
  parentPort!.postMessage({ ok: false, error: (err as Error).message });
}
