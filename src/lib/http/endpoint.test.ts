import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { FORM_TYPE, JSON_TYPE, NO_BODY } from './body.ts';
import { apiRoute, endpoint, READ_ONLY } from './endpoint.ts';
import { rateLimiter } from './rate-limit.ts';
import { requireSecret } from './secret-guard.ts';

const ok = () => new Response('ok');
/** A request as the server hands it on: a body comes with its Content-Length. */
const req = (init: { method?: string; body?: string; headers?: Record<string, string> } = {}) =>
  new Request('http://localhost/api/x', { method: init.method ?? 'POST', body: init.body, headers: { ...init.headers, ...(init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }) } });
const ctx = (request: Request, clientAddress = '192.0.2.1') => ({ request, clientAddress });

describe('endpoint', () => {
  const limits = { body: { maxBytes: 100, types: [JSON_TYPE, FORM_TYPE] } };

  it('keeps its declaration on the handler', () => {
    expect(endpoint(limits, ok).limits).toBe(limits);
  });

  it('answers 415 naming the accepted types for another media type, and 413 naming the limit for a declared length over it, before the handler runs', async () => {
    let ran = 0;
    const handler = endpoint(limits, () => { ran++; return ok(); });
    const wrongType = await handler(ctx(req({ body: '<x/>', headers: { 'content-type': 'application/xml' } })));
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toEqual({ error: 'unsupported-media-type', message: 'Unsupported Content-Type: send application/json or application/x-www-form-urlencoded.' });
    const tooLarge = await handler(ctx(req({ body: 'x'.repeat(101), headers: { 'content-type': 'application/json; charset=utf-8' } })));
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).message).toBe('The request body is too large: at most 100 bytes.');
    expect(ran).toBe(0);
    expect((await handler(ctx(req({ body: '{}', headers: { 'content-type': 'application/json' } })))).status).toBe(200);
    expect(ran).toBe(1);
  });

  it('refuses any body where the endpoint takes none (413), and lets a bodiless request through', async () => {
    const handler = endpoint({ body: NO_BODY }, ok);
    expect((await handler(ctx(req({ body: '{}', headers: { 'content-type': 'application/json' } })))).status).toBe(413);
    expect((await handler(ctx(req()))).status).toBe(200);
  });

  it('applies a per-type limit', async () => {
    const handler = endpoint({ body: { maxBytes: 1000, types: [JSON_TYPE, 'multipart/form-data'], maxBytesByType: { [JSON_TYPE]: 10 } } }, ok);
    expect((await handler(ctx(req({ body: 'x'.repeat(11), headers: { 'content-type': JSON_TYPE } })))).status).toBe(413);
    expect((await handler(ctx(req({ body: 'x'.repeat(11), headers: { 'content-type': 'multipart/form-data; boundary=b' } })))).status).toBe(200);
  });

  it('rate-limits per client with 429, Retry-After and a clear message in the endpoint\'s style', async () => {
    const handler = endpoint({ body: NO_BODY, rateLimit: { limit: 2, windowMs: 60_000 }, answerFields: { ok: false } }, ok, rateLimiter({ limit: 2, windowMs: 60_000 }));
    expect((await handler(ctx(req()))).status).toBe(200);
    expect((await handler(ctx(req()))).status).toBe(200);
    const limited = await handler(ctx(req()));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ ok: false, error: 'rate-limited', message: expect.stringMatching(/^Too many requests\. Try again in \d+ seconds\.$/) });
    // Another client has its own window.
    expect((await handler(ctx(req(), '192.0.2.2'))).status).toBe(200);
  });

  it('only declares a limit the handler applies itself', async () => {
    const handler = endpoint({ body: NO_BODY, rateLimit: { limit: 1, windowMs: 60_000, appliedBy: 'handler' } }, ok);
    for (let i = 0; i < 3; i++) expect((await handler(ctx(req()))).status).toBe(200);
  });
});

describe('apiRoute', () => {
  const route = apiRoute({ GET: endpoint(READ_ONLY, () => new Response('body', { headers: { 'x-a': '1' } })), DELETE: endpoint(READ_ONLY, ok) });

  it('answers other methods 405 with Allow and a clear message', async () => {
    const res = await route.ALL(ctx(req({ method: 'PUT' })));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, DELETE, HEAD');
    expect(await res.json()).toEqual({ error: 'method-not-allowed', message: 'Method not allowed: use GET or DELETE or HEAD.' });
  });

  it('answers HEAD like GET without a body, and OPTIONS with Allow', async () => {
    const head = await route.ALL(ctx(req({ method: 'HEAD' })));
    expect([head.status, head.headers.get('x-a'), await head.text()]).toEqual([200, '1', '']);
    const options = await route.ALL(ctx(req({ method: 'OPTIONS' })));
    expect([options.status, options.headers.get('allow')]).toEqual([204, 'GET, DELETE, HEAD, OPTIONS']);
  });

  it('keeps the method handlers as they are', () => {
    expect(typeof route.GET).toBe('function');
    expect(route.GET.limits).toBe(READ_ONLY);
  });
});

describe('endpoint: chunked bodies', () => {
  const chunked = (size: number) => new Request('http://localhost/api/x', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    body: new ReadableStream<Uint8Array>({ start(c) { c.enqueue(new TextEncoder().encode(`"${'x'.repeat(size)}"`)); c.close(); } }),
    duplex: 'half',
  } as RequestInit);

  it('counts a chunked body for a handler that never reads it: 413 over the limit; within it the handler gets the body', async () => {
    let seen = '';
    const handler = endpoint({ body: { maxBytes: 100, types: [JSON_TYPE] } }, async (c: { request: Request }) => { seen = await c.request.text(); return ok(); });
    expect((await handler(ctx(chunked(200)))).status).toBe(413);
    expect(seen).toBe('');
    expect((await handler(ctx(chunked(10)))).status).toBe(200);
    expect(seen).toBe(`"${'x'.repeat(10)}"`);
  });

  it('leaves a streaming endpoint\'s chunked body to its handler', async () => {
    const handler = endpoint({ body: { maxBytes: 100, types: [JSON_TYPE] }, streams: true }, ok);
    expect((await handler(ctx(chunked(200)))).status).toBe(200);
  });
});

describe('endpoint with a declaration', () => {
  const Body = v.strictObject({ name: v.pipe(v.string('name must be a string'), v.maxLength(5, 'name must be at most 5 characters')) });
  const LIMITS = { body: { maxBytes: 64, types: [JSON_TYPE] } };
  const call = async (handler: (c: never) => Response | Promise<Response>, init: { body?: string; headers?: Record<string, string>; params?: Record<string, string> } = {}) => {
    const request = req({ body: init.body, headers: { 'content-type': 'application/json', ...init.headers } });
    const res = await handler({ request, clientAddress: '192.0.2.9', params: init.params ?? {}, url: new URL(request.url), locals: {} } as never);
    return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') ? await res.json() as unknown : await res.text() };
  };

  it('no auth: the schema\'s refusal is a 400 in the one shape naming the field; the handler gets the checked body', async () => {
    const handler = endpoint(LIMITS, { body: Body }, ({ body }) => Response.json({ hello: body.name }));
    expect(await call(handler, { body: '{"name":"toolong"}' })).toEqual({ status: 400, body: { error: 'bad-request', message: 'name must be at most 5 characters', detail: { field: 'name' } } });
    expect(await call(handler, { body: '{"name":"ada","x":1}' })).toEqual({ status: 400, body: { error: 'bad-request', message: 'Unknown field: x', detail: { field: 'x' } } });
    expect(await call(handler, { body: '{"name":"ada"}' })).toEqual({ status: 200, body: { hello: 'ada' } });
  });

  it('the body limit is the declared one (the wrapper\'s, before the guard or the schema)', async () => {
    const handler = endpoint(LIMITS, { body: Body }, () => new Response('ran'));
    expect((await call(handler, { body: JSON.stringify({ name: 'x'.repeat(100) }) })).status).toBe(413);
  });

  it('user (a guard with roles): 401 without a caller, 403 without the role, before the input is read', async () => {
    // Stands in for requireUser / requireRoles (src/features/sign-in/bearer.server.ts), whose answers are theirs.
    const requireRole = (role: string) => async ({ request }: { request: Request }) => {
      const token = /^Bearer (\w+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
      if (!token) return Response.json({ error: 'unauthorized', message: 'An access token is required' }, { status: 401 });
      return token === role ? { sub: 'u1', roles: [role] } : Response.json({ error: 'forbidden', message: 'Your account has no access to this.' }, { status: 403 });
    };
    const handler = endpoint(LIMITS, { auth: requireRole('admin'), body: Body }, ({ user, body }) => Response.json({ sub: user.sub, name: body.name }));
    expect((await call(handler, { body: '{' })).status).toBe(401);
    expect((await call(handler, { body: '{', headers: { authorization: 'Bearer guest' } })).status).toBe(403);
    expect((await call(handler, { body: '{', headers: { authorization: 'Bearer admin' } })).body).toEqual({ error: 'bad-request', message: 'The body is not valid JSON.' });
    expect(await call(handler, { body: '{"name":"ada"}', headers: { authorization: 'Bearer admin' } })).toEqual({ status: 200, body: { sub: 'u1', name: 'ada' } });
  });

  it('secret: 401 with a missing or wrong secret, 503 when none is configured, the handler with the right one', async () => {
    let configured: string | undefined = 's3cret-value';
    const handler = endpoint(LIMITS, { auth: requireSecret(() => configured, 'x-hook-secret') }, () => new Response('ran'));
    expect(await call(handler)).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect((await call(handler, { headers: { 'x-hook-secret': 's3cret-valuE' } })).status).toBe(401);
    expect(await call(handler, { headers: { 'x-hook-secret': 's3cret-value' } })).toEqual({ status: 200, body: 'ran' });
    expect(await call(handler, { headers: { authorization: 'Bearer s3cret-value' } })).toEqual({ status: 200, body: 'ran' });
    configured = undefined;
    expect((await call(handler, { headers: { 'x-hook-secret': 's3cret-value' } })).status).toBe(503);
  });

  it('route parameters and the query are checked too (each refusal names its field)', async () => {
    const handler = endpoint(READ_ONLY, { params: { id: v.pipe(v.string(), v.regex(/^\d+$/, 'id must be digits')) }, query: v.object({ page: v.optional(v.pipe(v.string(), v.regex(/^\d+$/, 'page must be a number'))) }) }, ({ params, query }) => Response.json({ id: params.id, page: query.page ?? null }));
    expect(await call(handler, { params: { id: 'x' } })).toEqual({ status: 400, body: { error: 'bad-request', message: 'id must be digits', detail: { field: 'id' } } });
    expect(await call(handler, { params: { id: '7' } })).toEqual({ status: 200, body: { id: '7', page: null } });
  });
});
