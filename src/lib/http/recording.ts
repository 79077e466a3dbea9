import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

/**
 * Records the calls to external services made inside a piece of work (the prerender's collect)
 * and asks them again later: when every call gets the same answer, the work would come out the
 * same, so it need not be done again. `timedFetch` (every service call of `src/lib/`) reports to
 * the recording of the work it runs in; outside one it costs nothing.
 */

/** One answered call: what was asked and a hash of the answer. */
export interface RecordedCall {
  url: string;
  method: string;
  /** Request headers, lower-case names, sorted. */
  headers: [string, string][];
  body: string;
  status: number;
  /** sha256 of the answer's bytes. */
  answer: string;
}

export interface CallRecording {
  calls: RecordedCall[];
  /** False once a call could not be recorded (a body that is not text): the recording proves nothing then. */
  complete: boolean;
}

const current = new AsyncLocalStorage<CallRecording>();

/** Runs `work` with every service call it makes recorded. */
export async function recordingCalls<T>(work: () => Promise<T>): Promise<{ result: T; recording: CallRecording }> {
  const recording: CallRecording = { calls: [], complete: true };
  const result = await current.run(recording, work);
  return { result, recording };
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);
const hashOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64url');

function headerPairs(headers: unknown): [string, string][] {
  const pairs = [...new Headers(headers as ConstructorParameters<typeof Headers>[0]).entries()];
  return pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A call's answer as the caller gets it, recorded when a recording is on: its body read once,
 * hashed, and handed on as a new answer with the same status and headers.
 */
export async function recordAnswer(url: string | URL, init: { method?: string; headers?: unknown; body?: unknown }, res: Response): Promise<Response> {
  const recording = current.getStore();
  if (!recording) return res;
  if (init.body != null && typeof init.body !== 'string') {
    recording.complete = false;
    return res;
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  recording.calls.push({
    url: String(url), method: (init.method ?? 'GET').toUpperCase(), headers: headerPairs(init.headers), body: init.body ?? '',
    status: res.status, answer: hashOf(bytes),
  });
  return new Response(NULL_BODY_STATUS.has(res.status) ? null : bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/**
 * Whether every call of a complete recording gets the same answer now (same status, same bytes).
 * Calls asked twice are asked once; the first difference or failure ends it (false). `send` makes
 * one call (the services' own fetch, with its timeouts). An empty recording proves nothing: false.
 */
export async function answersUnchanged(recording: CallRecording, send: (call: RecordedCall) => Promise<Response>, concurrency = 8): Promise<boolean> {
  if (!recording.complete || recording.calls.length === 0) return false;
  const unique = new Map<string, RecordedCall>();
  for (const c of recording.calls) unique.set(JSON.stringify([c.method, c.url, c.headers, c.body]), c);
  const calls = [...unique.values()];
  let next = 0;
  let same = true;
  const worker = async () => {
    while (same && next < calls.length) {
      const call = calls[next++]!;
      try {
        const res = await send(call);
        const bytes = new Uint8Array(await res.arrayBuffer());
        if (res.status !== call.status || hashOf(bytes) !== call.answer) same = false;
      } catch {
        same = false;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, calls.length) }, worker));
  return same;
}
