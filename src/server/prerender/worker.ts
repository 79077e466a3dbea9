// The revalidation's prerender thread: runs one incremental prerender per message, one after
// another, so the server keeps serving meanwhile. It lives as long as the server: the built App
// and the prerender's modules are loaded once, not per webhook.
import { parentPort, workerData } from 'node:worker_threads';
import { loadEntry, prerender, type PrerenderOptions } from './run.ts';
import { runWithRequestContext } from '../../lib/log/index.ts';

type Base = Omit<PrerenderOptions, 'onProgress' | 'force' | 'records'>;
export interface RunMessage { force: PrerenderOptions['force']; records?: PrerenderOptions['records']; reqId?: string }

const base = workerData as Base;
// Loaded while the thread waits for its first run (a failure shows when a run needs it).
try {
  loadEntry(base.distDir).catch(() => undefined);
} catch {
  // No built app (yet): the run reports it.
}

parentPort!.on('message', async ({ force, records, reqId }: RunMessage) => {
  const opts: PrerenderOptions = { ...base, force, ...(records?.length ? { records } : {}) };
  try {
    const result = await (reqId ? runWithRequestContext({ reqId }, () => prerender(opts)) : prerender(opts));
    parentPort!.postMessage({ ok: true, result });
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: (err as Error).message });
  }
});
