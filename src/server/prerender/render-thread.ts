// A render thread of the prerender: loads the built App once, then renders the chunks it is sent.
import { parentPort, workerData } from 'node:worker_threads';
import { loadEntry } from './run.ts';
import { renderOne, type RenderJob, type RenderOutcome } from './render-one.ts';
import { runWithRequestContext } from '../../lib/log/index.ts';
import { installSyncDigest } from './sync-digest.ts';

const { distDir, system, releaseId, concurrency, reqId } = workerData as { distDir: string; system: Parameters<typeof renderOne>[2]['system']; releaseId: string; concurrency: number; reqId?: string };
installSyncDigest();
const { app } = await loadEntry(distDir);

// Lines logged while rendering carry the id of the request that started the prerender (a revalidation).
parentPort!.on('message', (jobs: RenderJob[]) => (reqId ? runWithRequestContext({ reqId }, () => renderChunk(jobs)) : renderChunk(jobs)));

async function renderChunk(jobs: RenderJob[]) {
  const outcomes: RenderOutcome[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, async () => {
    while (next < jobs.length) outcomes.push(await renderOne(app, jobs[next++]!, { system, releaseId }));
  }));
  parentPort!.postMessage(outcomes);
}
parentPort!.postMessage('ready');
