import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';
import { COMPRESS_MIN_BYTES } from '../../lib/fs/compress.ts';

/** A content coding we send: brotli, gzip, or the body as it is. */
export type Encoding = 'br' | 'gzip' | 'identity';

/** What a precompressed sibling of each coding is called (`index.html.br`). */
export const SUFFIX: Record<Exclude<Encoding, 'identity'>, string> = { br: '.br', gzip: '.gz' };

/**
 * The best coding a client accepts (RFC 9110 §12.5.3): br, then gzip, then identity, whatever
 * the q-values' order; a coding with q=0 is refused, `*` stands for every coding not named.
 * `available` limits the choice (e.g. to the siblings a file has).
 */
export function negotiateEncoding(header: string | string[] | undefined, available: readonly Encoding[] = ['br', 'gzip']): Encoding {
  const value = Array.isArray(header) ? header.join(',') : header ?? '';
  if (!value.trim()) return 'identity';
  const q = new Map<string, number>();
  for (const part of value.split(',')) {
    const [raw, ...params] = part.toLowerCase().split(';');
    const name = raw!.trim();
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    q.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(weight) ? weight : 0);
  }
  const accepts = (coding: string) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  for (const coding of ['br', 'gzip'] as const) {
    if (available.includes(coding) && accepts(coding)) return coding;
  }
  return 'identity';
}

/** The ETag of one coding of a representation: `"abc"` → `"abc-br"` (weak tags keep their W/). */
export function etagFor(etag: string, encoding: Encoding): string {
  if (encoding === 'identity') return etag;
  return etag.endsWith('"') ? `${etag.slice(0, -1)}-${encoding}"` : `${etag}-${encoding}`;
}

/** Whether `If-None-Match` matches an ETag (weak comparison, lists and `*`). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  const want = bare(etag);
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === want);
}

/** Adds `Accept-Encoding` to a response's Vary (once). */
export function varyOnEncoding(res: ServerResponse): void {
  const vary = res.getHeader('vary');
  const list = (Array.isArray(vary) ? vary.join(',') : String(vary ?? '')).split(',').map((v) => v.trim()).filter(Boolean);
  if (list.includes('*') || list.some((v) => v.toLowerCase() === 'accept-encoding')) return;
  res.setHeader('Vary', [...list, 'Accept-Encoding'].join(', '));
}

/** Content types worth compressing: text, JSON, JavaScript, XML, SVG; never images, PDFs, archives, event streams. */
export function isCompressibleType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return false;
  return type.startsWith('text/')
    || /^application\/(?:json|javascript|ecmascript|xml|xhtml\+xml|rss\+xml|atom\+xml|manifest\+json|ld\+json|graphql-response\+json|problem\+json|x-javascript)$/.test(type)
    || type.endsWith('+json') || type.endsWith('+xml')
    || type === 'image/svg+xml';
}

function headerOf(res: ServerResponse, headers: OutgoingHttpHeaders | undefined, name: string): string | undefined {
  if (headers) {
    for (const k of Object.keys(headers)) {
      if (k.toLowerCase() === name) {
        const v = headers[k];
        return v === undefined ? undefined : String(v);
      }
    }
  }
  const v = res.getHeader(name);
  return v === undefined ? undefined : String(v);
}

function deleteHeader(res: ServerResponse, headers: OutgoingHttpHeaders | undefined, name: string): void {
  res.removeHeader(name);
  if (headers) for (const k of Object.keys(headers)) if (k.toLowerCase() === name) delete headers[k];
}

function setHeader(res: ServerResponse, headers: OutgoingHttpHeaders | undefined, name: string, value: string): void {
  deleteHeader(res, headers, name.toLowerCase());
  res.setHeader(name, value);
}

/** Bytes of written chunks that go to the compressor at once, without waiting for the turn's end. */
const BATCH_BYTES = 16 * 1024;

/**
 * Whether an answer is worth compressing: a body-carrying status, a text-like type, no coding or
 * range of its own, no `no-transform`, and at least 1 KB if its length is declared. `header`
 * reads one of its headers (lower-case name). Also the rule of renders kept compressed
 * (render-pool/shared-renders.ts).
 */
export function worthCompressing(status: number, header: (name: string) => string | null | undefined): boolean {
  const length = header('content-length');
  return status >= 200 && status !== 204 && status !== 206 && status !== 304 && isCompressibleType(header('content-type') ?? undefined)
    && !header('content-encoding') && !header('content-range')
    && !/\bno-transform\b/i.test(header('cache-control') ?? '')
    && (length === undefined || length === null || Number(length) >= COMPRESS_MIN_BYTES);
}

type RawWrite = (this: ServerResponse, ...a: unknown[]) => boolean;
type RawEnd = (this: ServerResponse, ...a: unknown[]) => ServerResponse;

/** A compressor whose output goes to the response through its original write/end (pausing while the socket drains). */
function compressorInto(res: ServerResponse, encoding: Encoding, write: RawWrite, end: RawEnd): BrotliCompress | Gzip {
  const s = encoding === 'br'
    // A 256 KiB window (the default is 4 MiB): an answer compressed on the fly is rarely larger,
    // and each stream's native buffers are sized by it (the load bench's RSS grew with them).
    ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_LGWIN]: 18 } })
    : createGzip({ level: 6 });
  s.on('data', (chunk: Buffer) => {
    if (!write.call(res, chunk)) {
      s.pause();
      res.once('drain', () => s.resume());
    }
  });
  s.on('end', () => end.call(res));
  s.on('error', (err) => res.destroy(err));
  return s;
}

/**
 * Astro writes a page in hundreds of small chunks; each write to a zlib stream is a round trip
 * through the thread pool, which cost three times the compression itself (bench:load's CPU
 * profile: a fifth of an on-demand page). Chunks written in one turn of the event loop are
 * handed to the compressor together (at once from BATCH_BYTES on), so streaming is kept.
 */
function writeBatcher(target: () => BrotliCompress | Gzip | null) {
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let batchCallbacks: (() => void)[] = [];
  let batchScheduled = false;
  const flush = (): boolean => {
    batchScheduled = false;
    const stream = target();
    if (!stream || batch.length === 0) return true;
    const body = batch.length === 1 ? batch[0]! : Buffer.concat(batch, batchBytes);
    const callbacks = batchCallbacks;
    batch = [];
    batchBytes = 0;
    batchCallbacks = [];
    return stream.write(body, callbacks.length ? () => { for (const cb of callbacks) cb(); } : undefined);
  };
  const add = (buf: Buffer, cb: (() => void) | undefined): boolean => {
    batch.push(buf);
    batchBytes += buf.byteLength;
    if (cb) batchCallbacks.push(cb);
    if (batchBytes >= BATCH_BYTES) return flush();
    if (!batchScheduled) {
      batchScheduled = true;
      setImmediate(flush);
    }
    return true;
  };
  return { add, flush };
}

/**
 * Compresses a response on the fly (node:zlib streams) when the client accepts br or gzip and the
 * answer is worth it: a body-carrying status (not 204, 206, 304), a text-like type, no Content-Encoding of its own, no range, no
 * `no-transform`, and at least 1 KB. Wraps a handler that writes through writeHead/write/end
 * (Astro's node handler does): when the length is not declared, the headers wait until 1 KB of
 * body or the end has come. The ETag gets the coding's suffix; every text answer gets
 * Vary: Accept-Encoding.
 */
export function compressOnTheFly(req: IncomingMessage, res: ServerResponse): void {
  const encoding = req.method === 'HEAD' ? 'identity' : negotiateEncoding(req.headers['accept-encoding']);
  const writeHead = res.writeHead as (this: ServerResponse, ...a: unknown[]) => ServerResponse;
  const write = res.write as RawWrite;
  const end = res.end as RawEnd;
  let stream = null as BrotliCompress | Gzip | null;
  /** The writeHead call held back until the body's size is known (status and its arguments). */
  let pending: { status: number; rest: unknown[]; headers: OutgoingHttpHeaders | undefined } | null = null;
  let buffered: Buffer[] = [];
  let bufferedBytes = 0;
  const batches = writeBatcher(() => stream);

  const toBuffer = (chunk: unknown, enc?: BufferEncoding) => (typeof chunk === 'string' ? Buffer.from(chunk, enc) : Buffer.from(chunk as Uint8Array));

  /** Sends the held-back headers, compressed or not, and what was buffered. */
  const flush = (compress: boolean) => {
    const { status, rest, headers } = pending!;
    pending = null;
    res.writeHead = writeHead as typeof res.writeHead;
    if (compress) {
      deleteHeader(res, headers, 'content-length');
      setHeader(res, headers, 'Content-Encoding', encoding);
      const etag = headerOf(res, headers, 'etag');
      if (etag) setHeader(res, headers, 'ETag', etagFor(etag, encoding as Encoding));
      stream = compressorInto(res, encoding as Encoding, write, end);
    }
    writeHead.call(res, status, ...rest);
    const body = Buffer.concat(buffered);
    buffered = [];
    return body;
  };

  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    const headers = rest.find((r) => r && typeof r === 'object' && !Array.isArray(r)) as OutgoingHttpHeaders | undefined;
    const type = headerOf(res, headers, 'content-type');
    if (isCompressibleType(type)) {
      varyOnEncoding(res);
      if (headers) for (const k of Object.keys(headers)) if (k.toLowerCase() === 'vary') { res.setHeader('Vary', `${String(headers[k])}, Accept-Encoding`); delete headers[k]; }
    }
    const length = headerOf(res, headers, 'content-length');
    const eligible = encoding !== 'identity' && worthCompressing(status, (name) => headerOf(res, headers, name));
    pending = { status, rest, headers };
    if (!eligible || length !== undefined) flush(eligible);
    return res;
  } as typeof res.writeHead;

  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (!res.headersSent && !pending) res.writeHead(res.statusCode);
    const cb = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    const enc = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined;
    if (pending) {
      const buf = toBuffer(chunk, enc);
      buffered.push(buf);
      bufferedBytes += buf.byteLength;
      if (bufferedBytes >= COMPRESS_MIN_BYTES) {
        const body = flush(true);
        stream!.write(body);
      }
      cb?.();
      return true;
    }
    if (!stream) return write.call(res, chunk, ...rest);
    return batches.add(toBuffer(chunk, enc), cb);
  } as typeof res.write;

  res.end = function (this: ServerResponse, ...args: unknown[]) {
    const cb = args.find((r) => typeof r === 'function') as (() => void) | undefined;
    const chunk = typeof args[0] === 'function' ? undefined : args[0];
    const enc = typeof args[1] === 'string' ? (args[1] as BufferEncoding) : undefined;
    if (!res.headersSent && !pending) {
      // The whole body is known now: declare its length, so a small one is sent as it is.
      if (chunk !== undefined && chunk !== null && res.getHeader('content-length') === undefined) {
        res.setHeader('Content-Length', toBuffer(chunk, enc).byteLength);
      }
      res.writeHead(res.statusCode);
    }
    if (pending) {
      if (chunk !== undefined && chunk !== null) buffered.push(toBuffer(chunk, enc));
      const total = buffered.reduce((n, b) => n + b.byteLength, 0);
      if (total < COMPRESS_MIN_BYTES) {
        setHeader(res, pending.headers, 'Content-Length', String(total));
        const body = flush(false);
        return end.call(res, body, cb);
      }
      const body = flush(true);
      if (cb) res.once('finish', cb);
      stream!.end(body);
      return res;
    }
    if (!stream) return end.apply(res, args);
    batches.flush();
    if (cb) res.once('finish', cb);
    if (chunk !== undefined && chunk !== null) stream.end(toBuffer(chunk, enc));
    else stream.end();
    return res;
  } as typeof res.end;
}

/**
 * Sends a body that exists in several codings (a prerendered file and its siblings) in the best
 * one the client accepts: Content-Encoding, Vary, the coding's ETag, a 304 when If-None-Match
 * matches that ETag, the encoded length, no body for HEAD. Other headers are set by the caller.
 */
export function sendEncoded(
  req: IncomingMessage,
  res: ServerResponse,
  file: { bodies: Partial<Record<Encoding, Buffer>> & { identity: Buffer }; encodings: readonly Encoding[] },
  opts: { etag: string; contentType: string },
): void {
  const encoding = negotiateEncoding(req.headers['accept-encoding'], file.encodings);
  const etag = etagFor(opts.etag, encoding);
  varyOnEncoding(res);
  res.setHeader('ETag', etag);
  if (etagMatches(req.headers['if-none-match'], etag)) {
    res.writeHead(304).end();
    return;
  }
  const body = file.bodies[encoding] ?? file.bodies.identity;
  const headers: OutgoingHttpHeaders = { 'Content-Type': opts.contentType, 'Content-Length': body.byteLength };
  if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
  res.writeHead(200, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}
