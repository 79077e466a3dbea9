// Runs one incremental prerender in a worker thread, so the server keeps serving meanwhile.
import { parentPort, workerData } from 'node:worker_threads';
import { prerender, type PrerenderOptions } from './run.ts';
import { runWithRequestContext } from '../../lib/log/index.ts';

const { reqId, ...opts } = workerData as Omit<PrerenderOptions, 'onProgress'> & { reqId?: string };
try {
  const result = await (reqId ? runWithRequestContext({ reqId }, () => prerender(opts)) : prerender(opts));
  parentPort!.postMessage({ ok: true, result });
} catch (err) {
  parentPort!.postMessage({ ok: false, error: (err as Error).message });
}
