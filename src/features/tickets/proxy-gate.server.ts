/**
 * The tickets proxy's gate (issue 28): what a request must be before anything reaches the
 * ticketing service. The GraphQL request (a JSON body, or the `operations` field of a GraphQL
 * multipart request) is read, checked against the app's own operations
 * (src/lib/ticketing/operations.ts) and forwarded as the app's own document with the client's
 * variables; anything else is refused with 400 and a message saying why. A multipart upload is
 * read only as far as its `operations` field (the first part, within the envelope's 64 KiB); the
 * file behind it still streams through untouched.
 */
import * as v from 'valibot';
import { drainBody, readBoundedText } from '../../lib/http/body.ts';
import { MAX_JSON_BODY_BYTES, MULTIPART_ENVELOPE_BYTES } from '../../lib/ticketing/limits.ts';
import { checkOperation } from '../../lib/ticketing/operations.ts';

export type GateResult =
  /** An allowed operation: the body to forward (its own JSON, or the multipart stream) and its Content-Type. */
  | { kind: 'ok'; name: string; body: ReadableStream<Uint8Array>; contentType: string }
  | { kind: 'too-large' }
  | { kind: 'refused'; error: string }
  /** The visitor stopped sending before the operations field was complete (no more than `idleMs` waited). */
  | { kind: 'stalled'; idleMs: number };

const isPlainObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);

/** A GraphQL request as the app's client sends it (`extensions`, batches and other fields are refused). */
export const GraphQLRequestBody = v.strictObject({
  query: v.pipe(v.string('query must be a string'), v.nonEmpty('query is required')),
  operationName: v.optional(v.nullable(v.pipe(v.string('operationName must be a string'), v.maxLength(100, 'operationName is too long')))),
  variables: v.optional(v.nullable(v.pipe(v.unknown(), v.check(isPlainObject, 'variables must be an object'), v.transform((x) => x as Record<string, unknown>)))),
});

/** The first problem of a body, as a clear message. */
function problemOf(issues: v.BaseIssue<unknown>[]): string {
  const issue = issues[0]!;
  const key = issue.path?.at(-1)?.key;
  if (issue.type === 'strict_object' && issue.expected === 'never') return `Unknown field: ${String(key).slice(0, 50)}`;
  if (issue.type === 'strict_object') return `${String(key).slice(0, 50)} is required`;
  return issue.message;
}

/** The allowed operation a parsed GraphQL request names, as the JSON to forward; or why not. */
export function gateRequest(value: unknown): { ok: true; name: string; json: string } | { ok: false; error: string } {
  if (!isPlainObject(value)) return { ok: false, error: 'The GraphQL request must be a JSON object with query and variables.' };
  const parsed = v.safeParse(GraphQLRequestBody, value);
  if (!parsed.success) return { ok: false, error: problemOf(parsed.issues) };
  const { query, operationName, variables } = parsed.output;
  const checked = checkOperation(query, operationName);
  if (!checked.ok) return { ok: false, error: checked.reason };
  return { ok: true, name: checked.name, json: JSON.stringify({ operationName: checked.name, query: checked.document, variables: variables ?? {} }) };
}

const bytesStream = (bytes: Uint8Array): ReadableStream<Uint8Array> => new ReadableStream({
  start(controller) {
    controller.enqueue(bytes);
    controller.close();
  },
});

/** A JSON GraphQL request (at most 1 MiB): read, checked, and replaced by the app's own document. */
export async function gateJson(request: Request): Promise<GateResult> {
  const text = await readBoundedText(request, MAX_JSON_BODY_BYTES);
  if (text === null) return { kind: 'too-large' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'refused', error: 'The body is not valid JSON.' };
  }
  const gated = gateRequest(value);
  if (!gated.ok) return { kind: 'refused', error: gated.error };
  return { kind: 'ok', name: gated.name, body: bytesStream(new TextEncoder().encode(gated.json)), contentType: 'application/json' };
}

/** The boundary of a multipart Content-Type (quoted or not), or null. */
export function boundaryOf(contentType: string): string | null {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]!) : null;
}

interface FirstPart {
  /** Everything before the `operations` value (preamble, delimiter, part headers). */
  head: Uint8Array;
  operations: string;
  /** What was read after the value (from the CRLF before the next delimiter on). */
  tail: Uint8Array;
}

/**
 * Reads a multipart body until its first part, which the GraphQL multipart request spec makes
 * `operations`, is complete; at most `max` bytes. The reader is left where reading stopped.
 */
async function readFirstPart(reader: ReadableStreamDefaultReader<Uint8Array>, boundary: string, max: number): Promise<FirstPart | 'not-operations' | 'too-long' | 'malformed'> {
  const delimiter = Buffer.from(`--${boundary}\r\n`);
  const next = Buffer.from(`\r\n--${boundary}`);
  let buf = Buffer.alloc(0);
  for (;;) {
    const start = buf.indexOf(delimiter);
    const headersEnd = start === -1 ? -1 : buf.indexOf('\r\n\r\n', start + delimiter.length);
    if (headersEnd !== -1) {
      const headers = buf.subarray(start + delimiter.length, headersEnd).toString('latin1');
      if (!/^content-disposition:\s*form-data;[^\r\n]*\bname="?operations"?(?:;|\s*$|\r\n)/im.test(headers)) return 'not-operations';
      const end = buf.indexOf(next, headersEnd + 4);
      if (end !== -1) return { head: buf.subarray(0, headersEnd + 4), operations: buf.subarray(headersEnd + 4, end).toString('utf8'), tail: buf.subarray(end) };
    }
    if (buf.length > max) return 'too-long';
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      return 'malformed';
    }
    if (chunk.done) return 'malformed';
    buf = Buffer.concat([buf, chunk.value]);
  }
}

/**
 * A GraphQL multipart request: its `operations` field checked like a JSON request and replaced by
 * the app's own document; the rest (map, file) streams on as it arrives. A refused request's body
 * is read and dropped (up to the drain cap), so the client gets the 400 instead of a reset.
 */
export async function gateMultipart(request: Request, contentType: string, opts: { idleMs: number }): Promise<GateResult> {
  const boundary = boundaryOf(contentType);
  if (!boundary || !request.body) return { kind: 'refused', error: 'The multipart body has no boundary.' };
  const reader = request.body.getReader();
  const refuse = (error: string): GateResult => {
    drainBody(reader);
    return { kind: 'refused', error };
  };
  // The envelope is small (MULTIPART_ENVELOPE_BYTES): a visitor who stops sending before it is
  // complete gets the stalled answer after the upload idle time, as one who stalls in the file does.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<'stalled'>((resolve) => { timer = setTimeout(() => resolve('stalled'), opts.idleMs); });
  const first = await Promise.race([readFirstPart(reader, boundary, MULTIPART_ENVELOPE_BYTES), stalled]).finally(() => clearTimeout(timer));
  if (first === 'stalled') {
    void reader.cancel().catch(() => {});
    return { kind: 'stalled', idleMs: opts.idleMs };
  }
  if (first === 'not-operations' || first === 'too-long') return refuse('A GraphQL multipart request starts with its operations field (then map, then the file).');
  if (first === 'malformed') return refuse('The multipart body ended before its operations field.');
  let value: unknown;
  try {
    value = JSON.parse(first.operations);
  } catch {
    return refuse('The operations field is not valid JSON.');
  }
  const gated = gateRequest(value);
  if (!gated.ok) return refuse(gated.error);
  const prefix = Buffer.concat([first.head, Buffer.from(gated.json), first.tail]);
  let sentPrefix = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sentPrefix) {
        sentPrefix = true;
        controller.enqueue(prefix);
        return;
      }
      const { done, value: chunk } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(chunk);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return { kind: 'ok', name: gated.name, body, contentType };
}
