import type { APIContext, APIRoute } from 'astro';
import { describe, expect, it } from 'vitest';
import { hashPasswordSync } from '../../lib/crypto/password.ts';
import { rateLimiter } from '../../lib/http/rate-limit.ts';
import { checkEditorPassword, editorAuthHandlers, readFormBody, SIGN_IN_LIMIT } from './auth.server.ts';
import { translationState } from './api.server.ts';
import { EDITOR_COOKIE, EDITOR_COOKIE_MAX_AGE, editorSessionValue } from './session.server.ts';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const HASH = hashPasswordSync('right-password', FAST);

interface Call { status: number; headers: Headers; body: Record<string, unknown> | null }

async function call(handler: APIRoute, opts: { hash?: string | undefined; body?: unknown; contentType?: string; client?: string; url?: string; cookie?: string; params?: Record<string, string> } = {}): Promise<Call> {
  const url = opts.url ?? 'http://localhost:4321/api/editor-area-autentication';
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  if (opts.cookie) headers.cookie = opts.cookie;
  const request = new Request(url, { method: 'POST', headers, ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}) });
  const services = { editorPasswordHash: 'hash' in opts ? opts.hash : HASH, content: { endpoint: 'http://127.0.0.1:9/graphql' } };
  const context = { request, url: new URL(url), locals: { api: { services } }, clientAddress: opts.client ?? '10.0.0.1', params: opts.params ?? {} };
  const res = await handler(context as unknown as APIContext);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) as Record<string, unknown> : null };
}

const fresh = () => editorAuthHandlers(rateLimiter(SIGN_IN_LIMIT));

describe('POST /api/editor-area-autentication with {input}', () => {
  it('the right password answers success, the hashedPassword (the session value, never the scrypt hash) and a 90-day cookie', async () => {
    const res = await call(fresh().signIn, { body: { input: 'right-password' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, hashedPassword: editorSessionValue(HASH) });
    expect(res.body!.hashedPassword).not.toContain('scrypt');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toContain(`${EDITOR_COOKIE}=${editorSessionValue(HASH)}`);
    expect(cookie).toContain(`Max-Age=${EDITOR_COOKIE_MAX_AGE}`);
    expect(EDITOR_COOKIE_MAX_AGE).toBe(90 * 24 * 60 * 60);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('sets Secure outside localhost', async () => {
    const res = await call(fresh().signIn, { body: { input: 'right-password' }, url: 'https://komax.example/api/editor-area-autentication' });
    expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
  });

  it('a wrong password is 401 {success:false} without a cookie', async () => {
    const res = await call(fresh().signIn, { body: { input: 'wrong' } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('an empty password is refused (400) before any check', async () => {
    const res = await call(fresh().signIn, { body: { input: '' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: 'password-required', message: 'A non-empty password is required.' });
  });

  it('after 5 failures a client gets 429 with Retry-After and a clear message, even for the right password; other clients are not affected', async () => {
    const { signIn } = fresh();
    for (let i = 0; i < 5; i++) expect((await call(signIn, { body: { input: `wrong-${i}` } })).status).toBe(401);
    const limited = await call(signIn, { body: { input: 'right-password' } });
    expect(limited.status).toBe(429);
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(limited.body).toMatchObject({ success: false, error: 'rate-limited' });
    expect(String(limited.body!.message)).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ seconds\.$/);
    expect((await call(signIn, { body: { input: 'right-password' }, client: '10.0.0.2' })).status).toBe(200);
  });

  it('a success clears the count of failures', async () => {
    const { signIn } = fresh();
    for (let i = 0; i < 4; i++) await call(signIn, { body: { input: 'wrong' } });
    expect((await call(signIn, { body: { input: 'right-password' } })).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await call(signIn, { body: { input: 'wrong' } })).status).toBe(401);
  });

  it('answers 503 with a clear message when EDITOR_PASSWORD_HASH is not configured', async () => {
    const res = await call(fresh().signIn, { hash: undefined, body: { input: 'right-password' } });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: 'editor-area-closed' });
    expect(String(res.body!.message)).toContain('EDITOR_PASSWORD_HASH');
  });

  it('refuses bodies that are not small JSON of the right shape', async () => {
    const { signIn } = fresh();
    expect((await call(signIn, { body: 'input=x', contentType: 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await call(signIn, { body: '{"input":' })).status).toBe(400);
    expect((await call(signIn, { body: { input: 'x'.repeat(5000) } })).status).toBe(413);
    const wrongShape = await call(signIn, { body: { password: 'x' } });
    expect(wrongShape.status).toBe(400);
    expect(wrongShape.body!.message).toBe('the body must be {"input": "<password>"} or {"hash": "<hashedPassword>"}');
    expect((await call(signIn, { body: { input: 42 } })).status).toBe(400);
  });
});

describe('POST /api/editor-area-autentication with {hash}', () => {
  it('confirms the current session value (and renews the cookie), refuses anything else', async () => {
    const ok = await call(fresh().signIn, { body: { hash: editorSessionValue(HASH) } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true });
    expect(ok.headers.get('set-cookie')).toContain(`Max-Age=${EDITOR_COOKIE_MAX_AGE}`);
    const bad = await call(fresh().signIn, { body: { hash: 'forged' } });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ success: false });
  });

  it('a session of the previous password is refused once the configured hash changes', async () => {
    const old = editorSessionValue(HASH);
    const changed = hashPasswordSync('new-password', FAST);
    expect((await call(fresh().signIn, { hash: changed, body: { hash: old } })).body).toEqual({ success: false });
  });
});

describe('the editor cookie on editor APIs', () => {
  it('is re-checked on every request: none, a forged one or one of a changed password is 401; 503 when closed', async () => {
    const params = { pageId: 'cm86g1xcd2xsqlb0racgnpi2o' };
    expect((await call(translationState, { params })).status).toBe(401);
    expect((await call(translationState, { params, cookie: `${EDITOR_COOKIE}=forged` })).status).toBe(401);
    const changed = hashPasswordSync('new-password', FAST);
    const stale = await call(translationState, { params, hash: changed, cookie: `${EDITOR_COOKIE}=${editorSessionValue(HASH)}` });
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ error: 'editor-session-required' });
    expect((await call(translationState, { params, hash: undefined, cookie: `${EDITOR_COOKIE}=${editorSessionValue(HASH)}` })).status).toBe(503);
  });

  it('a valid cookie passes the check (then the bad page id is the 400)', async () => {
    const res = await call(translationState, { params: { pageId: '../x' }, cookie: `${EDITOR_COOKIE}=${editorSessionValue(HASH)}` });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: 'pageId must be 1 to 64 letters, digits, - or _' });
  });
});

describe('logout', () => {
  it('clears the cookie; a form post goes back to the sign-in of its locale', async () => {
    const { logout } = fresh();
    const asJson = await call(logout, { body: {} });
    expect(asJson.status).toBe(200);
    expect(asJson.headers.get('set-cookie')).toMatch(new RegExp(`^${EDITOR_COOKIE}=; Max-Age=0;`));
    const asForm = await call(logout, { body: 'locale=de-ch', contentType: 'application/x-www-form-urlencoded' });
    expect(asForm.status).toBe(303);
    expect(asForm.headers.get('location')).toBe('/de-ch/editor');
    expect(asForm.headers.get('set-cookie')).toContain('Max-Age=0');
    const hostile = await call(logout, { body: 'locale=//evil.example', contentType: 'application/x-www-form-urlencoded' });
    expect(hostile.headers.get('location')).toBe('/en/editor');
  });
});

describe('checkEditorPassword and readFormBody', () => {
  it('tells the outcomes apart', async () => {
    const limiter = rateLimiter(SIGN_IN_LIMIT);
    expect(await checkEditorPassword('x', undefined, 'c', limiter)).toEqual({ kind: 'closed' });
    expect(await checkEditorPassword('', HASH, 'c', limiter)).toEqual({ kind: 'empty' });
    expect(await checkEditorPassword('nope', HASH, 'c', limiter)).toEqual({ kind: 'wrong' });
    expect(await checkEditorPassword('x'.repeat(2000), HASH, 'c', limiter)).toEqual({ kind: 'wrong' });
    expect(await checkEditorPassword('right-password', HASH, 'c', limiter)).toEqual({ kind: 'ok', sessionValue: editorSessionValue(HASH) });
  });

  it('reads small url-encoded forms only', async () => {
    const form = (body: string, type = 'application/x-www-form-urlencoded') => new Request('http://localhost/', { method: 'POST', headers: { 'content-type': type }, body });
    expect((await readFormBody(form('password=a%20b&intent=sign-in'), 100))?.get('password')).toBe('a b');
    expect(await readFormBody(form(`password=${'x'.repeat(200)}`), 100)).toBeNull();
    expect(await readFormBody(form('{}', 'application/json'), 100)).toBeNull();
  });
});
