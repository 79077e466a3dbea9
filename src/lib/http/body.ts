/**
 * Reads a small JSON request body without ever holding more than `maxBytes`: a declared
 * Content-Length over the limit is refused before reading, and a body without one (chunked) is
 * cancelled as soon as it passes the limit. Each API keeps its own answers for the outcomes.
 * @example const body = await readJsonBody(request, 8 * 1024); if (body.kind === 'too-large') …
 */
export type JsonBody =
  | { kind: 'ok'; value: unknown }
  | { kind: 'unsupported' }
  | { kind: 'too-large' }
  | { kind: 'malformed' };

export async function readJsonBody(request: Request, maxBytes: number): Promise<JsonBody> {
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) return { kind: 'unsupported' };
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) return { kind: 'too-large' };
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
        return { kind: 'too-large' };
      }
      chunks.push(value);
    }
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks));
  try {
    return { kind: 'ok', value: JSON.parse(text) };
  } catch {
    return { kind: 'malformed' };
  }
}
