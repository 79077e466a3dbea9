import { describe, expect, it } from 'vitest';
import { FORM_TYPE, JSON_TYPE, NO_BODY } from './body.ts';
import { apiRoute, endpoint, READ_ONLY } from './endpoint.ts';
import { rateLimiter } from './rate-limit.ts';

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
    const handler = endpoint({ body: NO_BODY, rateLimit: { limit: 2, windowMs: 60_000 }, errorStyle: 'message', answerFields: { ok: false } }, ok, rateLimiter({ limit: 2, windowMs: 60_000 }));
    expect((await handler(ctx(req()))).status).toBe(200);
    expect((await handler(ctx(req()))).status).toBe(200);
    const limited = await handler(ctx(req()));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ ok: false, error: expect.stringMatching(/^Too many requests\. Try again in \d+ seconds\.$/) });
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
