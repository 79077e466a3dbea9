/**
 * A worker thread of {@link buildIndexFiles}: builds the index files of the groups it is given,
 * posting each file as it is done (its buffer transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildIndex, wordAnalysis, type BuildJob, type BuildReply } from './embedded.ts';
import type { Language } from './analysis.ts';

const port = parentPort!;
const analyses = new Map<Language, (word: string) => string | null>();
try {
  for (const job of (workerData as { jobs: BuildJob[] }).jobs) {
    let analysis = analyses.get(job.language);
    if (!analysis) analyses.set(job.language, (analysis = wordAnalysis(job.language)));
    const built = buildIndex(job.site, job.language, job.docs, analysis);
    // A small Buffer lives in Node's shared pool: transferring that would take the pool away.
    const bytes = built.byteOffset === 0 && built.byteLength === built.buffer.byteLength ? built : new Uint8Array(built);
    port.postMessage({ key: job.key, bytes } satisfies BuildReply, [bytes.buffer as ArrayBuffer]);
  }
} catch (err) {
  port.postMessage({ error: (err as Error).message } satisfies BuildReply);
}
