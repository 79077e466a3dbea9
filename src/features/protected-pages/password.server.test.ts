import { describe, expect, it } from 'vitest';
import { hashPasswordSync } from '../../lib/crypto/password.ts';
import { rateLimiter } from '../../lib/http/rate-limit.ts';
import { isGrantFor } from './grant.server.ts';
import { handlePasswordPost, type PasswordPostDeps } from './password.server.ts';

const SECRET = 'test-grant-secret-0123456789abcdef';
const HASH = hashPasswordSync('Event-Kit-2025', { N: 2 ** 10, r: 8, p: 1 });
const URL_ = new URL('http://localhost:4321/en/events/internal-2025/x4m9q2tz');

const deps = (over: Partial<PasswordPostDeps> = {}): PasswordPostDeps => ({
  passwordHash: async (id) => (id === 'internal' ? HASH : null),
  limiter: rateLimiter({ limit: 3, windowMs: 60_000 }),
  secret: SECRET,
  ...over,
});
const form = (body: string, type = 'application/x-www-form-urlencoded') => new Request(URL_, { method: 'POST', headers: { 'content-type': type }, body });
const post = (request: Request, pageId = 'internal') => ({ request, client: '203.0.113.7', pageId, grantPath: '/en/events/internal-2025', target: URL_.pathname, url: URL_ });

describe('handlePasswordPost', () => {
  it('asks for a password when none is given', async () => {
    expect(await handlePasswordPost(deps(), post(form('password=')))).toEqual({ kind: 'refused', status: 400, error: 'empty' });
    expect(await handlePasswordPost(deps(), post(form('other=x')))).toEqual({ kind: 'refused', status: 400, error: 'empty' });
  });

  it('refuses a wrong password', async () => {
    expect(await handlePasswordPost(deps(), post(form('password=guess')))).toEqual({ kind: 'refused', status: 403, error: 'wrong' });
  });

  it('refuses any password of a page without a hash', async () => {
    expect(await handlePasswordPost(deps(), post(form('password=Event-Kit-2025'), 'other'))).toMatchObject({ status: 403, error: 'wrong' });
  });

  it('grants the right password: a signed cookie scoped to the protected page, then 303 to the page', async () => {
    const result = await handlePasswordPost(deps(), post(form('password=Event-Kit-2025')));
    expect(result.kind).toBe('granted');
    if (result.kind !== 'granted') return;
    expect(result.status).toBe(303);
    expect(result.location).toBe('/en/events/internal-2025/x4m9q2tz');
    const [cookie, fileCookie] = result.cookies;
    expect(cookie).toMatch(/^kmx_grant_internal=[^;]+; Max-Age=28800; Path=\/en\/events\/internal-2025; HttpOnly; SameSite=Lax$/);
    expect(fileCookie).toMatch(/^kmx_grant_internal=[^;]+; Max-Age=28800; Path=\/file; HttpOnly; SameSite=Lax$/);
    expect(isGrantFor('internal', /=([^;]+)/.exec(cookie!)![1], SECRET)).toBe(true);
  });

  it('rate-limits attempts per client and page with a Retry-After', async () => {
    const d = deps();
    for (let i = 0; i < 3; i++) expect(await handlePasswordPost(d, post(form('password=guess')))).toMatchObject({ error: 'wrong' });
    const limited = await handlePasswordPost(d, post(form('password=Event-Kit-2025')));
    expect(limited).toMatchObject({ kind: 'refused', status: 429, error: 'limited' });
    expect(limited.kind === 'refused' && limited.retryAfterSeconds).toBeGreaterThan(0);
    // Another client is not affected.
    expect(await handlePasswordPost(d, { ...post(form('password=Event-Kit-2025')), client: '198.51.100.2' })).toMatchObject({ kind: 'granted' });
  });

  it('refuses bodies that are not a small url-encoded form', async () => {
    expect(await handlePasswordPost(deps(), post(form('{"password":"x"}', 'application/json')))).toMatchObject({ status: 415 });
    expect(await handlePasswordPost(deps(), post(form(`password=${'x'.repeat(5000)}`)))).toMatchObject({ status: 413 });
    expect(await handlePasswordPost(deps(), post(form(`password=${'x'.repeat(300)}`)))).toMatchObject({ status: 400, error: 'invalid' });
  });
});
