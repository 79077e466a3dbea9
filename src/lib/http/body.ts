/**
 * The one reader of request bodies: reads a small JSON (or url-encoded form) body without ever
 * holding more than `maxBytes`: a declared Content-Length over the limit is refused before reading,
 * and a body without one (chunked) stops counting as soon as it passes the limit (what is left is
 * read and dropped up to a cap, so the client gets the answer instead of a reset connection).
 * Each API keeps its own answers for the outcomes; `bodyRefusal` gives the standard 413 / 415.
 * @example const body = await readJsonBody(request, 8 * 1024); if (body.kind === 'too-large') …
 */
export type JsonBody =
  | { kind: 'ok'; value: unknown }
  | { kind: 'unsupported' }
  | { kind: 'too-large' }
  | { kind: 'malformed' };

/** Media types as the endpoints declare them (lowercase, no parameters). */
export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';
export const MULTIPART_TYPE = 'multipart/form-data';

/** What an endpoint accepts as a body: its largest size and its media types (none: it takes no body). */
export interface BodyRule {
  maxBytes: number;
  types: readonly string[];
  /** A tighter (or looser) limit for some of the types, e.g. JSON 1 MiB but a multipart upload 100 MB. */
  maxBytesByType?: Readonly<Record<string, number>>;
}

/** The limit for a body of media type `type` under `rule`. */
export const limitFor = (rule: BodyRule, type: string): number => rule.maxBytesByType?.[type] ?? rule.maxBytes;

/** A body that takes nothing (GET, DELETE): any body is over its limit of 0 bytes. */
export const NO_BODY: BodyRule = { maxBytes: 0, types: [] };

/**
 * A POST that only triggers something: nothing is read, but the small JSON object a client may
 * send out of habit (`{}`) is taken (1 KiB at most; a chunked one is still counted).
 */
export const IGNORED_JSON_BODY: BodyRule = { maxBytes: 1024, types: [JSON_TYPE] };

/** After a body passed its limit, at most this much more is read and dropped before the connection is cut. */
export const DRAIN_CAP_BYTES = 16 * 1024 * 1024;

/** The declared Content-Length: a number, null when absent, NaN when it is not a plain number. */
export function declaredLength(headers: Headers): number | null {
  const value = headers.get('content-length');
  if (value === null) return null;
  return /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : NaN;
}

/**
 * Whether the request carries a body: a declared non-zero length or a chunked one (HTTP/1.1 has no
 * other; `request.body` is no sign: the adapter gives every POST or DELETE a stream, even an empty one).
 */
export function hasBody(request: Request): boolean {
  const length = declaredLength(request.headers);
  if (length !== null) return length !== 0;
  return request.headers.has('transfer-encoding');
}

/** The media type of the Content-Type header, lowercase without parameters ('' when absent). */
export function mediaType(headers: Headers): string {
  return (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * What the headers alone say about a body against `rule`, before a byte is read: 'unsupported'
 * (a body of another type, or one where none is taken), 'too-large' (a declared length over the
 * limit, or not a number), or null when reading may start (and is still counted).
 */
export function checkBodyHeaders(request: Request, rule: BodyRule): 'unsupported' | 'too-large' | null {
  if (!hasBody(request)) return null;
  // An endpoint that takes no body takes at most 0 bytes, whatever their type.
  if (rule.types.length === 0) return 'too-large';
  if (!rule.types.includes(mediaType(request.headers))) return 'unsupported';
  const length = declaredLength(request.headers);
  if (length !== null && !(length <= limitFor(rule, mediaType(request.headers)))) return 'too-large';
  return null;
}

/** An error answer's JSON body, the one shape of every endpoint: `{ error: 'too-large', message: '…' }` (a stable code for clients, a sentence for people). */
export function errorBody(code: string, message: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...extra, error: code, message });
}

/** The clear answers to a refused body: 415 naming the accepted types, 413 naming the limit. */
export function bodyRefusal(kind: 'unsupported' | 'too-large', rule: BodyRule, opts: { extra?: Record<string, unknown>; message?: string } = {}): Response {
  const message = opts.message ?? (kind === 'too-large'
    ? (rule.maxBytes === 0 ? 'This endpoint takes no request body.' : `The request body is too large: at most ${rule.maxBytes.toLocaleString('en')} bytes.`)
    : (rule.types.length === 0 ? 'This endpoint takes no request body.' : `Unsupported Content-Type: send ${rule.types.join(' or ')}.`));
  return new Response(errorBody(kind === 'too-large' ? 'too-large' : 'unsupported-media-type', message, opts.extra), {
    status: kind === 'too-large' ? 413 : 415,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...(kind === 'unsupported' && rule.types.length ? { Accept: rule.types.join(', ') } : {}) },
  });
}

/** Reads and drops what is left of a body (at most `cap` bytes), then lets go of it; nothing is kept. */
export function drainBody(reader: ReadableStreamDefaultReader<Uint8Array>, cap = DRAIN_CAP_BYTES): void {
  let left = cap;
  const next = (): Promise<void> => reader.read().then(({ done, value }) => {
    if (done) return;
    left -= value.byteLength;
    if (left <= 0) return reader.cancel().then(() => {}, () => {});
    return next();
  });
  next().catch(() => {});
}

/**
 * The body as text when it is at most `maxBytes` (declared or read), else null; counting stops at
 * the limit and nothing past it is kept.
 */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string | null> {
  const bytes = await readBoundedBytes(request, maxBytes);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}

/** The body's bytes when it is at most `maxBytes` (declared or read), else null; see {@link readBoundedText}. */
export async function readBoundedBytes(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  const declared = declaredLength(request.headers);
  if (declared !== null && !(declared <= maxBytes)) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        // The client went away (or the adapter's own limit cut the body): nothing usable arrived.
        return null;
      }
      const { done, value } = chunk;
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        chunks.length = 0;
        drainBody(reader);
        return null;
      }
      chunks.push(value);
    }
  }
  return Buffer.concat(chunks);
}

/**
 * The request with a chunked body (no Content-Length) read into memory, at most `maxBytes`: null
 * when it passed the limit. Lets a declared limit hold for a handler that never reads its body.
 * A request with a declared length (already checked) or none is returned as it is.
 */
export async function withCountedBody(request: Request, maxBytes: number): Promise<Request | null> {
  if (declaredLength(request.headers) !== null || !request.headers.has('transfer-encoding')) return request;
  const bytes = await readBoundedBytes(request, maxBytes);
  if (bytes === null) return null;
  const headers = new Headers(request.headers);
  headers.delete('transfer-encoding');
  headers.set('content-length', String(bytes.byteLength));
  return new Request(request.url, { method: request.method, headers, body: bytes as BodyInit, signal: request.signal });
}

const isJsonType = (request: Request) => /^application\/json\b/i.test(request.headers.get('content-type') ?? '');

/**
 * `emptyAs`: the value a request without a body (no bytes, or only whitespace, whatever its type)
 * reads as, for an endpoint whose caller may send none (a webhook); otherwise it is refused.
 */
export async function readJsonBody(request: Request, maxBytes: number, emptyAs?: { value: unknown }): Promise<JsonBody> {
  if (!emptyAs && !isJsonType(request)) return { kind: 'unsupported' };
  const text = await readBoundedText(request, maxBytes);
  if (text === null) return { kind: 'too-large' };
  if (emptyAs && !text.trim()) return { kind: 'ok', value: emptyAs.value };
  if (!isJsonType(request)) return { kind: 'unsupported' };
  try {
    return { kind: 'ok', value: JSON.parse(text) };
  } catch {
    return { kind: 'malformed' };
  }
}

export type UrlEncodedBody = { kind: 'ok'; value: URLSearchParams } | { kind: 'unsupported' } | { kind: 'too-large' };

/** A url-encoded form post (`application/x-www-form-urlencoded`) of at most `maxBytes`, read as {@link readJsonBody} reads JSON. */
export async function readUrlEncodedBody(request: Request, maxBytes: number): Promise<UrlEncodedBody> {
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get('content-type') ?? '')) return { kind: 'unsupported' };
  const text = await readBoundedText(request, maxBytes);
  return text === null ? { kind: 'too-large' } : { kind: 'ok', value: new URLSearchParams(text) };
}
