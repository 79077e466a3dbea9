import { STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';

/**
 * Cache-Control of an on-demand 404 of a public page that says nothing of its own: a minute in
 * any cache. A flood of requests for missing pages is then answered by a CDN (or the browser)
 * instead of a render each, and a page published since is seen within a minute.
 */
export const NOT_FOUND_CACHE_PUBLIC = 'public, max-age=60';
/** Cache-Control of any other on-demand 404: private areas, a request with cookies or credentials, an answer that sets a cookie. */
export const NOT_FOUND_CACHE_PRIVATE = 'no-store';

/** Paths whose answers depend on who asks: APIs, downloads, the sign-in callback, the customer and editor areas. */
const PRIVATE_PATH = /^\/(?:api|file|blank-callback)(?:\/|$)|^\/[^/]+\/(?:mykomax|editor)(?:\/|$)/i;

/**
 * The Cache-Control of an on-demand 404 without one of its own: `no-store` when the answer may be
 * personal (a private area, a request with a cookie — a next-release or draft preview, a grant, an
 * editor — or an Authorization header, an answer setting a cookie), else {@link NOT_FOUND_CACHE_PUBLIC}.
 */
export function notFoundCacheControl(req: IncomingMessage, setsCookie: boolean): string {
  const path = (req.url ?? '/').split('?')[0]!;
  if (setsCookie || PRIVATE_PATH.test(path) || req.headers.cookie || req.headers.authorization) return NOT_FOUND_CACHE_PRIVATE;
  return NOT_FOUND_CACHE_PUBLIC;
}

/** A header in writeHead's headers argument (an object or Node's flat [name, value, …] array). */
function headerIn(headers: unknown, name: string): unknown {
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === name) return headers[i + 1];
    return undefined;
  }
  if (!headers || typeof headers !== 'object') return undefined;
  for (const [k, v] of Object.entries(headers as OutgoingHttpHeaders)) if (k.toLowerCase() === name) return v;
  return undefined;
}

/**
 * Makes the status line of an on-demand answer standard: the reason phrase of its status (Astro
 * gives every page response the reason `OK`, so its 404 page went out as `404 OK`), and a 404
 * without a Cache-Control gets one ({@link notFoundCacheControl}); one the app set wins.
 * Call it before anything else wraps `res.writeHead` (compressOnTheFly).
 */
export function standardStatusLine(req: IncomingMessage, res: ServerResponse): void {
  const writeHead = res.writeHead as (this: ServerResponse, ...a: unknown[]) => ServerResponse;
  res.writeHead = function (this: ServerResponse, status: number, ...rest: unknown[]) {
    // writeHead(status, reason?, headers?): an explicit reason from our own code stays.
    if (typeof rest[0] !== 'string') res.statusMessage = STATUS_CODES[status] ?? '';
    if (status === 404) {
      const headers = typeof rest[0] === 'string' ? rest[1] : rest[0];
      if (!res.hasHeader('cache-control') && headerIn(headers, 'cache-control') === undefined) {
        res.setHeader('Cache-Control', notFoundCacheControl(req, res.hasHeader('set-cookie') || headerIn(headers, 'set-cookie') !== undefined));
      }
    }
    return writeHead.call(this, status, ...rest);
  } as typeof res.writeHead;
}
