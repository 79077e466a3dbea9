import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { checked, issueMessage, readInput } from './input.ts';

const Body = v.strictObject({ name: v.pipe(v.string('name must be a string'), v.maxLength(5, 'name must be at most 5 characters')), tags: v.optional(v.array(v.string('tags must be strings'))) });

const issues = (value: unknown) => v.safeParse(Body, value).issues!;
const post = (body: string, type = 'application/json') => new Request('http://localhost/api/x', { method: 'POST', headers: { 'content-type': type }, body });
const answer = async (res: Response) => ({ status: res.status, body: await res.json() as unknown });

describe('issueMessage', () => {
  it.each([
    ['an unknown field', { name: 'a', admin: true }, { message: 'Unknown field: admin', field: 'admin' }],
    ['a missing field', {}, { message: 'name is required', field: 'name' }],
    ['a wrong type', { name: 5 }, { message: 'name must be a string', field: 'name' }],
    ['a nested item: the top-level field', { name: 'a', tags: [1] }, { message: 'tags must be strings', field: 'tags' }],
    ['not an object', 'x', { message: 'The body must be a JSON object.' }],
  ])('%s', (_name, value, expected) => {
    expect(issueMessage(issues(value))).toEqual(expected);
  });

  it('cuts a hostile key to 50 characters', () => {
    const { message, field } = issueMessage(issues({ name: 'a', ['k'.repeat(500)]: 1 }));
    expect(field).toHaveLength(50);
    expect(message).toBe(`Unknown field: ${'k'.repeat(50)}`);
  });
});

describe('readInput', () => {
  it('answers every refusal in the one shape', async () => {
    const cases: [Request, number, unknown][] = [
      [post('{'), 400, { error: 'bad-request', message: 'The body is not valid JSON.' }],
      [post('[1]'), 400, { error: 'bad-request', message: 'The body must be a JSON object.' }],
      [post('{"name":"toolong"}'), 400, { error: 'bad-request', message: 'name must be at most 5 characters', detail: { field: 'name' } }],
      [post('name=a', 'application/x-www-form-urlencoded'), 415, { error: 'unsupported-media-type', message: 'Send JSON (Content-Type: application/json).' }],
      [post(JSON.stringify({ name: 'x'.repeat(200) })), 413, { error: 'too-large', message: 'Request body too large.' }],
    ];
    for (const [request, status, body] of cases) {
      const read = await readInput(request, Body, 100);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(await answer(read.response)).toEqual({ status, body });
    }
    expect(await readInput(post('{"name":"a"}'), Body, 100)).toEqual({ ok: true, value: { name: 'a' } });
  });
});

describe('checked', () => {
  const ctx = (request: Request, params: Record<string, string> = {}) => ({ request, params, url: new URL(request.url), locals: {} });
  const guard = async ({ request }: { request: Request }) => request.headers.get('authorization') === 'Bearer ok' ? { sub: 'u1' } : new Response(null, { status: 401 });
  const handler = checked({ auth: guard, params: { id: v.pipe(v.string(), v.uuid('id must be a UUID')) }, body: Body }, ({ user, params, body }) => Response.json({ sub: user.sub, id: params.id, name: body.name }));
  const ID = '7f3c2a10-5b1e-4c6a-9d2e-1a0000000001';
  const withAuth = (body: string) => new Request('http://localhost/api/x', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ok' }, body });

  it('the guard first: its refusal as is, before the input is looked at', async () => {
    expect((await handler(ctx(post('{'), { id: 'nope' }))).status).toBe(401);
  });

  it('then the route parameters, then the body; the handler gets them checked', async () => {
    expect(await answer(await handler(ctx(withAuth('{'), { id: 'nope' })))).toEqual({ status: 400, body: { error: 'bad-request', message: 'id must be a UUID', detail: { field: 'id' } } });
    expect(await answer(await handler(ctx(withAuth('{}'), { id: ID })))).toEqual({ status: 400, body: { error: 'bad-request', message: 'name is required', detail: { field: 'name' } } });
    expect(await answer(await handler(ctx(withAuth('{"name":"a"}'), { id: ID })))).toEqual({ status: 200, body: { sub: 'u1', id: ID, name: 'a' } });
  });

  it('a query: only the parameters the schema names, empty ones dropped', async () => {
    const list = checked({ query: v.object({ page: v.optional(v.pipe(v.string(), v.digits('page must be a number'))) }) }, ({ query }) => Response.json(query));
    const get = (q: string) => list(ctx(new Request(`http://localhost/api/x?${q}`)));
    expect(await answer(await get('page=2&other=1'))).toEqual({ status: 200, body: { page: '2' } });
    expect(await answer(await get('page='))).toEqual({ status: 200, body: {} });
    expect(await answer(await get('page=x'))).toEqual({ status: 400, body: { error: 'bad-request', message: 'page must be a number', detail: { field: 'page' } } });
  });
});
