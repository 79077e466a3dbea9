import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { inject } from '../../../tests/support/node-http.ts';
import { JSON_TYPE } from './body.ts';
import { apiRoute, endpoint } from './endpoint.ts';
import { json } from './json.ts';
import { nodeRoute, type NodeContext } from './node-route.ts';

describe('nodeRoute: an endpoint() declaration served by the Node server', () => {
  const seen: string[] = [];
  const post = endpoint<NodeContext, undefined, v.GenericSchema>({ body: { maxBytes: 64, types: [JSON_TYPE] } }, { body: v.strictObject({ name: v.string('name must be a string') }) }, ({ body, context }) => {
    seen.push(context.clientAddress);
    const res = json({ hello: (body as { name: string }).name });
    res.headers.append('Set-Cookie', 'a=1');
    res.headers.append('Set-Cookie', 'b=2');
    return res;
  });
  const route = nodeRoute('/api/hook', apiRoute({ POST: post }));
  const serve = (opts: { method?: string; url?: string; body?: string; headers?: Record<string, string> }) =>
    inject(async (req, res) => {
      if (!(await route(req, res, new URL(`http://localhost${req.url}`)))) res.writeHead(404).end('not ours');
    }, { method: opts.method ?? 'POST', url: opts.url ?? '/api/hook', body: opts.body, headers: opts.headers });

  it('answers only its own path', async () => {
    expect((await serve({ url: '/api/hook/x' })).body).toBe('not ours');
  });

  it('runs the declaration on the streamed body and sends the answer whole (every Set-Cookie kept)', async () => {
    const res = await serve({ body: '{"name":"Ada"}', headers: { 'content-type': 'application/json' } });
    expect([res.status, JSON.parse(res.body)]).toEqual([200, { hello: 'Ada' }]);
    expect(res.headers['set-cookie']).toBe('a=1, b=2');
    expect(seen.at(-1)).toBeTypeOf('string');
  });

  it('answers the refusals of the one code path: 400 in the one shape, 413 over the limit, 405 with Allow', async () => {
    const bad = await serve({ body: '{"name":1}', headers: { 'content-type': 'application/json' } });
    expect([bad.status, JSON.parse(bad.body)]).toEqual([400, { error: 'bad-request', message: 'name must be a string', detail: { field: 'name' } }]);
    const big = JSON.stringify({ name: 'x'.repeat(100) });
    expect((await serve({ body: big, headers: { 'content-type': 'application/json', 'content-length': String(big.length) } })).status).toBe(413);
    const get = await serve({ method: 'GET' });
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
  });
});
