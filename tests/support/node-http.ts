import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

/** A response as the client would have received it. */
export interface Injected {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body as sent (compressed bodies are not text). */
  bytes: Buffer;
}

export interface InjectRequest {
  method?: string;
  /** Origin-form target: `/en/about-us?page=2`. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * For tests: drives a Node request handler in-process, without a port. The request is a real
 * `IncomingMessage` and the response a real `ServerResponse` over an in-memory socket (HTTP/1.0,
 * so the body arrives unchunked); resolves once the response has finished.
 */
export async function inject(
  handle: (req: IncomingMessage, res: ServerResponse) => unknown,
  request: InjectRequest,
): Promise<Injected> {
  const out: Buffer[] = [];
  const socket = new Duplex({
    read() {},
    write(chunk: Buffer | string, _enc, done) {
      out.push(Buffer.from(chunk));
      done();
    },
  });
  const req = new IncomingMessage(socket as unknown as Socket);
  req.method = request.method ?? 'GET';
  req.url = request.url;
  req.httpVersion = '1.0';
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 0;
  req.headers = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  if (request.body) req.push(request.body);
  req.push(null);
  req.complete = true;
  const res = new ServerResponse(req);
  res.assignSocket(socket as unknown as Socket);
  const finished = new Promise<void>((resolve, reject) => {
    res.once('finish', resolve);
    res.once('error', reject);
  });
  await handle(req, res);
  await finished;
  const raw = Buffer.concat(out);
  const end = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  const bytes = raw.subarray(end + 4);
  return { status: Number(statusLine!.split(' ')[1]), headers, body: bytes.toString('utf8'), bytes };
}
