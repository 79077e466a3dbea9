import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { recordAnswer, type RecordedCall } from './recording.ts';

/**
 * How long a call to an external service may take: `connectTimeoutMs` to open the connection,
 * `timeoutMs` for the whole call (connect, request and the complete answer). Set from
 * UPSTREAM_CONNECT_TIMEOUT_MS and UPSTREAM_TIMEOUT_MS (src/server/boot/env.ts); these defaults apply
 * where a config names none.
 */
export interface UpstreamTimeouts {
  connectTimeoutMs?: number;
  timeoutMs?: number;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 2000;
export const DEFAULT_TIMEOUT_MS = 5000;

export function resolveTimeouts(t: UpstreamTimeouts | undefined): Required<UpstreamTimeouts> {
  return { connectTimeoutMs: t?.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, timeoutMs: t?.timeoutMs ?? DEFAULT_TIMEOUT_MS };
}

const agents = new Map<string, Agent>();
/**
 * One connection pool per connect timeout (undici's own connect timeout aborts a hanging
 * handshake); `bodyIdleMs` limits the pause between two chunks of a streamed body.
 */
export function dispatcherFor(connectTimeoutMs: number, bodyIdleMs?: number): Agent {
  const key = `${connectTimeoutMs}|${bodyIdleMs ?? ''}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({ connect: { timeout: connectTimeoutMs }, ...(bodyIdleMs ? { bodyTimeout: bodyIdleMs } : {}) });
    agents.set(key, agent);
  }
  return agent;
}

/** Why a call failed, in words a log reader understands, and whether the service is to blame (down, slow). */
export type FailureKind = 'timeout' | 'unreachable';

/**
 * Names the failure of a fetch that threw (it never answered): a total timeout, a connect
 * timeout, or a connection failure (refused, reset, DNS) with its cause.
 */
export function describeFetchFailure(err: unknown, t: Required<UpstreamTimeouts>): { kind: FailureKind; message: string } {
  const e = err as { name?: string; message?: string; code?: string; cause?: { name?: string; message?: string; code?: string } };
  if (e?.name === 'TimeoutError') return { kind: 'timeout', message: `no answer within ${t.timeoutMs} ms` };
  const cause = e?.cause;
  if (cause?.code === 'UND_ERR_CONNECT_TIMEOUT' || cause?.name === 'ConnectTimeoutError') {
    return { kind: 'timeout', message: `could not connect within ${t.connectTimeoutMs} ms` };
  }
  if (cause?.name === 'TimeoutError') return { kind: 'timeout', message: `no answer within ${t.timeoutMs} ms` };
  const detail = cause?.message || cause?.code || e?.message || String(err);
  return { kind: 'unreachable', message: detail };
}

/**
 * The connection closed under the request before an answer came: typically a kept-alive
 * connection the service was closing just as the request went out (each side's idle timer fired
 * together), or a reset. A request that is safe to repeat may be sent once more on a new
 * connection; a refused connection (the service is down) is not this.
 */
export function isConnectionClosed(err: unknown): boolean {
  const code = (err as { cause?: { code?: string } } | null)?.cause?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
}

/**
 * `fetch` with both timeouts: the connect timeout on the connection pool, the total timeout as
 * an abort signal that also covers reading the body (combined with the caller's own signal).
 */
export async function timedFetch(url: string | URL, init: RequestInit & { signal?: AbortSignal | null } = {}, timeouts?: UpstreamTimeouts): Promise<Response> {
  const t = resolveTimeouts(timeouts);
  const deadline = AbortSignal.timeout(t.timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
  const res = (await undiciFetch(url, { ...(init as UndiciRequestInit), signal, dispatcher: dispatcherFor(t.connectTimeoutMs) })) as unknown as Response;
  // Inside a recording (the prerender's collect, see recording.ts) the answer is recorded.
  return recordAnswer(url, init, res);
}

/** A recorded call asked again, as it was asked (see recording.ts `answersUnchanged`). */
export function askAgain(call: RecordedCall, timeouts?: UpstreamTimeouts): Promise<Response> {
  return timedFetch(call.url, { method: call.method, headers: call.headers, ...(call.body ? { body: call.body } : {}) }, timeouts);
}

/**
 * `fetch` for a body that is streamed on to the visitor (a file download): the total timeout
 * covers the connection and the start of the answer; after that the body may take as long as it
 * needs while it keeps flowing (at most `timeoutMs` without a chunk).
 */
export async function timedStreamFetch(url: string | URL, timeouts?: UpstreamTimeouts): Promise<Response> {
  const t = resolveTimeouts(timeouts);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), t.timeoutMs);
  try {
    return (await undiciFetch(url, { signal: controller.signal, dispatcher: dispatcherFor(t.connectTimeoutMs, t.timeoutMs) })) as unknown as Response;
  } finally {
    clearTimeout(timer);
  }
}
