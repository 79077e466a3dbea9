/**
 * Reads a small JSON (or url-encoded form) request body without ever holding more than `maxBytes`: a declared
 * Content-Length over the limit is refused before reading, and a body without one (chunked) is
 * cancelled as soon as it passes the limit. Each API keeps its own answers for the outcomes.
 * @example const body = await readJsonBody(request, 8 * 1024); if (body.kind === 'too-large') …
 */
export type JsonBody =
  | { kind: 'ok'; value: unknown }
  | { kind: 'unsupported' }
  | { kind: 'too-large' }
  | { kind: 'malformed' };

/**
 * The body as text when it is at most `maxBytes` (declared or read), else null; reading stops at
 * the limit.
 */
export async function readBoundedText(request: Request, maxBytes: number): Promise<string | null> {
  if (Number(request.headers.get('content-length') ?? NaN) > maxBytes) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return null;
      }
      chunks.push(value);
    }
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) return { kind: 'unsupported' };
  const text = await readBoundedText(request, maxBytes);
  if (text === null) return { kind: 'too-large' };
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
