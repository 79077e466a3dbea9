import type { APIContext } from 'astro';
import { json } from '../../lib/http/json.ts';
import { JSON_TYPE as JSON_MEDIA_TYPE, MULTIPART_TYPE as MULTIPART_MEDIA_TYPE } from '../../lib/http/body.ts';
import { endpoint, READ_ONLY, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { MULTIPART_UPLOADS } from '../../lib/http/upload-guard.ts';
import { readIdempotencyKey } from '../../lib/idempotency/key.ts';
import { getLogger } from '../../lib/log/index.ts';
import { MAX_ANSWER_BYTES, MAX_JSON_BODY_BYTES, MAX_PROXY_BODY_BYTES, MAX_UPLOAD_BYTES } from '../../lib/ticketing/limits.ts';
import { LINK_TTL_SECONDS, openLink, sealLink } from '../../lib/ticketing/links.server.ts';
import { rewriteFileUrls } from '../../lib/ticketing/rewrite.ts';
import type { TicketingConfig } from '../../lib/ticketing/types.ts';
import { forwardGraphQL, openFile, UPLOAD_IDLE_MS } from '../../lib/ticketing/upstream.server.ts';
import { apiContext } from '../platform/context.ts';
import { requireUser, type CustomerUser } from '../sign-in/bearer.server.ts';
import { gateJson, gateMultipart } from './proxy-gate.server.ts';

/**
 * The same-origin tickets proxy (spec customer-area §6 "protected content cannot be queried
 * directly from the browser", §7): the browser sends its GraphQL to `POST /api/ticketing/graphql`
 * with its bearer token; the proxy verifies it, lets only the app's own operations through
 * (proxy-gate.server.ts: an allow-list, introspection, depth and alias limits), adds the identity
 * token and the debug level, and streams the body on. The answer is read up to MAX_ANSWER_BYTES
 * (502 beyond). Files come back through `GET /api/ticketing/download/{link}`.
 */

const log = getLogger('tickets-proxy');

export const DOWNLOAD_PATH = '/api/ticketing/download/';

/** What the proxy says when a body is too large (413): names the limit in words and bytes. */
export const TOO_LARGE_MESSAGE = `The request is too large: a file may have at most 100 MB (${MAX_UPLOAD_BYTES.toLocaleString('en')} bytes).`;
export const UNAVAILABLE_MESSAGE = 'The ticketing service is not reachable right now. Please try again later.';
/** What the proxy says (502) when the service's answer passes MAX_ANSWER_BYTES: it is not passed on. */
export const ANSWER_TOO_LARGE_MESSAGE = `The ticketing service's answer was too large (over ${MAX_ANSWER_BYTES.toLocaleString('en')} bytes) and was not passed on.`;
/** What the proxy says when the visitor's upload stopped arriving (408): their connection, not the service. */
export const STALLED_MESSAGE = 'The upload stalled: no data arrived from your browser for a while, so it was stopped and nothing was saved. Check your connection and send it again.';

const JSON_TYPE = /^application\/(?:graphql-response\+)?json\b/i;
const MULTIPART_TYPE = /^multipart\/form-data;.*\bboundary=/i;

/**
 * HTTP status for a GraphQL answer whose only outcome is "not yours / not there": 404 for
 * NOT_FOUND, 403 for FORBIDDEN, when no top-level field has data. Anything else keeps its status.
 */
export function statusForAnswer(status: number, body: unknown): number {
  if (status !== 200 || !body || typeof body !== 'object') return status;
  const { data, errors } = body as { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: unknown } }[] };
  if (!Array.isArray(errors) || errors.length === 0) return status;
  if (data && Object.values(data).some((x) => x !== null && x !== undefined)) return status;
  const codes = new Set(errors.map((e) => e?.extensions?.code));
  if (codes.size === 1 && codes.has('NOT_FOUND')) return 404;
  if (codes.size === 1 && codes.has('FORBIDDEN')) return 403;
  return status;
}

/** The download link the browser gets for an upstream file path, valid for a few minutes. */
export function downloadLink(config: TicketingConfig, sub: string, token: string, resource: string, now = Date.now()): string {
  return DOWNLOAD_PATH + sealLink(config.linkSecret, { sub, resource, token, exp: Math.floor(now / 1000) + LINK_TTL_SECONDS });
}

/** POST /api/ticketing/graphql: JSON or GraphQL multipart, streamed through (see the module comment). */
const graphQLHandler = async ({ context, user: auth }: { context: APIContext; user: CustomerUser }): Promise<Response> => {
  const { request } = context;
  const contentType = request.headers.get('content-type') ?? '';
  const multipart = MULTIPART_TYPE.test(contentType);
  if (!multipart && !JSON_TYPE.test(contentType)) {
    return json({ error: 'unsupported-media-type', message: 'Send GraphQL as application/json, or files as multipart/form-data (GraphQL multipart request)' }, 415);
  }
  const limit = multipart ? MAX_PROXY_BODY_BYTES : MAX_JSON_BODY_BYTES;
  const declared = request.headers.get('content-length');
  // Refused before a byte of the body is read when its declared length says so.
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
    log.info({ bytes: Number(declared), limit }, 'request body refused by its length');
    return json({ error: 'too-large', message: TOO_LARGE_MESSAGE, limit: MAX_UPLOAD_BYTES }, 413);
  }
  const config = apiContext(context.locals).services.ticketing;
  // Only the app's own operations pass (proxy-gate.server.ts): refused before the service is called.
  const gated = multipart ? await gateMultipart(request, contentType, { idleMs: config.uploadIdleMs ?? UPLOAD_IDLE_MS }) : await gateJson(request);
  if (gated.kind === 'too-large') return json({ error: 'too-large', message: TOO_LARGE_MESSAGE, limit: MAX_UPLOAD_BYTES }, 413);
  if (gated.kind === 'stalled') {
    log.info({ idleMs: gated.idleMs }, 'request body stalled before its operations field');
    return json({ error: 'request-timeout', message: STALLED_MESSAGE }, 408);
  }
  if (gated.kind === 'refused') {
    log.info({ reason: gated.error }, 'GraphQL request refused by the allow-list');
    return json({ error: 'bad-request', message: gated.error }, 400);
  }
  // A write's Idempotency-Key goes on to the service, which makes a retried write once (docs/operations.md "Idempotency").
  const key = readIdempotencyKey(request.headers);
  if (key.kind === 'malformed') return json({ error: 'bad-request', message: key.message }, 400);
  const result = await forwardGraphQL(config, {
    body: gated.body, contentType: gated.contentType, token: auth.accessToken, limit, streaming: multipart, signal: request.signal, idempotencyKey: key.kind === 'ok' ? key.key : undefined,
  });
  if (result.kind === 'answer-too-large') {
    log.error({ operation: gated.name, limit: result.limit }, 'ticketing answer over the limit, not passed on');
    return json({ error: 'bad-gateway', message: ANSWER_TOO_LARGE_MESSAGE }, 502);
  }
  if (result.kind === 'too-large') {
    log.info({ limit }, 'request body refused while arriving');
    return json({ error: 'too-large', message: TOO_LARGE_MESSAGE, limit: MAX_UPLOAD_BYTES }, 413);
  }
  if (result.kind === 'stalled') {
    log.info({ idleMs: result.idleMs }, 'request body stalled');
    return json({ error: 'request-timeout', message: STALLED_MESSAGE }, 408);
  }
  if (result.kind === 'unavailable') {
    log.error({ reason: result.reason }, 'ticketing service unavailable');
    const res = json({ error: 'unavailable', message: UNAVAILABLE_MESSAGE }, result.timeout ? 504 : 503);
    res.headers.set('Retry-After', '30');
    return res;
  }
  if (result.body === null) return json({ error: 'bad-gateway', message: `The ticketing service answered ${result.status} without JSON` }, 502);
  const origin = new URL(config.endpoint).origin;
  const body = rewriteFileUrls(withoutInternals(result.body), origin, (path) => downloadLink(config, auth.claims.sub, auth.accessToken, path));
  return json(body, statusForAnswer(result.status, body));
};

/**
 * A GraphQL answer without what only the service's developers need: a stack trace or an
 * exception in an error's `extensions` (a service in debug mode adds them) never reaches the browser.
 */
export function withoutInternals(body: unknown): unknown {
  if (!body || typeof body !== 'object' || !Array.isArray((body as { errors?: unknown }).errors)) return body;
  const errors = (body as { errors: unknown[] }).errors.map((e) => {
    if (!e || typeof e !== 'object') return e;
    const { extensions, ...rest } = e as { extensions?: Record<string, unknown> };
    if (!extensions || typeof extensions !== 'object') return rest;
    const { stacktrace: _s, exception: _e, originalError: _o, stack: _st, ...kept } = extensions;
    return Object.keys(kept).length ? { ...rest, extensions: kept } : rest;
  });
  return { ...(body as object), errors };
}

/**
 * The tickets proxy's declared limits: a JSON GraphQL request of at most 1 MiB, a GraphQL multipart
 * request (one file) of at most 100 MB and its envelope, streamed. Queries and changes share the
 * endpoint: 300 requests per client and minute is far above what the ticket screens send.
 */
export const TICKETS_GRAPHQL_LIMITS: EndpointLimits = {
  body: {
    maxBytes: MAX_PROXY_BODY_BYTES,
    types: [JSON_MEDIA_TYPE, 'application/graphql-response+json', MULTIPART_MEDIA_TYPE],
    maxBytesByType: { [JSON_MEDIA_TYPE]: MAX_JSON_BODY_BYTES, 'application/graphql-response+json': MAX_JSON_BODY_BYTES },
  },
  rateLimit: { limit: 300, windowMs: 60_000 },
  tooLargeMessage: TOO_LARGE_MESSAGE,
  answerFields: { limit: MAX_UPLOAD_BYTES },
  streams: true,
  upload: MULTIPART_UPLOADS,
};

/** POST /api/ticketing/graphql behind its limits. */
export const postGraphQL = endpoint(TICKETS_GRAPHQL_LIMITS, { auth: requireUser }, graphQLHandler);

/**
 * GET /api/ticketing/download/{link}: the file a sealed link names, streamed from the service with
 * the identity token sealed in the link. 403 for a link that does not open, 410 for an expired one
 * (or a token the service no longer takes), 404 when the service has no such file for the user.
 */
export const getDownload = endpoint(READ_ONLY, async (context: APIContext) => {
  const config = apiContext(context.locals).services.ticketing;
  const opened = openLink(config.linkSecret, context.params.link ?? '');
  if (!opened.ok) {
    return opened.reason === 'expired'
      ? json({ error: 'gone', message: 'This download link has expired. Reload the page for a new one.' }, 410)
      : json({ error: 'forbidden', message: 'This download link is not valid.' }, 403);
  }
  const file = await openFile(config, opened.claims.resource, opened.claims.token);
  if (file.kind === 'unavailable') {
    log.error({ reason: file.reason }, 'ticketing download unavailable');
    return json({ error: 'unavailable', message: UNAVAILABLE_MESSAGE }, 503);
  }
  if (file.kind === 'refused') {
    if (file.status === 401) return json({ error: 'gone', message: 'This download link has expired. Reload the page for a new one.' }, 410);
    return json({ error: 'not-found', message: 'There is no such file.' }, 404);
  }
  const up = file.response;
  const headers = new Headers({
    'Content-Type': up.headers.get('content-type') ?? 'application/octet-stream',
    'Content-Disposition': up.headers.get('content-disposition') ?? 'attachment',
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  const length = up.headers.get('content-length');
  if (length) headers.set('Content-Length', length);
  return new Response(up.body, { status: 200, headers });
});
