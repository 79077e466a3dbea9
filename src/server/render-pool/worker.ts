// A render thread of the server: loads the built App once, then renders the requests it is sent
// (several at a time: a render mostly waits for the content hub) and sends each answer back whole.
import { parentPort, workerData } from 'node:worker_threads';
import { installSyncDigest } from '../prerender/sync-digest.ts';
import { runWithRequestContext } from '../../lib/log/index.ts';
import { renderWire, type RenderApp, type WireRequest } from './wire.ts';
import type { FromWorker, ToWorker } from './pool.ts';

const { distDir, entryFile } = workerData as { distDir: string; entryFile?: string };
installSyncDigest();
// Tests hand a small stand-in App (entryFile); the server the built one.
const app = (entryFile
  ? ((await import(entryFile)) as { app: RenderApp }).app
  : (await (await import('../prerender/run.ts')).loadEntry(distDir)).app) as RenderApp;

const post = (m: FromWorker) => {
  if (m.kind === 'done') parentPort!.postMessage(m, [m.response.body.buffer as ArrayBuffer]);
  else parentPort!.postMessage(m);
};

parentPort!.on('message', (m: ToWorker) => {
  const render = async () => {
    try {
      post({ kind: 'done', id: m.id, response: await renderWire(app, m.request as WireRequest) });
    } catch (err) {
      post({ kind: 'failed', id: m.id, message: (err as Error)?.message ?? String(err), unavailable: (err as { unavailable?: boolean })?.unavailable === true });
    }
  };
  void (m.reqId ? runWithRequestContext({ reqId: m.reqId }, render) : render());
});
post({ kind: 'ready' });
