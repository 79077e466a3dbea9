import type { APIContext } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoContentHub, type DemoContentHub } from '../../../emulators/testing.ts';
import { PAGE_BY_PATH } from '../../lib/content/queries.ts';
import { memorySharedState } from '../../lib/shared-state/index.ts';
import { EDITOR_COOKIE, newEditorSession, readEditorSession, revokeEditorSession } from '../editor/session.server.ts';
import { DRAFT_PROXY_MAX_BODY, localeChain, postDraftProxy } from './api.server.ts';

const HASH = 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5';
const SESSION = newEditorSession(HASH);
const EDITOR = `${EDITOR_COOKIE}=${SESSION}`;
const sharedState = memorySharedState();
let hub: DemoContentHub;
let endpoint: string;

beforeAll(async () => {
  hub = await startDemoContentHub();
  endpoint = hub.url;
});
afterAll(() => hub.close());

async function call(body: unknown, opts: { cookie?: string; contentType?: string; hubEndpoint?: string } = {}): Promise<{ status: number; headers: Headers; body: { error?: string; message?: string; data?: unknown } }> {
  const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/json' };
  if (opts.cookie) headers.cookie = opts.cookie;
  const request = new Request('http://localhost/api/draft-proxy/graphql', { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const services = { editorPasswordHash: HASH, sharedState, content: { endpoint: opts.hubEndpoint ?? endpoint, connectTimeoutMs: 500, timeoutMs: 2000 } };
  const res = await postDraftProxy({ request, locals: { api: { services } } } as unknown as APIContext);
  return { status: res.status, headers: res.headers, body: JSON.parse(await res.text()) };
}
const sustainability = { query: PAGE_BY_PATH, variables: { site: 'site-main', path: '/about-us/sustainability' } };

describe('POST /api/draft-proxy/graphql', () => {
  it('is 401 without a valid editor cookie (none, forged, of another password, revoked), before reading the body', async () => {
    const revoked = newEditorSession(HASH);
    await revokeEditorSession(readEditorSession(revoked, HASH)!, sharedState);
    for (const cookie of [undefined, `${EDITOR_COOKIE}=forged`, `${EDITOR_COOKIE}=${newEditorSession(`${HASH}x`)}`, `${EDITOR_COOKIE}=${revoked}`]) {
      const res = await call(sustainability, { cookie });
      expect(res.status).toBe(401);
      expect(res.body.data).toBeUndefined();
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect((await call('{broken', {})).status).toBe(401);
  });

  it('answers an editor\'s allow-listed operation from the DRAFT stage in the given locales, no-store', async () => {
    const res = await call({ ...sustainability, operationName: 'PageByPath', locales: ['de-CH', 'de'] }, { cookie: EDITOR });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((res.body.data as { pageByPath: { title: string } }).pageByPath.title).toBe('Nachhaltigkeit und Klimaziele 2030');
  });

  it('validates the request: 415, 413, 400 with clear messages', async () => {
    expect(await call(sustainability, { cookie: EDITOR, contentType: 'text/plain' })).toMatchObject({ status: 415, body: { error: expect.any(String), message: 'Send JSON (Content-Type: application/json).' } });
    expect(await call({ ...sustainability, variables: { pad: 'x'.repeat(DRAFT_PROXY_MAX_BODY) } }, { cookie: EDITOR })).toMatchObject({ status: 413 });
    expect(await call('{broken', { cookie: EDITOR })).toMatchObject({ status: 400, body: { error: expect.any(String), message: 'The body is not valid JSON.' } });
    expect(await call([], { cookie: EDITOR })).toMatchObject({ status: 400, body: { error: expect.any(String), message: 'The body must be a JSON object.' } });
    expect(await call({ variables: {} }, { cookie: EDITOR })).toMatchObject({ status: 400, body: { error: expect.any(String), message: 'query is required' } });
    expect(await call({ query: '' }, { cookie: EDITOR })).toMatchObject({ status: 400, body: { error: expect.any(String), message: 'query is required' } });
    expect(await call({ query: 42 }, { cookie: EDITOR })).toMatchObject({ status: 400, body: { error: expect.any(String), message: 'query must be a string' } });
    expect(await call({ ...sustainability, variables: ['x'] }, { cookie: EDITOR })).toMatchObject({ status: 400, body: { error: expect.any(String), message: 'variables must be an object' } });
    expect(await call({ ...sustainability, extensions: {} }, { cookie: EDITOR })).toMatchObject({ status: 400, body: { error: expect.any(String), message: 'Unknown field: extensions' } });
    expect(await call({ ...sustainability, locales: ['en; drop'] }, { cookie: EDITOR })).toMatchObject({ status: 400 });
    expect(await call({ query: '{ file(slug: "a") { url } }' }, { cookie: EDITOR })).toMatchObject({ status: 400, body: { error: expect.any(String), message: expect.stringContaining('own content operations') } });
  });

  it('passes the content hub\'s refusal of the variables on as a 400, its absence as a 503', async () => {
    const bad = await call({ query: PAGE_BY_PATH, variables: { site: 'site-main' } }, { cookie: EDITOR });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/path/);
    const down = await call(sustainability, { cookie: EDITOR, hubEndpoint: 'http://127.0.0.1:9/graphql' });
    expect(down.status).toBe(503);
  });
});

describe('localeChain', () => {
  it('keeps the order and puts English last, once', () => {
    expect(localeChain(['de-CH', 'en', 'de'])).toEqual(['de-CH', 'de', 'en']);
    expect(localeChain([])).toEqual(['en']);
  });
});
