import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIContext, APIRoute } from 'astro';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userAdminHandlers, type UserGuard } from './api.server.ts';

/*
 * Issue 28, the API part of the matrix (administrator kind × target kind × action): our handlers
 * refuse on their own. They run here against a deliberately permissive stand-in for identity
 * management's kmx-admin endpoint, which lets every administrator do everything (the old
 * "any shared organisation" rule and worse), so each refusal below is ours. A refused change must
 * never reach the endpoint.
 */

interface FakeUser {
  id: string;
  organisations: string[];
  adminKind: 'intern' | 'extern' | null;
  internallyManaged: boolean;
}

const ORGS = ['org-a', 'org-b'];
const USERS: FakeUser[] = [
  { id: 'extern-me', organisations: ['org-a'], adminKind: 'extern', internallyManaged: false },
  { id: 'intern-me', organisations: ['org-a'], adminKind: 'intern', internallyManaged: true },
  { id: 'u-a', organisations: ['org-a'], adminKind: null, internallyManaged: false },
  { id: 'u-ab', organisations: ['org-a', 'org-b'], adminKind: null, internallyManaged: false },
  { id: 'u-b', organisations: ['org-b'], adminKind: null, internallyManaged: false },
  { id: 'u-none', organisations: [], adminKind: null, internallyManaged: false },
  { id: 'emp-a', organisations: ['org-a'], adminKind: null, internallyManaged: true },
  { id: 'ext-a', organisations: ['org-a'], adminKind: 'extern', internallyManaged: false },
  { id: 'int-a', organisations: ['org-a'], adminKind: 'intern', internallyManaged: true },
];
const TOKENS: Record<string, string> = { 'token-extern': 'extern-me', 'token-intern': 'intern-me', 'token-user': 'u-a' };

/** What reached the endpoint besides reads. */
let changes: string[] = [];
let server: Server;
let managementUrl = '';

const org = (orguid: string) => ({ orguid, name: orguid.toUpperCase(), subregion: '', country: 'CH', city: '', members: 1 });
const detail = (u: FakeUser) => ({
  id: u.id, givenName: u.id, sn: 'Test', name: `${u.id} Test`, email: `${u.id}@example.com`, telephone: '', company: '', country: 'CH', city: '',
  role: u.adminKind ? 'admin' : 'user', adminKind: u.adminKind, internallyManaged: u.internallyManaged, organisations: u.organisations.map(org),
  access: [{ application: 'assetdb', status: 'active', requestedBy: '', requestDate: '', inviteExpiresAt: null, updatedAt: '', actions: ['edit', 'withdraw'] }],
  canDelete: true,
});
const row = (u: FakeUser) => ({
  id: u.id, name: `${u.id} Test`, email: `${u.id}@example.com`, organisations: u.organisations.map((o) => ({ orguid: o, name: o })), role: u.adminKind ? 'admin' : 'user',
  adminKind: u.adminKind, internallyManaged: u.internallyManaged, status: 'active', application: 'assetdb', country: 'CH', city: '', applications: [{ application: 'assetdb', status: 'active' }],
});

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const caller = USERS.find((u) => u.id === TOKENS[/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '']);
      if (!caller) return send(401, { code: 401, message: 'Access Denied' });
      if (!caller.adminKind) return send(403, { code: 403, reason: 'Forbidden', message: 'Delegated admin role required' });
      const url = new URL(req.url ?? '/', 'http://x');
      const [resource, id, sub, subId] = url.pathname.replace('/openidm/endpoint/kmx-admin/', '').split('/');
      const user = USERS.find((u) => u.id === id);
      if (req.method !== 'GET') changes.push(`${req.method} ${url.pathname}${url.search}`);
      if (resource === 'organisations') return send(200, { result: ORGS.map(org) });
      if (resource === 'invitations') return send(201, { user: detail({ id: 'new', organisations: ['org-b'], adminKind: null, internallyManaged: false }) });
      if (resource === 'users' && !id) return send(200, { result: USERS.map(row), totalCount: USERS.length, page: 1, pageSize: 20 });
      if (!user) return send(404, { code: 404, message: 'User not found' });
      if (req.method === 'DELETE' && !sub) return send(200, { id: user.id });
      if (sub === 'organisations') return send(200, detail({ ...user, organisations: user.organisations.filter((o) => o !== subId) }));
      return send(200, detail(user));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  managementUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openidm`;
});
afterAll(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
beforeEach(() => { changes = []; });

const guard: UserGuard = async ({ request }) => {
  const token = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
  return { claims: { sub: TOKENS[token] ?? 'nobody', scope: ['fr:idm:*'] }, accessToken: token };
};
const handlers = userAdminHandlers(guard);

async function call(handler: APIRoute, as: string, opts: { method?: string; path?: string; params?: Record<string, string>; body?: unknown } = {}) {
  const headers: Record<string, string> = { authorization: `Bearer ${as}` };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  // Writes that create something carry an idempotency key (lib/idempotency), a new one per call here.
  if (opts.method === 'POST') headers['idempotency-key'] = randomUUID();
  const request = new Request(`http://localhost${opts.path ?? '/api/user-admin/x'}`, { method: opts.method ?? 'GET', headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
  const locals = { api: { services: { identity: { managementUrl, timeouts: { connectTimeoutMs: 500, timeoutMs: 3000 } } } } };
  const res = await handler({ request, locals, url: new URL(request.url), params: opts.params ?? {} } as unknown as APIContext);
  return { status: res.status, body: await res.json() };
}

type Cell = 200 | 403 | 404;
/** [view, change access, delete, remove from org-a, remove from org-b] */
type Row = [Cell, Cell, Cell, Cell, Cell];
const MATRIX: Record<'token-extern' | 'token-intern', Record<string, Row>> = {
  'token-extern': {
    'u-a': [200, 200, 200, 200, 404],
    'u-ab': [200, 403, 403, 200, 403],
    'u-b': [403, 403, 403, 403, 403],
    'u-none': [403, 403, 403, 403, 403],
    'emp-a': [403, 403, 403, 403, 403],
    'ext-a': [403, 403, 403, 403, 403],
    'int-a': [403, 403, 403, 403, 403],
    'extern-me': [200, 403, 403, 200, 404],
  },
  'token-intern': {
    'u-a': [200, 200, 200, 200, 404],
    'u-ab': [200, 200, 200, 200, 200],
    'u-b': [200, 200, 200, 404, 200],
    'u-none': [200, 200, 200, 404, 404],
    'emp-a': [200, 200, 200, 200, 404],
    'ext-a': [200, 200, 200, 200, 404],
    'int-a': [403, 403, 403, 403, 403],
    'intern-me': [200, 403, 403, 200, 404],
  },
};

describe('the API refuses what the rule does not allow, whatever identity management would do', () => {
  for (const [as, rows] of Object.entries(MATRIX) as [keyof typeof MATRIX, Record<string, Row>][]) {
    for (const [id, [view, access, del, removeA, removeB]] of Object.entries(rows)) {
      it(`${as === 'token-intern' ? 'internal' : 'external'} admin → ${id}: view ${view}, access ${access}, delete ${del}, remove org-a ${removeA}, org-b ${removeB}`, async () => {
        const seen = await call(handlers.user, as, { params: { id } });
        expect(seen.status).toBe(view);
        if (view === 403) expect(seen.body).toEqual({ error: 'forbidden', message: 'Not permitted for this user', messageKey: 'userAdmin.error.noPermission' });

        const cases: [string, APIRoute, { method: string; params: Record<string, string>; body?: unknown }, Cell, string][] = [
          ['access', handlers.access, { method: 'POST', params: { id, application: 'assetdb' }, body: { action: 'withdraw' } }, access, `POST /openidm/endpoint/kmx-admin/users/${id}/access/assetdb?_action=withdraw`],
          ['delete', handlers.deleteUser, { method: 'DELETE', params: { id } }, del, `DELETE /openidm/endpoint/kmx-admin/users/${id}`],
          ['remove org-a', handlers.removeMembership, { method: 'DELETE', params: { id, orguid: 'org-a' } }, removeA, `DELETE /openidm/endpoint/kmx-admin/users/${id}/organisations/org-a`],
          ['remove org-b', handlers.removeMembership, { method: 'DELETE', params: { id, orguid: 'org-b' } }, removeB, `DELETE /openidm/endpoint/kmx-admin/users/${id}/organisations/org-b`],
        ];
        for (const [name, handler, opts, expected, forwarded] of cases) {
          changes = [];
          const res = await call(handler, as, opts);
          expect(res.status, name).toBe(expected);
          expect(changes, name).toEqual(expected === 200 ? [forwarded] : []);
        }
      });
    }
  }

  it('the detail offers only the allowed actions: "remove from this organisation" alone for a user of another organisation too', async () => {
    const partial = await call(handlers.user, 'token-extern', { params: { id: 'u-ab' } });
    expect(partial.body).toMatchObject({
      canDelete: false, canChangeAccess: false, restriction: 'other-organisations', access: [{ application: 'assetdb', actions: [] }],
      organisations: [{ orguid: 'org-a', removable: true }, { orguid: 'org-b', removable: false }],
    });
    expect(partial.body).not.toHaveProperty('adminKind');
    expect(partial.body).not.toHaveProperty('internallyManaged');
    const self = await call(handlers.user, 'token-extern', { params: { id: 'extern-me' } });
    expect(self.body).toMatchObject({ canDelete: false, canChangeAccess: false, restriction: 'own-account', access: [{ actions: [] }], organisations: [{ orguid: 'org-a', removable: true }] });
    const full = await call(handlers.user, 'token-intern', { params: { id: 'u-ab' } });
    expect(full.body).toMatchObject({ canDelete: true, canChangeAccess: true, restriction: null, access: [{ actions: ['edit', 'withdraw'] }] });
    // After a change the answer is limited the same way.
    const after = await call(handlers.removeMembership, 'token-extern', { method: 'DELETE', params: { id: 'u-ab', orguid: 'org-a' } });
    expect(after.body).toMatchObject({ canDelete: false, canChangeAccess: false, organisations: [{ orguid: 'org-b', removable: false }] });
  });

  it('the list leaves out whom the administrator does not reach (and does not count them)', async () => {
    const extern = await call(handlers.users, 'token-extern', { path: '/api/user-admin/users' });
    expect(extern.body.users.map((u: { id: string }) => u.id).sort()).toEqual(['extern-me', 'u-a', 'u-ab']);
    expect(extern.body.totalCount).toBe(3);
    expect(extern.body.users[0]).not.toHaveProperty('internallyManaged');
    const intern = await call(handlers.users, 'token-intern', { path: '/api/user-admin/users' });
    expect(intern.body.users.map((u: { id: string }) => u.id)).not.toContain('int-a');
    expect(intern.body.totalCount).toBe(USERS.length - 1);
  });

  it('invitations only into an administered organisation', async () => {
    const refused = await call(handlers.invite, 'token-extern', { method: 'POST', body: { email: 'new@example.com', orguid: 'org-b', applications: ['assetdb'] } });
    expect(refused).toMatchObject({ status: 403, body: { error: 'forbidden', message: 'Not permitted for this organisation' } });
    expect(changes).toEqual([]);
    expect((await call(handlers.invite, 'token-intern', { method: 'POST', body: { email: 'new@example.com', orguid: 'org-b', applications: ['assetdb'] } })).status).toBe(201);
  });

  it('a user without a delegated admin role stays not-admin', async () => {
    expect(await call(handlers.user, 'token-user', { params: { id: 'u-a' } })).toMatchObject({ status: 403, body: { error: 'not-admin' } });
  });
});
