import type { APIContext, APIRoute } from 'astro';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeUser, startFakeManagement, type FakeManagement } from '../../../emulators/identity/management.ts';
import { accountHandlers, type UserGuard } from './api.server.ts';

let fake: FakeManagement;

beforeAll(async () => {
  fake = await startFakeManagement();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.users.clear();
  fake.users.set('u1', fakeUser('u1'));
  fake.users.set('intern', fakeUser('intern', { custom_internallyManaged: true, givenName: 'Ida', sn: 'Intern' }));
  fake.tokens.clear();
  // The guard below accepts these tokens as our server's JWT check would; identity management knows them too.
  fake.tokens.set('token-u1', 'u1');
  fake.tokens.set('token-intern', 'intern');
  fake.requests.length = 0;
  fake.override = null;
});

/** Stands in for B's requireUser: a known bearer token gives its user, anything else the 401. */
const guard: UserGuard = async ({ request }) => {
  const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  const sub = token === 'token-u1' ? 'u1' : token === 'token-intern' ? 'intern' : token === 'token-revoked' ? 'u1' : undefined;
  if (!token || !sub) return new Response(JSON.stringify({ error: 'unauthorized' }), { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
  return { claims: { sub, scope: ['openid', 'fr:idm:*'] }, accessToken: token };
};
const handlers = accountHandlers(guard);

async function call(handler: APIRoute, opts: { method?: string; token?: string; body?: unknown; contentType?: string } = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
  const request = new Request('http://localhost/api/account/x', {
    method: opts.method ?? 'GET', headers, ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
  });
  const locals = { api: { services: { identity: { managementUrl: fake.url, timeouts: { connectTimeoutMs: 500, timeoutMs: 2000 } } } } };
  const res = await handler({ request, locals, url: new URL(request.url) } as unknown as APIContext);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

describe('every account endpoint', () => {
  const all: [string, APIRoute, string][] = [
    ['GET profile', handlers.getProfile, 'GET'], ['PATCH profile', handlers.patchProfile, 'PATCH'], ['POST password', handlers.postPassword, 'POST'],
    ['POST mfa-reset', handlers.postMfaReset, 'POST'], ['DELETE account', handlers.deleteAccount, 'DELETE'],
  ];
  it.each(all)('%s without a token is the guard\'s 401 and never reaches identity management', async (_name, handler, method) => {
    const res = await call(handler, { method, body: method === 'GET' || method === 'DELETE' ? undefined : {} });
    expect(res.status).toBe(401);
    expect(fake.requests).toHaveLength(0);
  });

  it('a token identity management refuses (revoked) is a 401 the client renews on', async () => {
    const res = await call(handlers.getProfile, { token: 'token-revoked' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('identity management down is a 502 with the reason, never a 500', async () => {
    fake.override = { status: 503, body: 'down' };
    const res = await call(handlers.getProfile, { token: 'token-u1' });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error: 'unavailable' });
  });
});

describe('GET /api/account/profile', () => {
  it('answers the own profile, not cached', async () => {
    const res = await call(handlers.getProfile, { token: 'token-u1' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({ id: 'u1', firstName: 'Claire', lastName: 'Customer', company: 'Demo AG', country: 'CH', internallyManaged: false });
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer token-u1');
    expect(fake.requests[0]!.url).toBe('/openidm/managed/alpha_user/u1');
  });
});

describe('PATCH /api/account/profile', () => {
  it('changes the given fields (trimmed, country upper case) and answers the stored profile', async () => {
    const res = await call(handlers.patchProfile, { method: 'PATCH', token: 'token-u1', body: { firstName: ' Ana ', city: 'Dierikon', country: 'de', language: 'DE' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Ana', city: 'Dierikon', country: 'DE', language: 'de' });
    expect(fake.users.get('u1')!.givenName).toBe('Ana');
  });

  it('an empty first or last name is a 422 REQUIRED per field, before identity management', async () => {
    const res = await call(handlers.patchProfile, { method: 'PATCH', token: 'token-u1', body: { firstName: '  ', lastName: '' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ failures: [{ field: 'firstName', code: 'REQUIRED', params: {} }, { field: 'lastName', code: 'REQUIRED', params: {} }] });
    expect(fake.requests).toHaveLength(0);
  });

  it('a policy failure of identity management is a 422 with its code, named by our field', async () => {
    const res = await call(handlers.patchProfile, { method: 'PATCH', token: 'token-u1', body: { email: 'no-at-sign' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ failures: [{ field: 'email', code: 'VALID_EMAIL_ADDRESS_FORMAT', params: {} }] });
  });

  it('an internal employee\'s profile is refused with 403', async () => {
    const res = await call(handlers.patchProfile, { method: 'PATCH', token: 'token-intern', body: { firstName: 'Ida-Marie' } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'internally-managed' });
    expect(fake.users.get('intern')!.givenName).toBe('Ida');
  });

  it.each([
    ['an unknown field', { firstName: 'A', isAdmin: true }, 'Unknown field: isAdmin'],
    ['a country that is no code', { country: 'Switzerland' }, 'country must be an ISO 3166 alpha-2 code or empty'],
    ['a language we do not offer', { language: 'it' }, 'language must be one of'],
    ['a number for a name', { firstName: 5 }, 'firstName must be a string'],
    ['an overlong city', { city: 'x'.repeat(201) }, 'city must be at most 200 characters'],
    ['not an object', '"hello"', 'The body must be a JSON object.'],
    ['not JSON', '{', 'The body is not valid JSON.'],
  ])('%s is a clear 400', async (_name, body, message) => {
    const res = await call(handlers.patchProfile, { method: 'PATCH', token: 'token-u1', body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'bad-request' });
    expect((res.body as { message: string }).message).toContain(message);
    expect(fake.requests).toHaveLength(0);
  });

  it('a body that is not JSON by its type is a 415, a huge one a 413', async () => {
    expect((await call(handlers.patchProfile, { method: 'PATCH', token: 'token-u1', body: 'firstName=A', contentType: 'application/x-www-form-urlencoded' })).status).toBe(415);
    expect((await call(handlers.patchProfile, { method: 'PATCH', token: 'token-u1', body: { city: 'x'.repeat(10_000) } })).status).toBe(413);
  });
});

describe('POST /api/account/password', () => {
  it('changes the password with the current one as reauthentication: 204', async () => {
    const res = await call(handlers.postPassword, { method: 'POST', token: 'token-u1', body: { currentPassword: 'Komax-Demo-2026', newPassword: 'Better-Pass-2027' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(fake.users.get('u1')!.password).toBe('Better-Pass-2027');
  });

  it('a policy failure is a 422 with the code and its bound', async () => {
    const res = await call(handlers.postPassword, { method: 'POST', token: 'token-u1', body: { currentPassword: 'Komax-Demo-2026', newPassword: 'Short1' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ failures: [{ field: 'password', code: 'MIN_LENGTH', params: { minLength: 10 } }] });
  });

  it('a wrong current password is a 422 on the current-password field', async () => {
    const res = await call(handlers.postPassword, { method: 'POST', token: 'token-u1', body: { currentPassword: 'nope', newPassword: 'Better-Pass-2027' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ failures: [{ field: 'currentPassword', code: 'REAUTHENTICATION_FAILED', params: {} }] });
  });

  it('an internal employee cannot change the password (403); a missing field is a 400', async () => {
    expect((await call(handlers.postPassword, { method: 'POST', token: 'token-intern', body: { currentPassword: 'Komax-Demo-2026', newPassword: 'Better-Pass-2027' } })).status).toBe(403);
    const res = await call(handlers.postPassword, { method: 'POST', token: 'token-u1', body: { newPassword: 'Better-Pass-2027' } });
    expect(res.status).toBe(400);
    // The one refusal shape of every endpoint (src/lib/http/input.ts), with the field a form highlights.
    expect(res.body).toEqual({ error: 'bad-request', message: 'currentPassword is required', detail: { field: 'currentPassword' } });
  });
});

describe('POST /api/account/mfa-reset and DELETE /api/account', () => {
  it('an internal employee can reset the MFA device', async () => {
    const res = await call(handlers.postMfaReset, { method: 'POST', token: 'token-intern' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mfaDevices: 0 });
    expect(fake.users.get('intern')!.custom_mfaDevices).toBe(0);
  });

  it('deletes the own account: 204, then the profile is gone (404)', async () => {
    const res = await call(handlers.deleteAccount, { method: 'DELETE', token: 'token-u1' });
    expect(res.status).toBe(204);
    expect(fake.users.has('u1')).toBe(false);
    expect((await call(handlers.getProfile, { token: 'token-u1' })).status).toBe(404);
  });
});
