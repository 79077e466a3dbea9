import type { APIContext, APIRoute } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoIdentity, type DemoIdentity } from '../../../emulators/testing.ts';
import { userAdmin, userAdminHandlers, type UserGuard } from './api.server.ts';

/*
 * The user administration API against the real identity emulator (its seed: Adam Admin administers
 * Harness Demo Inc. and Profile Harness Ltd; see emulators/data/README.md). Identity management
 * checks the tokens and applies the permission rule; the guard below only reads the token's subject.
 */

let idp: DemoIdentity;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  idp = await startDemoIdentity();
  for (const user of ['admin@demo.komax.test', 'customer@demo.komax.test', 'employee@komax.test', BEAT]) tokens[user] = (await idp.signIn(user)).access_token;
});
afterAll(() => idp?.close());

const guard: UserGuard = async ({ request }) => {
  const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
  if (!token) return new Response(JSON.stringify({ error: 'unauthorized' }), { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
  const sub = String(JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString() || '{}').sub ?? 'x');
  return { claims: { sub, scope: ['fr:idm:*'] }, accessToken: token };
};
const handlers = userAdminHandlers(guard);

const ADAM = 'admin@demo.komax.test';
/** External admin of Demo Cable Assembly AG, with Ida Intern (internal admin), Sven Steiner (employee) and Sara Colombo (also Milano Cablaggi). */
const BEAT = 'beat.huber@dca.example';
const USER = (n: number) => `7f3c2a10-5b1e-4c6a-9d2e-1a00000000${String(n).padStart(2, '0')}`;

async function call(handler: APIRoute, opts: { as?: string; method?: string; path?: string; params?: Record<string, string>; body?: unknown; managementUrl?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.as) headers.authorization = `Bearer ${tokens[opts.as] ?? opts.as}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  // Every write as the islands send it: with a new idempotency key (invitations need one).
  if (opts.method === 'POST') headers['idempotency-key'] = `"${crypto.randomUUID()}"`;
  const request = new Request(`http://localhost${opts.path ?? '/api/user-admin/x'}`, {
    method: opts.method ?? 'GET', headers, ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
  });
  const locals = { api: { services: { identity: { managementUrl: opts.managementUrl ?? idp.managementUrl, timeouts: { connectTimeoutMs: 500, timeoutMs: 3000 } } } } };
  const res = await handler({ request, locals, url: new URL(request.url), params: opts.params ?? {} } as unknown as APIContext);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

describe('user administration API', () => {
  it('without a token is the guard\'s 401', async () => {
    expect((await call(handlers.users)).status).toBe(401);
  });

  it('lists the organisations and the users the admin reaches, never cached', async () => {
    const orgs = await call(handlers.organisations, { as: ADAM });
    expect(orgs.status).toBe(200);
    expect(orgs.headers.get('cache-control')).toBe('no-store');
    expect(orgs.body.organisations.map((o: { orguid: string }) => o.orguid).sort()).toEqual(['org-hdi', 'org-phl']);
    const list = await call(handlers.users, { as: ADAM, path: '/api/user-admin/users?orguid=org-hdi&status=pending&sort=-name&pageSize=2&unknown=1' });
    expect(list.status).toBe(200);
    expect(list.body.totalCount).toBe(4);
    expect(list.body.users).toHaveLength(2);
    expect(list.body.users[0]).toMatchObject({ name: 'Olivia Grant', role: 'user', organisations: [{ orguid: 'org-hdi', name: 'Harness Demo Inc.' }] });
  });

  it('answers a clear 400 for a bad list query without asking identity management', async () => {
    const res = await call(handlers.users, { as: ADAM, path: '/api/user-admin/users?sort=colour' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'bad-request', detail: { field: 'sort' } });
    expect(res.body.message).toMatch(/sort must be one of/);
  });

  it('a non-admin gets 403 not-admin', async () => {
    const res = await call(handlers.users, { as: 'customer@demo.komax.test' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'not-admin', message: 'Delegated admin role required' });
  });

  it('a user outside the admin\'s organisations is a 403 with the permission message key, never their data', async () => {
    const res = await call(handlers.user, { as: ADAM, params: { id: USER(1) } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'forbidden', message: 'Not permitted for this user', messageKey: 'userAdmin.error.noPermission' });
    // The internal admin reaches everybody.
    expect((await call(handlers.user, { as: 'employee@komax.test', params: { id: USER(1) } })).status).toBe(200);
  });

  it('an unknown id is 404, a malformed one 400', async () => {
    expect((await call(handlers.user, { as: ADAM, params: { id: 'no-such-user' } })).status).toBe(404);
    const bad = await call(handlers.user, { as: ADAM, params: { id: '../x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toEqual({ field: 'id' });
  });

  it('the detail names the actions identity management allows per application', async () => {
    const res = await call(handlers.user, { as: ADAM, params: { id: USER(12) } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Carmen', email: 'carmen.ortiz@hdi.example', canDelete: true });
    const lms = res.body.access.find((a: { application: string }) => a.application === 'lmsefront');
    expect(lms).toMatchObject({ status: 'inviteexpired', actions: ['reinvite'] });
  });

  it('invites: 201 invited; invalid e-mail and empty applications are 400 with the field; an existing e-mail 409 with the profile', async () => {
    const ok = await call(handlers.invite, { as: ADAM, method: 'POST', body: { email: 'unit.new@hdi.example', orguid: 'org-hdi', applications: ['assetdb'] } });
    expect(ok.status).toBe(201);
    expect(ok.body.access).toMatchObject([{ application: 'assetdb', status: 'invited', actions: ['resend', 'decline', 'withdraw'] }]);
    const email = await call(handlers.invite, { as: ADAM, method: 'POST', body: { email: 'not-an-email', orguid: 'org-hdi', applications: ['assetdb'] } });
    expect(email).toMatchObject({ status: 400, body: { detail: { field: 'email' } } });
    const empty = await call(handlers.invite, { as: ADAM, method: 'POST', body: { email: 'x@hdi.example', orguid: 'org-hdi', applications: [] } });
    expect(empty).toMatchObject({ status: 400, body: { detail: { field: 'applications' } } });
    const exists = await call(handlers.invite, { as: ADAM, method: 'POST', body: { email: 'lucia.ramirez@hdi.example', orguid: 'org-hdi', applications: ['assetdb'] } });
    expect(exists).toMatchObject({ status: 409, body: { error: 'conflict', message: 'User already exists', detail: { userId: USER(10), permitted: true } } });
    const other = await call(handlers.invite, { as: ADAM, method: 'POST', body: { email: 'customer@demo.komax.test', orguid: 'org-hdi', applications: ['assetdb'] } });
    expect(other.body.detail).toMatchObject({ permitted: false });
    const notJson = await call(handlers.invite, { as: ADAM, method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
  });

  it('runs an access action; one the status does not allow is 409 with the reason; edit needs a status', async () => {
    const accept = await call(handlers.access, { as: ADAM, method: 'POST', params: { id: USER(24), application: 'assetdb' }, body: { action: 'accept' } });
    expect(accept.status).toBe(200);
    expect(accept.body.access[0]).toMatchObject({ application: 'assetdb', status: 'active' });
    const again = await call(handlers.access, { as: ADAM, method: 'POST', params: { id: USER(24), application: 'assetdb' }, body: { action: 'accept' } });
    expect(again).toMatchObject({ status: 409, body: { error: 'conflict', message: 'Action accept is not allowed when access is active' } });
    const edit = await call(handlers.access, { as: ADAM, method: 'POST', params: { id: USER(24), application: 'assetdb' }, body: { action: 'edit' } });
    expect(edit.status).toBe(400);
    expect(edit.body.message).toMatch(/edit needs a status/);
    const unknownApp = await call(handlers.access, { as: ADAM, method: 'POST', params: { id: USER(24), application: 'coffee' }, body: { action: 'add' } });
    expect(unknownApp).toMatchObject({ status: 400, body: { detail: { field: 'application' } } });
  });

  it('removes a membership and deletes a user; deleting oneself is refused', async () => {
    const removed = await call(handlers.removeMembership, { as: ADAM, method: 'DELETE', params: { id: USER(22), orguid: 'org-hdi' } });
    expect(removed.status).toBe(200);
    expect(removed.body.organisations.map((o: { orguid: string }) => o.orguid)).toEqual(['org-dca']);
    expect((await call(handlers.user, { as: ADAM, params: { id: USER(22) } })).status).toBe(403);
    const del = await call(handlers.deleteUser, { as: ADAM, method: 'DELETE', params: { id: USER(23) } });
    expect(del).toMatchObject({ status: 200, body: { id: USER(23) } });
    expect((await call(handlers.user, { as: ADAM, params: { id: USER(23) } })).status).toBe(404);
    const self = await call(handlers.deleteUser, { as: ADAM, method: 'DELETE', params: { id: USER(5) } });
    expect(self).toMatchObject({ status: 403, body: { error: 'forbidden', message: 'You cannot change your own application access or delete yourself here' } });
  });

  it('issue 28 through identity management: internal accounts out of reach, a user of another organisation too only removable from ours', async () => {
    for (const id of [USER(6), USER(46)]) {
      expect(await call(handlers.user, { as: BEAT, params: { id } }), id).toMatchObject({ status: 403, body: { error: 'forbidden', messageKey: 'userAdmin.error.noPermission' } });
      expect((await call(handlers.deleteUser, { as: BEAT, method: 'DELETE', params: { id } })).status, id).toBe(403);
    }
    const list = await call(handlers.users, { as: BEAT, path: '/api/user-admin/users?pageSize=100' });
    expect(list.status).toBe(200);
    const ids = list.body.users.map((u: { id: string }) => u.id);
    expect(ids).toContain(USER(43));
    expect(ids).not.toContain(USER(6));
    expect(ids).not.toContain(USER(46));
    const sara = await call(handlers.user, { as: BEAT, params: { id: USER(43) } });
    expect(sara.body).toMatchObject({ canDelete: false, canChangeAccess: false, restriction: 'other-organisations' });
    expect(Object.fromEntries(sara.body.organisations.map((o: { orguid: string; removable: boolean }) => [o.orguid, o.removable]))).toEqual({ 'org-mcd': false, 'org-dca': true });
    expect((await call(handlers.access, { as: BEAT, method: 'POST', params: { id: USER(43), application: 'mfpwm' }, body: { action: 'accept' } })).status).toBe(403);
    expect((await call(handlers.access, { as: BEAT, method: 'POST', params: { id: USER(44), application: 'assetdb' }, body: { action: 'add' } })).status).toBe(403);
    expect((await call(handlers.deleteUser, { as: BEAT, method: 'DELETE', params: { id: USER(43) } })).status).toBe(403);
    expect((await call(handlers.user, { as: BEAT, params: { id: USER(43) } })).status).toBe(200);
  });

  it('identity management down is a 502 with our own message (the reason and its address stay in the log)', async () => {
    const res = await call(handlers.users, { as: ADAM, managementUrl: 'http://127.0.0.1:9/openidm' });
    expect(res.status).toBe(502);
    expect(res.body.error).toBe('unavailable');
    expect(res.body.message).toBe('User administration is not available right now.');
    expect(JSON.stringify(res.body)).not.toMatch(/127\.0\.0\.1|openidm/);
  });
});

describe('the user administration API behind its real guard (requireAdmin: a delegated admin role)', () => {
  /** An access request as the island sends it, with a body that records whether anything read it. */
  const accessRequest = (as: string) => {
    const read = { body: false };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        read.body = true;
        controller.enqueue(new TextEncoder().encode('{"action":"add"}'));
        controller.close();
      },
      // Nothing is pulled until a reader asks.
    }, { highWaterMark: 0 });
    const request = new Request(`http://localhost/api/user-admin/users/${USER(43)}/access/assetdb`, {
      method: 'POST', body, duplex: 'half',
      headers: { authorization: `Bearer ${tokens[as]}`, 'content-type': 'application/json', 'content-length': '16', 'idempotency-key': `"${crypto.randomUUID()}"` },
    } as RequestInit);
    return { request, read };
  };
  const locals = () => ({
    api: { services: { identity: {
      issuer: idp.issuer, audience: 'kmx-web', clientId: 'kmx-web', introspection: { ...idp.introspection, cacheTtlMs: 15_000 }, managementUrl: idp.managementUrl,
      timeouts: { connectTimeoutMs: 500, timeoutMs: 3000 },
    } } },
  });
  const run = async (handler: APIRoute, request: Request, params: Record<string, string> = {}) => {
    const res = await handler({ request, locals: locals(), url: new URL(request.url), params, clientAddress: '127.0.0.1' } as unknown as APIContext);
    return { status: res.status, body: await res.json() };
  };

  it('answers a signed-in customer without an admin role 403 not-admin before reading the body', async () => {
    const { request, read } = accessRequest('customer@demo.komax.test');
    const res = await run(userAdmin.access as unknown as APIRoute, request, { id: USER(43), application: 'assetdb' });
    expect(res).toEqual({ status: 403, body: { error: 'not-admin', message: 'Delegated admin role required', messageKey: 'userAdmin.noAccess.title' } });
    expect(read.body).toBe(false);
  });

  it('lets either admin role through (internal or external)', async () => {
    for (const as of [ADAM, BEAT]) {
      const res = await run(userAdmin.users as unknown as APIRoute, new Request('http://localhost/api/user-admin/users', { headers: { authorization: `Bearer ${tokens[as]}` } }));
      expect(res.status, as).toBe(200);
    }
  });
});
