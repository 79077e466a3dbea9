import { Worker } from 'node:worker_threads';
import { RenderSlots } from '../delivery/render-slots.ts';
import { getLogger } from '../../lib/log/index.ts';
import type { WireRequest, WireResponse } from './wire.ts';

const log = getLogger('render-pool');

export type ToWorker = { id: number; request: WireRequest; reqId?: string };
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'done'; id: number; response: WireResponse }
  | { kind: 'failed'; id: number; message: string; unavailable: boolean };

export interface RenderPoolOptions {
  distDir: string;
  /** Render threads (at least 1). */
  threads: number;
  /** Renders in flight per thread: a render mostly waits for the content hub, so a thread overlaps several. */
  perThread?: number;
  /** Requests that may wait for a place; one more is told 'busy' at once. */
  maxQueue?: number;
  /** Longest wait for a place before 'busy'. */
  waitMs?: number;
  /** Longest render: past it the thread is replaced and its requests fail (a hung render never holds a visitor forever). */
  timeoutMs?: number;
  /** A module exporting `app` to load instead of the built entry (tests). */
  entryFile?: string;
}

/**
 * The Node options of a render thread: this process's, but those only a main script may take (a
 * server started as `node --input-type=module -e …`, as the benches do: a thread given
 * `--input-type` fails to start, and the code of `-e` is not its own).
 */
export function threadExecArgv(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i]!;
    if (a.startsWith('--input-type')) continue;
    if (a === '-e' || a === '--eval' || a === '-p' || a === '--print') {
      i++;
      continue;
    }
    if (/^--(?:eval|print)=/.test(a)) continue;
    out.push(a);
  }
  return out;
}

/** A render that did not give an answer: the thread crashed, hung or the App threw. */
export class RenderFailed extends Error {
  /** An upstream service was down (the App's own 503 reason): the error page says 503. */
  readonly unavailable: boolean;
  constructor(message: string, unavailable = false) {
    super(message);
    this.name = 'RenderFailed';
    this.unavailable = unavailable;
  }
}

interface Pending {
  resolve: (r: WireResponse) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  ready: boolean;
  gone: boolean;
}

/**
 * Long-lived render threads of a Node instance (on-demand pages): each loads the built App once
 * (like the prerender's render threads, prerender/render-pool.ts, which live for one run) and
 * renders what it is sent. Places are bounded with the image renders' {@link RenderSlots}: at most
 * threads × perThread renders in flight, at most maxQueue waiting, and whoever finds it full is
 * told 'busy' (the server answers 503 with Retry-After). A thread that exits or errs is replaced;
 * its requests fail with {@link RenderFailed} instead of hanging.
 */
export class RenderPool {
  readonly threads: number;
  private readonly opts: Required<Omit<RenderPoolOptions, 'entryFile'>> & Pick<RenderPoolOptions, 'entryFile'>;
  private readonly slots: RenderSlots;
  private readonly live: Thread[] = [];
  private nextId = 1;
  private closed = false;
  /** Threads started so far (the first ones and every replacement), for tests and the log. */
  started = 0;

  constructor(opts: RenderPoolOptions) {
    const threads = Math.max(1, Math.floor(opts.threads));
    const perThread = opts.perThread ?? 8;
    this.opts = { perThread, maxQueue: 64 * threads, waitMs: 10_000, timeoutMs: 30_000, ...opts, threads };
    this.threads = threads;
    this.slots = new RenderSlots({ concurrency: threads * perThread, maxQueue: this.opts.maxQueue, waitMs: this.opts.waitMs });
    for (let i = 0; i < threads; i++) this.live.push(this.spawn());
  }

  /** Threads that have loaded the App. */
  get readyThreads(): number {
    return this.live.filter((t) => t.ready && !t.gone).length;
  }

  /** Renders in flight and waiting now. */
  get load(): { active: number; waiting: number } {
    return { active: this.slots.active, waiting: this.slots.waiting };
  }

  private spawn(): Thread {
    this.started++;
    const options = { workerData: { distDir: this.opts.distDir, entryFile: this.opts.entryFile } };
    let worker: Worker;
    try {
      worker = new Worker(new URL('./worker.ts', import.meta.url), { ...options, execArgv: threadExecArgv(process.execArgv) });
    } catch (err) {
      // A V8 option of the process (--max-old-space-size …) that a thread may not take: none then.
      if ((err as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw err;
      worker = new Worker(new URL('./worker.ts', import.meta.url), { ...options, execArgv: [] });
    }
    const thread: Thread = { worker, pending: new Map(), ready: false, gone: false };
    worker.on('message', (m: FromWorker) => {
      if (m.kind === 'ready') {
        thread.ready = true;
        return;
      }
      const p = thread.pending.get(m.id);
      if (!p) return;
      thread.pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.kind === 'done') p.resolve(m.response);
      else p.reject(new RenderFailed(m.message, m.unavailable));
    });
    const lost = (why: string) => {
      if (thread.gone) return;
      thread.gone = true;
      for (const p of thread.pending.values()) {
        clearTimeout(p.timer);
        p.reject(new RenderFailed(`render thread ${why}`));
      }
      thread.pending.clear();
      const i = this.live.indexOf(thread);
      if (this.closed || i === -1) return;
      log.error(`a render thread ${why}: replaced`);
      // A thread that died before it was ready (no built app, a broken entry) is not restarted
      // in a tight loop: the next one starts a second later, its requests go to the others.
      if (thread.ready) this.live[i] = this.spawn();
      else setTimeout(() => { if (!this.closed) this.live[i] = this.spawn(); }, 1000).unref();
    };
    worker.on('error', (err) => lost(`failed: ${err.message}`));
    worker.on('exit', (code) => lost(`exited (${code})`));
    return thread;
  }

  /** The answer of the App to a request, 'busy' when the queue is full, or a {@link RenderFailed}. */
  async render(request: WireRequest, reqId?: string): Promise<WireResponse | 'busy'> {
    if (this.closed) throw new RenderFailed('the render pool is closed');
    const release = await this.slots.acquire();
    if (release === 'busy') return 'busy';
    try {
      return await this.send(request, reqId);
    } finally {
      release();
    }
  }

  private send(request: WireRequest, reqId?: string): Promise<WireResponse> {
    const candidates = this.live.filter((t) => !t.gone);
    if (!candidates.length) return Promise.reject(new RenderFailed('no render thread is running'));
    // The thread with the fewest renders in flight (a ready one before one still loading the App).
    const thread = candidates.reduce((best, t) => (Number(!t.ready) * 1e6 + t.pending.size < Number(!best.ready) * 1e6 + best.pending.size ? t : best));
    const id = this.nextId++;
    return new Promise<WireResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A render past its time: the thread may be stuck in a loop, so it goes (and its other requests with it).
        log.error(`a render took longer than ${this.opts.timeoutMs} ms: ${request.method} ${request.url}`);
        void thread.worker.terminate();
      }, this.opts.timeoutMs);
      timer.unref();
      thread.pending.set(id, { resolve, reject, timer });
      const message: ToWorker = { id, request, ...(reqId ? { reqId } : {}) };
      thread.worker.postMessage(message);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.live.map((t) => t.worker.terminate()));
  }
}
