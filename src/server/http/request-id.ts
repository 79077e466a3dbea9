import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as v from 'valibot';
import { getLogger, runWithRequestContext } from '../../lib/log/index.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An incoming request id we take over: 1 to 64 letters, digits and `._:+=/-` (what proxies and tracers send). */
export const RequestIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._:+=/-]{1,64}$/));

/** The caller's request id when it is safe to log and echo, otherwise a new random one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  if (header === undefined) return randomUUID();
  const parsed = v.safeParse(RequestIdSchema, header);
  return parsed.success ? parsed.output : randomUUID();
}

const log = getLogger('http');

/**
 * Handles a request in its own log context: every line logged while handling it carries its id
 * (`reqId`), the response echoes it in `X-Request-Id`, and one `info` line says how it ended
 * (method, path without query, status, duration).
 */
export function withRequestId<T>(req: IncomingMessage, res: ServerResponse, handle: () => T): T {
  return inRequestContext(req, res, (reqId) => {
    res.setHeader(REQUEST_ID_HEADER, reqId);
    return handle();
  });
}

/**
 * withRequestId for a handler that sends the `X-Request-Id` header itself (it gets the id): the
 * server's, whose ready static responses write every header in one call.
 */
export function inRequestContext<T>(req: IncomingMessage, res: ServerResponse, handle: (reqId: string) => T): T {
  const reqId = requestIdFrom(req.headers['x-request-id']);
  return runWithRequestContext({ reqId }, () => {
    // The closing line costs a listener and a timer per request: only when it would be written.
    if (log.isLevelEnabled('info')) {
      const started = performance.now();
      res.once('close', () => runWithRequestContext({ reqId }, () => {
        const line = {
          method: req.method ?? '',
          path: (req.url ?? '/').split('?')[0]!,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
          aborted: !res.writableFinished,
        };
        log.info(line, `${line.method} ${line.path} ${line.aborted ? 'aborted' : line.status} in ${line.ms} ms`);
      }));
    }
    return handle(reqId);
  });
}
