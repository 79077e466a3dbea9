// The revalidation's prerender thread: runs one incremental prerender per message, one after
// another, so the server keeps serving meanwhile. It lives as long as the server: the built App
// and the prerender's modules are loaded once, not per webhook.
import { parentPort, workerData } from 'node:worker_threads';
import { loadEntry, prerender, type PrerenderOptions } from './run.ts';
import { runWithRequestContext } from '../../lib/log/index.ts';
import { runFailureOf, type RunFailure } from '../revalidate/revalidate-failure.ts';

type Base = Omit<PrerenderOptions, 'onProgress' | 'force' | 'records'>;
export interface RunMessage { force: PrerenderOptions['force']; records?: PrerenderOptions['records']; reqId?: string; run?: number }

const base = workerData as Base;
// Loaded while the thread waits for its first run (a failure shows when a run needs it).
try {
  loadEntry(base.distDir).catch(() => undefined);
} catch {
  // No built app (yet): the run reports it.
}

// Runs strictly one after another (a run's tail, the staging of the next link copy, still holds
// the lock after its answer went out: the next message waits for it).
let chain: Promise<void> = Promise.resolve();
parentPort!.on('message', (msg: RunMessage) => {
  chain = chain.then(() => runOne(msg));
});

async function runOne({ force, records, reqId, run }: RunMessage): Promise<void> {
  let answered = false;
  const answer = (m: { ok: boolean; result?: unknown; error?: string; failure?: RunFailure }) => {
    if (answered) return;
    answered = true;
    parentPort!.postMessage(m);
  };
  // Answered as soon as the release is live; the clean-up and staging follow.
  const opts: PrerenderOptions = {
    ...base, force, ...(records?.length ? { records } : {}),
    onPublished: (result) => answer({ ok: true, result }),
    // The server reloads its search index on this (after the answer when the run wrote it after the publish).
    onSearchWritten: () => parentPort!.postMessage({ event: 'search-written', run }),
  };
  try {
    const result = await (reqId ? runWithRequestContext({ reqId }, () => prerender(opts)) : prerender(opts));
    answer({ ok: true, result });
  } catch (err) {
    if (answered) console.error(`after the publish: ${(err as Error).message}`);
    answer({ ok: false, error: (err as Error).message, failure: runFailureOf(err) });
  }
}
