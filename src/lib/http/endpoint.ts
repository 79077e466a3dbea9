/**
 * The declared limits of an API endpoint, and the wrapper that applies them before the handler
 * runs (issue 15): the largest body and its media types (413 / 415 from the headers alone, before
 * a byte is read; the handler's reader keeps counting a chunked body), and the per-client rate
 * limit of an endpoint that writes (429 with Retry-After). `apiRoute` adds the 405 with `Allow` for
 * the methods a route does not take. The declaration stays on the handler (`handler.limits`), so
 * tests and docs read it.
 *
 * With a declaration (`endpoint(limits, { auth, params, query, body }, handler)`) the handler gets
 * its input already checked (input.ts, in this order: the guard, the route parameters, the query,
 * the JSON body, each refusal a 4xx in the one error shape). `auth` is a guard: `requireUser` or
 * `requireRoles(...)` (a signed-in customer, src/features/sign-in/bearer.server.ts), `requireEditor`
 * (src/features/editor/auth.server.ts), `requireSecret(...)` (a shared secret, secret-guard.ts),
 * or none.
 * @example
 *   export const patchThing = endpoint(LIMITS, { auth: requireUser, body: ThingBody }, ({ user, body }) => json(…));
 *   export const postThing = endpoint({ body: { maxBytes: 8 * 1024, types: [JSON_TYPE] }, rateLimit: { limit: 30, windowMs: 60_000 } }, handler);
 *   // src/pages/api/thing.ts
 *   export const { POST, ALL } = apiRoute({ POST: postThing });
 */
import type * as v from 'valibot';
import { bodyRefusal, checkBodyHeaders, errorBody, hasBody, JSON_TYPE, limitFor, mediaType, NO_BODY, withCountedBody, type BodyRule } from './body.ts';
import { clientKey, rateLimiter, type RateLimiter } from './rate-limit.ts';
import { tooManyUploads, UploadSlots, uploadTooSlow, watchUploadRate, type UploadRule } from './upload-guard.ts';
import { checked, type APIContextLike, type CheckedInput, type InputRules, type Schemas } from './input.ts';

/** A per-client limit: `limit` requests per `windowMs`. */
export interface RateRule {
  limit: number;
  windowMs: number;
  /**
   * 'handler': the handler applies this limit itself (it counts only some requests, e.g. failed
   * sign-ins, or shares its limiter with an HTML form); the wrapper only declares it.
   */
  appliedBy?: 'handler';
}

export interface EndpointLimits {
  /** The body the endpoint takes; `NO_BODY` when it takes none. */
  body: BodyRule;
  /** The per-client rate limit (every endpoint that writes has one). */
  rateLimit?: RateRule;
  /** Fields every refusal of the wrapper carries besides the error (e.g. `{ ok: false }`, the endpoint's own answer shape). */
  answerFields?: Record<string, unknown>;
  /** The endpoint's own wording of a 413 (e.g. naming a file limit in words). */
  tooLargeMessage?: string;
  /**
   * The handler streams the body on and counts it itself (uploads). Otherwise a chunked body is
   * counted by the wrapper (read into memory up to the limit) before the handler runs.
   */
  streams?: true;
  /**
   * Bodies of these types are uploads (a `streams` endpoint): at most `maxPerClient` at once per
   * client (429), and a minimum transfer rate (408). See upload-guard.ts.
   */
  upload?: UploadRule;
}

type Handler<C> = (context: C) => Response | Promise<Response>;
/** Any route handler (its context type does not matter to `apiRoute`). */
type AnyHandler = (context: never) => Response | Promise<Response>;
/** A handler that carries its declared limits. */
export type LimitedHandler<C> = Handler<C> & { limits: EndpointLimits };

/**
 * The route a request matched (`/api/account/[field]`), so every endpoint counts apart in the
 * shared store however its parameters vary; the path when Astro did not say (a test's context).
 */
function routeOf(context: { request: Request; routePattern?: string }): string {
  return context.routePattern || new URL(context.request.url).pathname;
}

/** The 429 answer: a clear message and `Retry-After` in seconds. */
export function rateLimited(retryAfterSeconds: number, extra: Record<string, unknown> = {}): Response {
  return new Response(errorBody('rate-limited', `Too many requests. Try again in ${retryAfterSeconds} seconds.`, extra), {
    status: 429,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': String(retryAfterSeconds) },
  });
}

/**
 * The handler behind its limits: rate limit first (when the wrapper applies it), then the body's
 * headers. `limiter` for tests (default: one limiter per endpoint and process).
 */
/** What an endpoint checks before its handler runs: who may call it, then its route parameters, query and JSON body. */
export type Declaration<C, U, B extends v.GenericSchema | undefined, P extends Schemas, Q extends v.GenericSchema | undefined> = Omit<InputRules<C, U, B, P, Q>, 'maxBytes'>;

type Ctx = { request: Request; clientAddress?: string; routePattern?: string };

export function endpoint<C extends Ctx>(limits: EndpointLimits, handler: Handler<C>, limiter?: RateLimiter, uploadSlots?: UploadSlots): LimitedHandler<C>;
export function endpoint<C extends Ctx & APIContextLike, U = undefined, B extends v.GenericSchema | undefined = undefined, P extends Schemas = Record<never, never>, Q extends v.GenericSchema | undefined = undefined>(
  limits: EndpointLimits, declaration: Declaration<C, U, B, P, Q>, handler: (input: CheckedInput<C, U, B, P, Q>) => Response | Promise<Response>, limiter?: RateLimiter, uploadSlots?: UploadSlots,
): LimitedHandler<C>;
export function endpoint<C extends Ctx>(limits: EndpointLimits, ...rest: unknown[]): LimitedHandler<C> {
  if (typeof rest[0] === 'function') return limited(limits, rest[0] as Handler<C>, rest[1] as RateLimiter | undefined, rest[2] as UploadSlots | undefined);
  const declaration = rest[0] as Declaration<C & APIContextLike, unknown, v.GenericSchema | undefined, Schemas, v.GenericSchema | undefined>;
  const handler = rest[1] as (input: unknown) => Response | Promise<Response>;
  const maxBytes = limitFor(limits.body, JSON_TYPE) || undefined;
  return limited(limits, checked({ ...declaration, maxBytes }, handler) as unknown as Handler<C>, rest[2] as RateLimiter | undefined, rest[3] as UploadSlots | undefined);
}

function limited<C extends Ctx>(limits: EndpointLimits, handler: Handler<C>, limiter?: RateLimiter, uploadSlots?: UploadSlots): LimitedHandler<C> {
  const rule = limits.rateLimit;
  const slots = limits.upload ? (uploadSlots ?? new UploadSlots()) : null;
  const own = rule && rule.appliedBy !== 'handler' ? (limiter ?? rateLimiter({ limit: rule.limit, windowMs: rule.windowMs, name: 'endpoint' })) : null;
  const extra = limits.answerFields ?? {};
  const wrapped = async (context: C): Promise<Response> => {
    if (own) {
      const hit = await own.hit(`${context.request.method} ${routeOf(context)}|${clientKey(context)}`);
      if (!hit.allowed) return rateLimited(hit.retryAfterSeconds, extra);
    }
    const refused = checkBodyHeaders(context.request, limits.body);
    const tooLarge = () => bodyRefusal('too-large', limits.body, { extra, message: limits.tooLargeMessage });
    if (refused) return refused === 'too-large' ? tooLarge() : bodyRefusal(refused, limits.body, { extra });
    const upload = limits.upload;
    if (upload && slots && context.request.body && hasBody(context.request) && upload.types.includes(mediaType(context.request.headers))) {
      const release = slots.take(clientKey(context), upload.maxPerClient);
      if (!release) return tooManyUploads(upload, extra);
      let slow = false;
      const watched = watchUploadRate(context.request.body, upload, () => { slow = true; });
      const req = context.request;
      const measured = new Request(req.url, { method: req.method, headers: req.headers, body: watched.body, signal: req.signal, duplex: 'half' } as RequestInit);
      try {
        const answer = await handler(Object.create(context, { request: { value: measured } }) as C);
        // Whatever the handler made of the failed body (its upstream call failed), the client hears why.
        return slow ? uploadTooSlow(upload, extra) : answer;
      } finally {
        watched.stop();
        release();
      }
    }
    if (limits.streams || limits.body.types.length === 0) return handler(context);
    const counted = await withCountedBody(context.request, limits.body.maxBytes);
    if (!counted) return tooLarge();
    // The same context (its getters are closures over Astro's state) with the counted request.
    return handler(counted === context.request ? context : Object.create(context, { request: { value: counted } }) as C);
  };
  return Object.assign(wrapped, { limits });
}

/** A read-only endpoint: no body, no rate limit. */
export const READ_ONLY: EndpointLimits = { body: NO_BODY };

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof METHODS)[number];

/** 405 naming the methods the route takes. */
export function methodNotAllowed(allowed: readonly string[]): Response {
  return new Response(JSON.stringify({ error: 'method-not-allowed', message: `Method not allowed: use ${allowed.join(' or ')}.` }), {
    status: 405,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', Allow: allowed.join(', ') },
  });
}

/**
 * A route's method handlers plus `ALL`, which answers every other method 405 with `Allow` (HEAD
 * goes to GET, as Astro does without ALL; OPTIONS is answered 204 with `Allow`).
 */
export function apiRoute<M extends Partial<Record<Method, AnyHandler>>>(methods: M): M & { ALL: (context: { request: Request }) => Promise<Response> } {
  const names = (Object.keys(methods) as Method[]).filter((m) => methods[m]);
  const allowed = names.includes('GET') ? [...names, 'HEAD'] : names;
  const get = methods.GET as ((context: { request: Request }) => Response | Promise<Response>) | undefined;
  const ALL = async (context: { request: Request }): Promise<Response> => {
    const method = context.request.method.toUpperCase();
    if (method === 'HEAD' && get) return new Response(null, await get(context));
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers: { Allow: [...allowed, 'OPTIONS'].join(', '), 'Cache-Control': 'no-store' } });
    return methodNotAllowed(allowed);
  };
  return { ...methods, ALL };
}
