// A render thread of the prerender: loads the built App once, then renders the chunks it is sent.
import { parentPort, workerData } from 'node:worker_threads';
import { loadEntry } from './run.ts';
import { renderOne, type RenderJob, type RenderOutcome } from './render-one.ts';

const { distDir, system, releaseId, concurrency } = workerData as { distDir: string; system: Parameters<typeof renderOne>[2]['system']; releaseId: string; concurrency: number };
const { app } = await loadEntry(distDir);

parentPort!.on('message', async (jobs: RenderJob[]) => {
  const outcomes: RenderOutcome[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, async () => {
    while (next < jobs.length) outcomes.push(await renderOne(app, jobs[next++]!, { system, releaseId }));
  }));
  parentPort!.postMessage(outcomes);
});
parentPort!.postMessage('ready');
