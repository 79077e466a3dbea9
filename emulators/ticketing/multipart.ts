// A streaming multipart/form-data reader (RFC 7578) for the GraphQL multipart request convention:
// parts come one after the other and each part's body is handed on chunk by chunk as it arrives, so
// a file never sits in memory whole (graphql-yoga's and undici's formData() collect every file in
// memory before the operation runs, which is why uploads do not go through them).

export class MultipartError extends Error {
  override name = 'MultipartError';
}

export interface PartHeaders {
  /** The form field name (`operations`, `map`, `0`, `1` …). */
  name: string;
  /** Present for a file part (may be ""). */
  filename?: string;
  /** The declared content type ("" when absent). */
  contentType: string;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_PREAMBLE_BYTES = 64 * 1024;

/** The boundary of a `multipart/form-data; boundary=…` content type, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

/** A parameter of a Content-Disposition value (quoted or token; `filename*=UTF-8''…` preferred). */
function dispositionParam(value: string, name: string): string | undefined {
  const ext = new RegExp(`;\\s*${name}\\*\\s*=\\s*UTF-8''([^;\\s]*)`, 'i').exec(value);
  if (ext) {
    try { return decodeURIComponent(ext[1]!); } catch { /* fall back to the plain parameter */ }
  }
  const m = new RegExp(`;\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(value);
  if (!m) return undefined;
  return m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2];
}

function parseHeaders(block: string): PartHeaders {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MultipartError('malformed part header');
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition') ?? '';
  if (!/^form-data\s*(;|$)/i.test(disposition)) throw new MultipartError('a part without Content-Disposition: form-data');
  const name = dispositionParam(disposition, 'name');
  if (name === undefined) throw new MultipartError('a part without a name');
  return { name, filename: dispositionParam(disposition, 'filename'), contentType: headers.get('content-type') ?? '' };
}

/**
 * Reads a multipart body part by part. The caller must read each part's `body` to its end (or stop
 * reading the request altogether) before asking for the next part. Pulls from `source` only as fast
 * as the caller consumes, so back-pressure reaches the sender.
 *
 * @example
 * for await (const part of readMultipart(req.iterator({ destroyOnReturn: false }), boundary)) {
 *   for await (const chunk of part.body) await file.write(chunk);
 * }
 */
export async function* readMultipart(source: AsyncIterable<Uint8Array>, boundary: string): AsyncGenerator<{ headers: PartHeaders; body: AsyncGenerator<Buffer> }> {
  const it = source[Symbol.asyncIterator]();
  // The body starts with the first delimiter; prefixing CRLF lets one search find every delimiter.
  let buf: Buffer = Buffer.from('\r\n');
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const read = async (): Promise<Buffer | null> => {
    const next = await it.next();
    if (next.done) return null;
    return Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
  };
  const fill = async (): Promise<boolean> => {
    const chunk = await read();
    if (!chunk) return false;
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    return true;
  };
  /** Yields the bytes up to the next delimiter and consumes the delimiter. */
  async function* untilDelimiter(limit = Infinity): AsyncGenerator<Buffer> {
    let seen = 0;
    for (;;) {
      const at = buf.indexOf(delimiter);
      if (at >= 0) {
        if (at > 0) yield buf.subarray(0, at);
        buf = buf.subarray(at + delimiter.length);
        return;
      }
      // Keep a tail that could be the start of a delimiter split across chunks.
      const safe = buf.length - (delimiter.length - 1);
      if (safe > 0) {
        seen += safe;
        if (seen > limit) throw new MultipartError('multipart preamble too long');
        const out = buf.subarray(0, safe);
        buf = buf.subarray(safe);
        yield out;
      }
      const chunk = await read();
      if (!chunk) throw new MultipartError('the multipart body ended before its closing delimiter');
      // Without a delimiter across the tail and the chunk's start, the chunk is taken as it is: a file's
      // bytes are not copied once more per chunk (the garbage would show as memory growth on big files).
      const joint = buf.length && chunk.length >= delimiter.length ? Buffer.concat([buf, chunk.subarray(0, delimiter.length - 1)]) : null;
      if (joint && joint.indexOf(delimiter) < 0) {
        seen += buf.length;
        if (seen > limit) throw new MultipartError('multipart preamble too long');
        const tail = buf;
        buf = chunk;
        yield tail;
      } else {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      }
    }
  }
  const need = async (n: number) => {
    while (buf.length < n) if (!(await fill())) throw new MultipartError('the multipart body ended early');
  };

  await drain(untilDelimiter(MAX_PREAMBLE_BYTES)); // the preamble is ignored
  for (;;) {
    await need(2);
    if (buf[0] === 0x2d && buf[1] === 0x2d) return; // "--": the closing delimiter (the epilogue is ignored)
    // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
    let lineEnd = buf.indexOf(CRLF);
    while (lineEnd < 0) {
      if (buf.length > 256 || !(await fill())) throw new MultipartError('malformed delimiter line');
      lineEnd = buf.indexOf(CRLF);
    }
    if (buf.subarray(0, lineEnd).some((b) => b !== 0x20 && b !== 0x09)) throw new MultipartError('malformed delimiter line');
    buf = buf.subarray(lineEnd + 2);
    let headerEnd = buf.indexOf(HEADER_END);
    while (headerEnd < 0) {
      if (buf.length > MAX_HEADER_BYTES || !(await fill())) throw new MultipartError('part headers too long or cut off');
      headerEnd = buf.indexOf(HEADER_END);
    }
    const headers = parseHeaders(buf.subarray(0, headerEnd).toString('utf8'));
    buf = buf.subarray(headerEnd + HEADER_END.length);
    const body = untilDelimiter();
    yield { headers, body };
    // Whatever the caller left unread of this part is skipped (it must not stop halfway through a file).
    await drain(body);
  }
}

async function drain(it: AsyncIterator<unknown>): Promise<void> {
  while (!(await it.next()).done) { /* dropped */ }
}

/** Reads a (small) text part whole, refusing more than `max` bytes. */
export async function readTextPart(body: AsyncIterable<Buffer>, max: number, name: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > max) throw new MultipartError(`the "${name}" field is larger than ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
