import type { APIContext, APIRoute } from 'astro';
import { describe, expect, it } from 'vitest';
import { hashPasswordSync } from '../../lib/crypto/password.ts';
import { rateLimiter } from '../../lib/http/rate-limit.ts';
import { checkEditorPassword, editorAuthHandlers, LOGOUT_FAILED_MESSAGE, readFormBody, SESSION_UNCHECKED_MESSAGE, SIGN_IN_LIMIT } from './auth.server.ts';
import { translationState } from './api.server.ts';
import { memorySharedState, SharedStateError, type SharedState } from '../../lib/shared-state/index.ts';
import { errorPageStatus } from '../../site/error-page.ts';
import { EDITOR_COOKIE, EDITOR_COOKIE_MAX_AGE, newEditorSession, readEditorSession } from './session.server.ts';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const HASH = hashPasswordSync('right-password', FAST);

interface Call { status: number; headers: Headers; body: Record<string, unknown> | null }

/** The revocations of this file's calls (one process's shared state). */
const STATE = memorySharedState();

async function call(handler: APIRoute, opts: { hash?: string | undefined; body?: unknown; contentType?: string; client?: string; url?: string; cookie?: string; params?: Record<string, string>; headers?: Record<string, string>; state?: SharedState } = {}): Promise<Call> {
  const url = opts.url ?? 'http://localhost:4321/api/editor-area-autentication';
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  if (opts.cookie) headers.cookie = opts.cookie;
  const request = new Request(url, { method: 'POST', headers, ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}) });
  const services = { editorPasswordHash: 'hash' in opts ? opts.hash : HASH, sharedState: opts.state ?? STATE, content: { endpoint: 'http://127.0.0.1:9/graphql' } };
  const context = { request, url: new URL(url), locals: { api: { services } }, clientAddress: opts.client ?? '10.0.0.1', params: opts.params ?? {} };
  const res = await handler(context as unknown as APIContext);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) as Record<string, unknown> : null };
}

const fresh = () => editorAuthHandlers(rateLimiter(SIGN_IN_LIMIT));

/** The editor cookie's value in a Set-Cookie header. */
const cookieOf = (res: Call): string => new RegExp(`^${EDITOR_COOKIE}=([^;]*);`).exec(res.headers.get('set-cookie') ?? '')![1]!;
const SAME_ORIGIN = { origin: 'http://localhost:4321', 'sec-fetch-site': 'same-origin' };

describe('POST /api/editor-area-autentication with {input}', () => {
  it('the right password answers success, the hashedPassword (the session value, never the scrypt hash) and a 90-day cookie', async () => {
    const res = await call(fresh().signIn, { body: { input: 'right-password' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, hashedPassword: expect.any(String) });
    expect(res.body!.hashedPassword).not.toContain('scrypt');
    expect(res.body!.hashedPassword).not.toContain(HASH.split('$').at(-1));
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toContain(`${EDITOR_COOKIE}=${String(res.body!.hashedPassword)};`);
    expect(cookie).toContain(`Max-Age=${EDITOR_COOKIE_MAX_AGE}`);
    expect(EDITOR_COOKIE_MAX_AGE).toBe(90 * 24 * 60 * 60);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('each sign-in gets a session of its own: signed, with a random id and the issue time, 90 days at most', async () => {
    const before = Math.floor(Date.now() / 1000);
    const values = [];
    for (let i = 0; i < 3; i++) values.push(cookieOf(await call(fresh().signIn, { body: { input: 'right-password' } })));
    expect(new Set(values).size).toBe(3);
    const sessions = values.map((v) => readEditorSession(v, HASH));
    expect(new Set(sessions.map((s) => s?.sid)).size).toBe(3);
    for (const s of sessions) {
      expect(s!.sid).toMatch(/^[\w-]{22}$/);
      expect(s!.iat).toBeGreaterThanOrEqual(before);
      expect(s!.exp - s!.iat).toBe(EDITOR_COOKIE_MAX_AGE);
    }
    // Each is accepted on its own.
    for (const v of values) expect((await call(fresh().signIn, { body: { hash: v } })).body).toEqual({ success: true });
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
  it('confirms a live session value and renews the cookie for what is left of it, refuses anything else', async () => {
    const value = newEditorSession(HASH, Date.now() - 10 * 24 * 3600 * 1000);
    const ok = await call(fresh().signIn, { body: { hash: value } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true });
    // Never extended past the session's 90 days: 80 days are left.
    const maxAge = Number(/Max-Age=(\d+)/.exec(ok.headers.get('set-cookie')!)![1]);
    expect(maxAge).toBeGreaterThan(80 * 24 * 3600 - 60);
    expect(maxAge).toBeLessThanOrEqual(80 * 24 * 3600);
    const bad = await call(fresh().signIn, { body: { hash: 'forged' } });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ success: false });
  });

  it('a session of the previous password is refused once the configured hash changes', async () => {
    const old = newEditorSession(HASH);
    const changed = hashPasswordSync('new-password', FAST);
    expect((await call(fresh().signIn, { hash: changed, body: { hash: old } })).body).toEqual({ success: false });
  });
});

describe('the editor cookie on editor APIs', () => {
  it('is re-checked on every request: none, a forged one, an expired one or one of a changed password is 401; 503 when closed', async () => {
    const params = { pageId: 'cm86g1xcd2xsqlb0racgnpi2o' };
    expect((await call(translationState, { params })).status).toBe(401);
    expect((await call(translationState, { params, cookie: `${EDITOR_COOKIE}=forged` })).status).toBe(401);
    const expired = newEditorSession(HASH, Date.now() - (EDITOR_COOKIE_MAX_AGE + 1) * 1000);
    expect((await call(translationState, { params, cookie: `${EDITOR_COOKIE}=${expired}` })).status).toBe(401);
    const changed = hashPasswordSync('new-password', FAST);
    const stale = await call(translationState, { params, hash: changed, cookie: `${EDITOR_COOKIE}=${newEditorSession(HASH)}` });
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ error: 'editor-session-required' });
    expect((await call(translationState, { params, hash: undefined, cookie: `${EDITOR_COOKIE}=${newEditorSession(HASH)}` })).status).toBe(503);
  });

  it('a valid cookie passes the check (then the bad page id is the 400)', async () => {
    const res = await call(translationState, { params: { pageId: '../x' }, cookie: `${EDITOR_COOKIE}=${newEditorSession(HASH)}` });
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

  it('revokes the session: the old cookie opens nothing any more (on every instance sharing the state), other sessions live on', async () => {
    const { signIn, logout } = fresh();
    const params = { pageId: '../x' };
    const mine = cookieOf(await call(signIn, { body: { input: 'right-password' }, headers: SAME_ORIGIN }));
    const other = cookieOf(await call(signIn, { body: { input: 'right-password' }, headers: SAME_ORIGIN }));
    expect((await call(translationState, { params, cookie: `${EDITOR_COOKIE}=${mine}` })).status).toBe(400);
    const out = await call(logout, { body: 'locale=en', contentType: 'application/x-www-form-urlencoded', cookie: `${EDITOR_COOKIE}=${mine}`, headers: SAME_ORIGIN });
    expect(out.status).toBe(303);
    expect((await call(translationState, { params, cookie: `${EDITOR_COOKIE}=${mine}` })).status).toBe(401);
    expect((await call(signIn, { body: { hash: mine } })).body).toEqual({ success: false });
    expect((await call(translationState, { params, cookie: `${EDITOR_COOKIE}=${other}` })).status).toBe(400);
  });
});

describe('when the revocations cannot be asked (the shared state is down)', () => {
  const down = (): SharedState & { asked: string[] } => {
    const asked: string[] = [];
    const fail = (op: string) => (key: string) => {
      asked.push(`${op} ${key}`);
      return Promise.reject(new SharedStateError('Redis at redis.internal:6379 did not answer EXISTS within 5000 ms (UPSTREAM_TIMEOUT_MS)'));
    };
    return { asked, has: fail('has'), claim: fail('claim') };
  };
  const params = { pageId: '../x' };

  it('an editor API refuses a valid session with 503 and a clear message (fail closed: never let through, never 401)', async () => {
    const state = down();
    const res = await call(translationState, { params, cookie: `${EDITOR_COOKIE}=${newEditorSession(HASH)}`, state });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ success: false, error: 'session-store-unavailable', message: SESSION_UNCHECKED_MESSAGE });
    expect(res.headers.get('retry-after')).toBe('60');
    expect(state.asked).toEqual([expect.stringMatching(/^has editor-session:revoked:/)]);
    // Without a valid cookie nothing is asked: 401 as always.
    expect((await call(translationState, { params, state })).status).toBe(401);
  });

  it('the re-check of a session value is 503, without a cookie', async () => {
    const res = await call(fresh().signIn, { body: { hash: newEditorSession(HASH) }, state: down() });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: 'session-store-unavailable', message: SESSION_UNCHECKED_MESSAGE });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('logout that cannot record the revocation says so (503) and keeps the cookie, so signing out again can still end the session', async () => {
    const cookie = `${EDITOR_COOKIE}=${newEditorSession(HASH)}`;
    const res = await call(fresh().logout, { body: {}, cookie, state: down() });
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ success: false, error: 'session-store-unavailable', message: LOGOUT_FAILED_MESSAGE });
    expect(res.headers.get('set-cookie')).toBeNull();
    // The no-script form gets the error page (503, in its language) through the middleware.
    const err = await call(fresh().logout, { body: 'locale=de', contentType: 'application/x-www-form-urlencoded', cookie, state: down() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SharedStateError);
    expect(errorPageStatus(err)).toEqual({ status: 503, retryAfter: 60 });
  });

  it('any other failure is not taken for an unavailable store', async () => {
    const broken: SharedState = { has: () => Promise.reject(new TypeError('bug')), claim: () => Promise.reject(new TypeError('bug')) };
    await expect(call(translationState, { params, cookie: `${EDITOR_COOKIE}=${newEditorSession(HASH)}`, state: broken })).rejects.toThrow('bug');
  });
});

describe('cross-site requests', () => {
  const crossSite: Record<string, string>[] = [
    { origin: 'https://evil.example' },
    { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    { origin: 'http://events.localhost:4321', 'sec-fetch-site': 'same-site' },
    { 'sec-fetch-site': 'cross-site' },
  ];
  const message = 'Cross-site request refused: this endpoint changes state and accepts requests from its own origin only (Origin and Sec-Fetch-Site must name it).';

  it('sign-in (password or session value) is refused with 403 and a clear message, without a cookie', async () => {
    const refused = (res: Call, why: string) => {
      expect(res.status, why).toBe(403);
      expect(res.body).toEqual({ success: false, error: 'cross-site-request', message });
      expect(res.headers.get('set-cookie')).toBeNull();
    };
    for (const headers of crossSite) refused(await call(fresh().signIn, { body: { input: 'right-password' }, headers }), JSON.stringify(headers));
    for (const headers of crossSite) refused(await call(fresh().signIn, { body: { hash: newEditorSession(HASH) }, headers }), JSON.stringify(headers));
  });

  it('logout is refused (403) and the session stays valid', async () => {
    const value = newEditorSession(HASH);
    for (const headers of crossSite) {
      const res = await call(fresh().logout, { body: {}, cookie: `${EDITOR_COOKIE}=${value}`, headers });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'cross-site-request', message });
    }
    expect((await call(fresh().signIn, { body: { hash: value } })).body).toEqual({ success: true });
  });

  it('same-origin requests and requests of no browser (neither header) go through', async () => {
    expect((await call(fresh().signIn, { body: { input: 'right-password' }, headers: SAME_ORIGIN })).status).toBe(200);
    expect((await call(fresh().signIn, { body: { input: 'right-password' }, headers: { origin: 'http://localhost:4321' } })).status).toBe(200);
    expect((await call(fresh().signIn, { body: { input: 'right-password' }, headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    expect((await call(fresh().signIn, { body: { input: 'right-password' } })).status).toBe(200);
    expect((await call(fresh().logout, { body: {}, headers: SAME_ORIGIN })).status).toBe(200);
  });
});

describe('checkEditorPassword and readFormBody', () => {
  it('tells the outcomes apart', async () => {
    const limiter = rateLimiter(SIGN_IN_LIMIT);
    expect(await checkEditorPassword('x', undefined, 'c', limiter)).toEqual({ kind: 'closed' });
    expect(await checkEditorPassword('', HASH, 'c', limiter)).toEqual({ kind: 'empty' });
    expect(await checkEditorPassword('nope', HASH, 'c', limiter)).toEqual({ kind: 'wrong' });
    expect(await checkEditorPassword('x'.repeat(2000), HASH, 'c', limiter)).toEqual({ kind: 'wrong' });
    const ok = await checkEditorPassword('right-password', HASH, 'c', limiter);
    expect(ok).toEqual({ kind: 'ok', sessionValue: expect.any(String) });
    expect(readEditorSession((ok as { sessionValue: string }).sessionValue, HASH)).not.toBeNull();
  });

  it('reads small url-encoded forms only', async () => {
    const form = (body: string, type = 'application/x-www-form-urlencoded') => new Request('http://localhost/', { method: 'POST', headers: { 'content-type': type }, body });
    expect((await readFormBody(form('password=a%20b&intent=sign-in'), 100))?.get('password')).toBe('a b');
    expect(await readFormBody(form(`password=${'x'.repeat(200)}`), 100)).toBeNull();
    expect(await readFormBody(form('{}', 'application/json'), 100)).toBeNull();
  });
});
