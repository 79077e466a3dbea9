import { createHash } from 'node:crypto';
import { errorBody } from '../http/body.ts';
import { IDEMPOTENCY_HEADER, readIdempotencyKey } from './key.ts';
import { memoryIdempotencyStore, once, processIdempotencyStore, type IdempotencyStore } from './store.ts';

/**
 * Idempotency for our own API endpoints that create something (server only): the clear refusals
 * of the draft (400 without a key or with a malformed one, 409 while the same key is being worked
 * on, 422 for a key reused with another body) and `idempotentAnswer`, which answers a repeated
 * request with the first answer instead of running the write again.
 */

/** The answer kept per key: what the client saw the first time. */
export interface StoredAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** Marks an answer that repeats the first answer of its key (as Stripe and the draft's examples do). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

export const IDEMPOTENCY_MESSAGES = {
  missing: `This request needs an ${IDEMPOTENCY_HEADER} header: a new random value (such as a UUID) for each new request, and the same value when the same request is sent again.`,
  inProgress: 'A request with this Idempotency-Key is still being processed. Wait a moment, then send it again with the same key.',
  mismatch: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
} as const;

export type RefusalKind = 'missing' | 'malformed' | 'in-progress' | 'mismatch';

/** The draft's answers: 400 (missing, malformed), 409 (in progress, with Retry-After), 422 (mismatch). */
export function idempotencyRefusal(kind: RefusalKind, opts: { message?: string; extra?: Record<string, unknown> } = {}): Response {
  const status = kind === 'in-progress' ? 409 : kind === 'mismatch' ? 422 : 400;
  const code = kind === 'in-progress' ? 'idempotency-key-in-use' : kind === 'mismatch' ? 'idempotency-key-reused' : 'idempotency-key-required';
  const message = opts.message ?? (kind === 'in-progress' ? IDEMPOTENCY_MESSAGES.inProgress : kind === 'mismatch' ? IDEMPOTENCY_MESSAGES.mismatch : IDEMPOTENCY_MESSAGES.missing);
  const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };
  if (kind === 'in-progress') headers['Retry-After'] = '1';
  return new Response(errorBody(code, message, opts.extra), { status, headers });
}

/** A hex SHA-256 over the parts (separated, so ("ab","c") ≠ ("a","bc")). */
export function fingerprint(...parts: (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part) : part;
    hash.update(`${bytes.byteLength}:`).update(bytes);
  }
  return hash.digest('hex');
}

/**
 * Who a bearer token belongs to, for a key's scope: its `sub` (the token was verified before this
 * is asked), else a hash of the token (a renewed token then counts as another caller, and the
 * service behind, which gets the key, still makes the write once).
 */
export function callerOf(accessToken: string): string {
  try {
    const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
    if (typeof payload.sub === 'string' && payload.sub) return `sub:${payload.sub}`;
  } catch {
    // not a JWT: fall through
  }
  return `token:${fingerprint(accessToken).slice(0, 32)}`;
}

/** The process's store of answers: shared by every instance when REDIS_URL is set (store.ts). */
export const answerStore: IdempotencyStore<StoredAnswer> = processIdempotencyStore('answers', memoryIdempotencyStore<StoredAnswer>({ sizeOf: (a) => a.body.length + a.contentType.length }));

const replay = (a: StoredAnswer): Response => new Response(a.body, {
  status: a.status,
  headers: { 'Content-Type': a.contentType, 'Cache-Control': 'no-store', [REPLAYED_HEADER]: 'true' },
});

/**
 * Runs `write` at most once per key and caller: the request must carry a valid `Idempotency-Key`
 * (400 otherwise); a request whose key already has a successful (2xx) answer gets that answer
 * again, marked `Idempotent-Replayed: true`, without `write` running; the same key with another
 * body gets 422, and while the first request runs, 409. Answers other than 2xx are not kept (the
 * write did not happen, or its outcome is unknown): the next attempt runs it again, and the
 * service, which `write` passes the key to, answers it with its own first result.
 * `scope` names the endpoint and the caller (a key only ever replays to whoever made it).
 * Reads the body from a clone: `write` still reads the request as usual.
 */
export async function idempotentAnswer(
  request: Request,
  opts: { scope: string; store?: IdempotencyStore<StoredAnswer>; extra?: Record<string, unknown> },
  write: (key: string) => Promise<Response>,
): Promise<Response> {
  const key = readIdempotencyKey(request.headers);
  if (key.kind !== 'ok') return idempotencyRefusal(key.kind, { message: key.kind === 'malformed' ? key.message : undefined, extra: opts.extra });
  const body = new Uint8Array(await request.clone().arrayBuffer());
  const print = fingerprint(request.method, new URL(request.url).pathname, body);
  // An answer that is not kept goes to the client as it is (headers included).
  let unkept: Response | null = null;
  const result = await once(opts.store ?? answerStore, `${opts.scope}\u0000${key.key}`, print, async () => {
    const res = await write(key.key);
    if (res.status < 200 || res.status > 299) {
      unkept = res;
      return { value: { status: res.status, contentType: '', body: '' }, keep: false };
    }
    return { value: { status: res.status, contentType: res.headers.get('content-type') ?? 'application/json; charset=utf-8', body: await res.text() }, keep: true };
  });
  if (result.kind === 'in-progress' || result.kind === 'mismatch') return idempotencyRefusal(result.kind, { extra: opts.extra });
  if (result.kind === 'replayed') return replay(result.value);
  if (unkept) return unkept;
  return new Response(result.value.body, { status: result.value.status, headers: { 'Content-Type': result.value.contentType, 'Cache-Control': 'no-store' } });
}
