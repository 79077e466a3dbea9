import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import * as v from 'valibot';
import type { ServerEnv } from '../boot/env.ts';
import { givenSecret, secretMatches } from './secret.ts';
import type { PrerenderResult } from '../prerender/run.ts';
import { currentRequestId, getLogger } from '../../lib/log/index.ts';
import { readPointer } from '../release/release.ts';
import { revalidationFailureAnswer, runFailureError, type RunFailure } from './revalidate-failure.ts';
import { bodyRefusal, checkBodyHeaders, JSON_TYPE, readBoundedText } from '../../lib/http/body.ts';
import { rateLimited, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { rateLimiter } from '../../lib/http/rate-limit.ts';
import { issueMessage } from '../../lib/http/input.ts';
import { mergeRevalidations, type SharedRevalidation } from '../cluster/revalidation.ts';
import { clientAddress } from '../http/client-address.ts';

/** Young generation of the prerender thread (see where it is started). */
const PRERENDER_YOUNG_GENERATION_MB = 96;

const log = getLogger('revalidate');

const MAX_BODY = 64 * 1024;

/**
 * POST /api/revalidate's declared limits: JSON of at most 64 KiB (or no body); a content hub's
 * webhook fires once per publish, so 60 requests per client and minute with the right secret.
 */
export const REVALIDATE_LIMITS: EndpointLimits = { body: { maxBytes: MAX_BODY, types: [JSON_TYPE] }, rateLimit: { limit: 60, windowMs: 60_000 } };

/**
 * Requests with a missing or wrong secret count against a budget of their own per client, 10 a
 * minute (it slows down guessing the secret): they cannot use up the budget of the right secret,
 * so a client guessing from the content hub's address (a shared egress) does not block its webhooks.
 */
export const WRONG_SECRET_LIMIT = { limit: 10, windowMs: 60_000 } as const;

export const RevalidateBody = v.strictObject({
  ids: v.optional(v.pipe(v.array(v.pipe(v.string(), v.nonEmpty('ids must not contain empty strings'), v.maxLength(64))), v.maxLength(1000, 'At most 1000 ids'))),
  slugs: v.optional(v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'slugs must be lowercase-kebab'), v.maxLength(120))), v.maxLength(1000, 'At most 1000 slugs'))),
  all: v.optional(v.boolean('all must be true or false')),
  /** The changed records, as a headless CMS webhook names them: only what they affect is collected. */
  records: v.optional(v.pipe(v.array(v.object({
    model: v.pipe(v.string('records[].model must be a string'), v.nonEmpty('records[].model must not be empty'), v.maxLength(64)),
    id: v.pipe(v.string('records[].id must be a string'), v.nonEmpty('records[].id must not be empty'), v.maxLength(64)),
    stage: v.optional(v.pipe(v.string('records[].stage must be a string'), v.maxLength(32))),
  })), v.maxLength(1000, 'At most 1000 records'))),
});
export type RevalidateRequest = v.InferOutput<typeof RevalidateBody>;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).end(JSON.stringify(body));
}

/** The node request as a fetch Request (its body streamed, not read), for the shared bounded readers of src/lib/http/body.ts. */
function asRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  return new Request('http://localhost/api/revalidate', { method: 'POST', headers, body: req as unknown as BodyInit, duplex: 'half' } as RequestInit);
}

/** Sends a Response built by the shared helpers (413, 415, 429) on the node response. */
async function send(res: ServerResponse, answer: Response): Promise<void> {
  res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(await answer.text());
}

/**
 * POST /api/revalidate (shared secret in `x-revalidate-secret` or `Authorization: Bearer`):
 * runs the incremental prerender in a worker for the given page ids or slugs (re-rendered even if
 * unchanged), or for everything, and answers with what it did. Runs never overlap; a request
 * that arrives during a run waits for the next one. With `shared` (several instances, REDIS_URL)
 * every request goes through the shared queue, whose one writer runs them (cluster/revalidation.ts).
 */
export function createRevalidation(opts: {
  distDir: string;
  env: ServerEnv;
  onPublished?: () => Promise<void>;
  /** Runs one prerender; a worker thread by default (tests pass a fake). */
  runPrerender?: (force: RevalidateRequest) => Promise<PrerenderResult>;
  /**
   * After a targeted run (named records), a full run follows this long after the last one: the
   * safety net for what the named records could not tell (targets.ts). 0 turns it off.
   */
  safetyNetMs?: number;
  /** The shared queue over this instance's own run (several instances); without it, runs are this instance's alone. */
  shared?: (runHere: (force: RevalidateRequest) => Promise<PrerenderResult>) => SharedRevalidation;
}) {
  const safetyNetMs = opts.safetyNetMs ?? 60_000;
  let safetyNet: NodeJS.Timeout | null = null;
  let running: Promise<PrerenderResult> | null = null;
  let queued: { force: RevalidateRequest; promise: Promise<PrerenderResult> } | null = null;
  /** The prerender thread: started on the first run and kept (the App stays loaded); one run at a time. */
  let worker: Worker | null = null;
  let pending: { resolve(r: PrerenderResult): void; reject(err: Error): void } | null = null;
  /** Per worker run: settled when it has written its search index (see `run`). */
  const searchWritten = new Map<number, () => void>();
  const searchOf = new WeakMap<PrerenderResult, Promise<void>>();
  let runs = 0;
  const prerenderThread = (): Worker => {
    if (worker) return worker;
    const w = new Worker(new URL('../prerender/revalidation-thread.ts', import.meta.url), {
      workerData: { distDir: opts.distDir, env: opts.env, mode: opts.env.PRERENDER_HOSTS, port: Number(opts.env.PUBLIC_PORT ?? opts.env.PORT) },
      // A run's collect parses and builds tens of MB of short-lived records: with V8's default
      // young generation (16 MB semi-spaces) a quarter of it was garbage collection. 96 MB made
      // the 10k-route collect of bench:prerender ~30 % faster (1.55 → 1.03 s; 48 MB: 1.23, 192 MB: 1.04).
      resourceLimits: { maxYoungGenerationSizeMb: PRERENDER_YOUNG_GENERATION_MB },
    });
    w.on('message', (m: { ok: boolean; result?: PrerenderResult; error?: string; failure?: RunFailure } | { event: 'search-written'; run: number }) => {
      if ('event' in m) {
        searchWritten.get(m.run)?.();
        searchWritten.delete(m.run);
        return;
      }
      const p = pending;
      pending = null;
      if (m.ok) p?.resolve(m.result!);
      // The error's fields (which service, down or not) survive the thread: the answer names them.
      else p?.reject(runFailureError(m.failure ?? { message: m.error ?? 'the prerender failed' }));
    });
    const gone = (err: Error) => {
      // A crashed thread is replaced on the next run.
      if (worker === w) worker = null;
      const p = pending;
      pending = null;
      p?.reject(err);
    };
    w.once('error', gone);
    w.once('exit', (code) => gone(new Error(`the prerender thread exited (${code})`)));
    w.unref();
    worker = w;
    return w;
  };

  // Started with the server when revalidation is configured: the first webhook finds the App loaded.
  if (!opts.runPrerender && opts.env.REVALIDATE_SECRET) prerenderThread();

  const runWorker = (force: RevalidateRequest) => new Promise<PrerenderResult>((resolve, reject) => {
    const runId = ++runs;
    const written = new Promise<void>((r) => { searchWritten.set(runId, r); });
    pending = {
      resolve: (result) => {
        if (result.releaseId) searchOf.set(result, written);
        else searchWritten.delete(runId);
        resolve(result);
      },
      reject: (err) => { searchWritten.delete(runId); reject(err); },
    };
    // The thread's lines carry the id of the request that started the run.
    prerenderThread().postMessage({ force: { ids: force.ids, slugs: force.slugs, all: force.all }, records: force.records, reqId: currentRequestId(), run: runId });
  });

  const schedule = (force: RevalidateRequest): Promise<PrerenderResult> => {
    if (!running) {
      running = (opts.runPrerender ?? runWorker)(force).finally(() => { running = null; });
      return running;
    }
    if (!queued) {
      const after = running.catch(() => undefined);
      const entry = { force: { ...force }, promise: undefined as unknown as Promise<PrerenderResult> };
      entry.promise = after.then(() => { queued = null; return schedule(entry.force); });
      queued = entry;
      return entry.promise;
    }
    // Merge into the queued run.
    queued.force = mergeRevalidations(queued.force, force);
    return queued.promise;
  };

  /** One revalidation on this instance (queued behind a running one); the search index is reloaded when it published. */
  async function runHere(force: RevalidateRequest): Promise<PrerenderResult> {
    const result = await schedule(force);
    if (result.scope === 'targeted' && safetyNetMs > 0) {
      if (safetyNet) clearTimeout(safetyNet);
      safetyNet = setTimeout(() => {
        safetyNet = null;
        run({}).catch((err) => log.error(`the full run after targeted revalidations failed: ${(err as Error).message}`));
      }, safetyNetMs);
      safetyNet.unref();
    }
    if (result.releaseId && opts.onPublished) {
      const reload = () => opts.onPublished!().catch((err) => log.error(`the new search index could not be loaded, the old one keeps serving: ${(err as Error).message}`));
      const written = searchOf.get(result);
      // A targeted run writes the search index after its pages went live: the answer does not wait for it.
      if (written && result.searchAfterPublish) void written.then(reload);
      else await (written ?? Promise.resolve()).then(reload);
    }
    return result;
  }

  const shared = opts.shared?.(runHere) ?? null;
  /** One revalidation: through the shared queue when there is one, else here. */
  const run = (force: RevalidateRequest): Promise<PrerenderResult> => (shared ? shared.run(force) : runHere(force));

  const limiter = rateLimiter({ ...REVALIDATE_LIMITS.rateLimit!, name: 'revalidate' });
  const wrongLimiter = rateLimiter({ ...WRONG_SECRET_LIMIT, name: 'revalidate-wrong-secret' });

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (url.pathname !== '/api/revalidate') return false;
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      json(res, 405, { error: 'method-not-allowed', message: 'Use POST' });
      return true;
    }
    const secret = opts.env.REVALIDATE_SECRET;
    // Constant time (secret.ts): which budget a request counts against tells nothing of the secret but whether it matched, as the 401 does.
    const authorized = secretMatches(givenSecret(req.headers), secret);
    const hit = await (authorized ? limiter : wrongLimiter).hit(clientAddress(req) ?? 'unknown');
    if (!hit.allowed) {
      await send(res, rateLimited(hit.retryAfterSeconds));
      return true;
    }
    if (!secret) {
      json(res, 503, { error: 'unavailable', message: 'Revalidation is not configured: set REVALIDATE_SECRET' });
      return true;
    }
    if (!authorized) {
      json(res, 401, { error: 'unauthorized', message: 'Missing or wrong revalidation secret' });
      return true;
    }
    const request = asRequest(req);
    const refused = checkBodyHeaders(request, REVALIDATE_LIMITS.body);
    if (refused) {
      await send(res, bodyRefusal(refused, REVALIDATE_LIMITS.body));
      return true;
    }
    const text = await readBoundedText(request, MAX_BODY);
    if (text === null) {
      await send(res, bodyRefusal('too-large', REVALIDATE_LIMITS.body));
      return true;
    }
    let body: unknown = {};
    try {
      body = text.trim() ? JSON.parse(text) : {};
    } catch {
      json(res, 400, { error: 'bad-request', message: 'Malformed body: not JSON' });
      return true;
    }
    if (Array.isArray(body)) {
      json(res, 400, { error: 'bad-request', message: 'Invalid body: the body must be a JSON object' });
      return true;
    }
    const parsed = v.safeParse(RevalidateBody, body);
    if (!parsed.success) {
      // The one error shape (`{ error, message }`), in the wording every endpoint uses.
      json(res, 400, { error: 'bad-request', message: `Invalid body: ${v.getDotPath(parsed.issues[0]) ?? 'body'}: ${issueMessage(parsed.issues).message}` });
      return true;
    }
    try {
      const result = await run(parsed.output);
      log.info(`${result.rendered} rendered, ${result.unchanged} unchanged, ${result.removed} removed in ${result.seconds.toFixed(2)} s`);
      json(res, 200, result);
    } catch (err) {
      // The details (upstream texts, paths) go to the log; the answer says what happened in our words.
      const live = readPointer(join(opts.distDir, 'static'));
      const answer = revalidationFailureAnswer(err, live);
      log.error(`failed, the previous release ${live ?? '(none)'} stays live: ${(err as Error).message}`);
      for (const [k, val] of Object.entries(answer.headers)) res.setHeader(k, val);
      json(res, answer.status, answer.body);
    }
    return true;
  }

  return {
    route,
    run,
    close: () => {
      void shared?.close();
      if (safetyNet) clearTimeout(safetyNet);
      if (worker) void worker.terminate();
      worker = null;
    },
  };
}
