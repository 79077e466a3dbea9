// Builds a GraphQL multipart request body (operations, map, files) as a stream, for tests and
// scripts that upload without holding the files in memory.
import { randomBytes } from 'node:crypto';

export interface UploadPart {
  /** Where the file goes in the variables, e.g. `variables.file` or `variables.input.attachments.0`. */
  path: string;
  fileName: string;
  contentType: string;
  /** The file's bytes, chunk by chunk. */
  chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>;
}

/**
 * `{ body, contentType }` for `fetch(url, { method: 'POST', body, headers: { 'content-type': contentType }, duplex: 'half' })`.
 * The files' places in `variables` must be null.
 *
 * @example
 * const { body, contentType } = graphqlMultipart({ query, variables: { ticketId, file: null } },
 *   [{ path: 'variables.file', fileName: 'photo.png', contentType: 'image/png', chunks: [png] }]);
 */
export function graphqlMultipart(operations: { query: string; variables?: Record<string, unknown>; operationName?: string }, files: UploadPart[]): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----kmx${randomBytes(12).toString('hex')}`;
  const map = Object.fromEntries(files.map((f, i) => [String(i), [f.path]]));
  const field = (name: string, value: string) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  async function* parts(): AsyncGenerator<Uint8Array> {
    yield field('operations', JSON.stringify(operations));
    yield field('map', JSON.stringify(map));
    for (const [i, f] of files.entries()) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${i}"; filename="${f.fileName.replace(/"/g, '%22')}"\r\nContent-Type: ${f.contentType}\r\n\r\n`);
      for await (const chunk of f.chunks) yield chunk;
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  const it = parts();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await it.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await it.return(undefined);
    },
  });
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
