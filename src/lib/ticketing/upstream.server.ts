import { fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { describeFetchFailure, dispatcherFor } from '../http/timeouts.ts';
import { drainBody } from '../http/body.ts';
import { formatIdempotencyKey } from '../idempotency/key.ts';
import { getLogger } from '../log/index.ts';
import { MAX_ANSWER_BYTES } from './limits.ts';
import type { TicketingConfig } from './types.ts';

/**
 * The tickets proxy's calls to the ticketing service (server only): the GraphQL request forwarded
 * as a stream, and file downloads streamed back. Every call carries the user's identity token
 * (`x-identity-token`) and the configured debug level (`x-debug-level`, spec §7, §9).
 */

const log = getLogger('ticketing');

/** How long an upload may pause (no chunk from the visitor, or the service not taking any) before it is given up. */
export const UPLOAD_IDLE_MS = 30_000;

export type ForwardResult =
  /** The service answered: its status and body (JSON when it parsed, else null). */
  | { kind: 'answer'; status: number; body: unknown }
  /** The body passed `limit` while arriving: the upstream request was aborted. */
  | { kind: 'too-large'; limit: number }
  /** The service's answer passed `limit` (declared or while arriving): the call was aborted, nothing of it kept. */
  | { kind: 'answer-too-large'; limit: number }
  /** The visitor stopped sending the body (no chunk for the idle time): the upstream request was aborted before the service had all of it. */
  | { kind: 'stalled'; idleMs: number }
  /** No usable answer: unreachable, timed out, or not JSON with a 5xx. */
  | { kind: 'unavailable'; reason: string; timeout: boolean };

class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
}

/** The headers every call to the service carries. */
export function upstreamHeaders(config: TicketingConfig, token: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...extra, 'x-identity-token': token, 'x-debug-level': config.debugLevel };
}

/**
 * The visitor's body as a stream that counts what passes and fails once it passes `limit`. Pulled
 * only as fast as the service reads (back-pressure), so memory stays at a chunk or two.
 */
function limitedBody(source: ReadableStream<Uint8Array>, limit: number, hooks: { chunk(): void; end(): void; overflow(): void; waiting(on: boolean): void }): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let seen = 0;
  let finished = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      hooks.waiting(true);
      const { done, value } = await reader.read().finally(() => hooks.waiting(false));
      if (done) {
        finished = true;
        hooks.end();
        controller.close();
        return;
      }
      seen += value.byteLength;
      hooks.chunk();
      if (seen > limit) {
        finished = true;
        hooks.overflow();
        controller.error(new BodyTooLargeError(`The request body passed ${limit} bytes`));
        drainBody(reader, limit);
        return;
      }
      controller.enqueue(value);
    },
    cancel() {
      // The service stopped reading (it answered early, or the call failed): drop the rest.
      if (!finished) drainBody(reader, limit);
    },
  }, { highWaterMark: 0 });
}

/**
 * Forwards one GraphQL request (JSON or multipart) to the service without buffering it: the body
 * streams through as it arrives and the call is aborted the moment it passes `limit`. Timeouts:
 * the connection (UPSTREAM_CONNECT_TIMEOUT_MS); a JSON call as a whole (UPSTREAM_TIMEOUT_MS); an
 * upload may take as long as it keeps moving (a pause of UPLOAD_IDLE_MS ends it), and the answer
 * must come within UPSTREAM_TIMEOUT_MS after the last byte.
 */
export async function forwardGraphQL(config: TicketingConfig, req: {
  body: ReadableStream<Uint8Array> | null;
  contentType: string;
  token: string;
  limit: number;
  streaming: boolean;
  signal?: AbortSignal;
  /** Largest answer taken (default MAX_ANSWER_BYTES). */
  answerLimit?: number;
  /** The visitor's `Idempotency-Key` (already checked), passed on so that the service makes a retried write once. */
  idempotencyKey?: string;
}): Promise<ForwardResult> {
  const { timeoutMs, connectTimeoutMs } = config.timeouts;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;
  let tooLarge = false;
  // Whether the body is waiting for the visitor's next chunk (then a timeout is the visitor's stall, not the service's).
  let waitingForClient = false;
  let stalled = 0;
  const arm = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (waitingForClient) stalled = ms;
      else timedOut = true;
      controller.abort(new DOMException(`no progress within ${ms} ms`, 'TimeoutError'));
    }, ms);
  };
  const idleMs = config.uploadIdleMs ?? UPLOAD_IDLE_MS;
  arm(req.streaming ? Math.max(idleMs, timeoutMs) : timeoutMs);
  const body = req.body && limitedBody(req.body, req.limit, {
    chunk: () => { if (req.streaming) arm(Math.max(idleMs, timeoutMs)); },
    end: () => { if (req.streaming) arm(timeoutMs); },
    overflow: () => { tooLarge = true; controller.abort(new BodyTooLargeError(`over ${req.limit} bytes`)); },
    waiting: (on) => { waitingForClient = on; },
  });
  const signal = req.signal ? AbortSignal.any([req.signal, controller.signal]) : controller.signal;
  try {
    const res = await undiciFetch(config.endpoint, {
      method: 'POST',
      headers: upstreamHeaders(config, req.token, {
        'content-type': req.contentType,
        accept: 'application/graphql-response+json, application/json',
        ...(req.idempotencyKey ? { 'idempotency-key': formatIdempotencyKey(req.idempotencyKey) } : {}),
      }),
      body,
      duplex: 'half',
      signal,
      dispatcher: dispatcherFor(connectTimeoutMs),
    } as UndiciRequestInit);
    const text = await readAnswerText(res as unknown as Response, req.answerLimit ?? MAX_ANSWER_BYTES);
    if (text === null) {
      controller.abort(new BodyTooLargeError('answer too large'));
      return { kind: 'answer-too-large', limit: req.answerLimit ?? MAX_ANSWER_BYTES };
    }
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    if (parsed === null && res.status >= 500) return { kind: 'unavailable', reason: `the ticketing service answered ${res.status}`, timeout: false };
    return { kind: 'answer', status: res.status, body: parsed };
  } catch (err) {
    if (tooLarge) return { kind: 'too-large', limit: req.limit };
    if (stalled) return { kind: 'stalled', idleMs: stalled };
    if (timedOut) return { kind: 'unavailable', reason: 'the ticketing service did not answer in time', timeout: true };
    const failure = describeFetchFailure(err, config.timeouts);
    log.warn({ endpoint: config.endpoint, failure: failure.message }, 'ticketing call failed');
    return { kind: 'unavailable', reason: failure.message, timeout: failure.kind === 'timeout' };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The answer's body as text when it is at most `max` bytes, else null: a declared Content-Length
 * over it is refused before a byte is read, and a body without one is given up as soon as it
 * passes the limit (the stream is cancelled, what was read is dropped).
 */
export async function readAnswerText(res: Pick<Response, 'headers' | 'body'>, max: number): Promise<string | null> {
  const declared = res.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > max) {
    await res.body?.cancel().catch(() => {});
    return null;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      chunks.length = 0;
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export type FileResult =
  | { kind: 'file'; response: Response }
  | { kind: 'refused'; status: number }
  | { kind: 'unavailable'; reason: string };

/**
 * Opens a file of the service (`/attachments/{id}`, `/downloads/wire-flow/{package}/{version}`)
 * for streaming on: the connection and the start of the answer within the timeouts, then the
 * body as long as it keeps flowing (a pause of UPSTREAM_TIMEOUT_MS ends it).
 */
export async function openFile(config: TicketingConfig, path: string, token: string): Promise<FileResult> {
  const { timeoutMs, connectTimeoutMs } = config.timeouts;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  try {
    const res = await undiciFetch(new URL(path, config.endpoint), {
      headers: upstreamHeaders(config, token),
      signal: controller.signal,
      dispatcher: dispatcherFor(connectTimeoutMs, timeoutMs),
    });
    if (!res.ok) {
      await res.body?.cancel();
      if (res.status >= 500) return { kind: 'unavailable', reason: `the ticketing service answered ${res.status}` };
      return { kind: 'refused', status: res.status };
    }
    return { kind: 'file', response: res as unknown as Response };
  } catch (err) {
    const failure = describeFetchFailure(err, config.timeouts);
    log.warn({ path, failure: failure.message }, 'ticketing download failed');
    return { kind: 'unavailable', reason: failure.message };
  } finally {
    clearTimeout(timer);
  }
}
