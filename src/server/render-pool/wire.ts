import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { clientAddress } from '../http/client-address.ts';

/**
 * A request and its answer as they cross to a render thread and back: plain data (structured
 * clone), the body as bytes. Only GET and HEAD cross (render-route.ts), so a request has no body.
 */
export interface WireRequest {
  method: string;
  url: string;
  headers: [string, string][];
  /** The visitor's address (`Astro.clientAddress`), the socket's, or the one a trusted proxy forwarded (http/client-address.ts). */
  clientAddress?: string;
  /** What the render gets in `Astro.locals` (serialisable values only: the release id). */
  locals: { releaseId: string };
}

export interface WireResponse {
  status: number;
  statusText: string;
  /** Every header as the App set it; several `Set-Cookie` stay several entries. */
  headers: [string, string][];
  body: Uint8Array;
}

export interface RenderApp {
  render(req: Request, opts: { locals?: object; addCookieHeader?: boolean; clientAddress?: string }): Promise<Response>;
}

/** The request the Node server received, as data (its Host already rewritten to the site host). */
export function wireRequestOf(req: IncomingMessage, releaseId: string): WireRequest {
  const client = clientAddress(req);
  const headers: [string, string][] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    // HTTP/2 pseudo headers are not headers of a fetch Request.
    if (value === undefined || name.startsWith(':')) continue;
    if (Array.isArray(value)) for (const v of value) headers.push([name, v]);
    else headers.push([name, value]);
  }
  return {
    method: req.method ?? 'GET',
    url: `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
    headers,
    ...(client ? { clientAddress: client } : {}),
    locals: { releaseId },
  };
}

/** Renders a wire request through the built App, as the node adapter's handler does, and reads the whole answer. */
export async function renderWire(app: RenderApp, wire: WireRequest): Promise<WireResponse> {
  const request = new Request(wire.url, { method: wire.method, headers: wire.headers });
  const res = await app.render(request, {
    addCookieHeader: true,
    locals: { ...wire.locals },
    ...(wire.clientAddress ? { clientAddress: wire.clientAddress } : {}),
  });
  const headers: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers.push([name, value]);
  });
  for (const cookie of res.headers.getSetCookie()) headers.push(['set-cookie', cookie]);
  const body = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, statusText: res.statusText, headers, body };
}

/** Writes an answer to the visitor the way the node adapter's writeResponse does (status text, headers, body). */
export function writeWireResponse(res: ServerResponse, wire: WireResponse, head: boolean): void {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of wire.headers) {
    const known = headers[name];
    if (name === 'set-cookie') headers[name] = [...((known as string[] | undefined) ?? []), value];
    else headers[name] = known === undefined ? value : `${String(known)}, ${value}`;
  }
  res.statusMessage = wire.statusText;
  res.writeHead(wire.status, headers);
  res.end(head || wire.body.byteLength === 0 ? undefined : Buffer.from(wire.body.buffer, wire.body.byteOffset, wire.body.byteLength));
}
