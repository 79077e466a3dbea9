/**
 * An `endpoint()` handler served by the Node server itself (a route outside Astro, e.g. POST
 * /api/revalidate): the node request becomes a WHATWG `Request` whose body is streamed, not read,
 * so `endpoint()`'s header checks, guard, bounded body reader and error shape are the same code path
 * as every Astro endpoint's.
 * @example
 *   const route = nodeRoute('/api/revalidate', apiRoute({ POST: postHook }));
 *   if (await route(req, res, url)) return;
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIContextLike } from './input.ts';

/** What a node-served handler gets of Astro's context. */
export interface NodeContext extends APIContextLike {
  clientAddress: string;
  routePattern: string;
}

type NodeHandler = (context: NodeContext) => Response | Promise<Response>;

/** The node request as a fetch Request (its body streamed, not read). */
export function toWebRequest(req: IncomingMessage, url: URL): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const method = (req.method ?? 'GET').toUpperCase();
  const body = method === 'GET' || method === 'HEAD' ? null : (req as unknown as BodyInit);
  return new Request(url, { method, headers, body, duplex: 'half' } as RequestInit);
}

/** Writes a fetch Response on the node response. */
export async function sendWebResponse(res: ServerResponse, answer: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of answer.headers) headers[name] = value;
  const cookies = answer.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
}

/**
 * A route of the Node server for `path` exactly, answered by `handlers` (an `apiRoute(…)`: its
 * methods plus `ALL`); resolves false for any other path.
 */
export function nodeRoute(path: string, handlers: Partial<Record<string, NodeHandler>> & { ALL: NodeHandler }) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname !== path) return false;
    const request = toWebRequest(req, url);
    const context: NodeContext = { request, url, params: {}, locals: {}, clientAddress: req.socket?.remoteAddress ?? '', routePattern: path };
    const handler = handlers[request.method] ?? handlers.ALL;
    await sendWebResponse(res, await handler(context));
    return true;
  };
}
