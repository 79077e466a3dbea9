// Delegated user administration REST ({IDM}/endpoint/kmx-admin) against the running emulator with
// real access tokens (browser-less sign-in): seed, permission rule, list, invitations, access actions
// as seen at userinfo, membership removal, deletion and persistence across a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoIdentity, type DemoIdentity } from '../testing.ts';
import { EFFECTIVE_STATUSES } from './access.ts';

const uid = (n: number) => `7f3c2a10-5b1e-4c6a-9d2e-1a${String(n).padStart(10, '0')}`;
const CLAIRE = uid(1);
const PETE = uid(8);
const ADAM = uid(5);
const LUCIA = uid(10); // org-hdi: serviceticketing active, assetdb pending
const BRIAN = uid(11); // org-hdi: serviceticketing invited
const DEREK = uid(13); // org-hdi: direct pending
const EMILY = uid(14); // org-hdi: serviceticketing + assetdb active
const FRANK = uid(15); // org-hdi: serviceticketing inactive
const GABRIELA = uid(16); // org-hdi: assetdb declined
const ISABEL = uid(18); // org-hdi: serviceticketing invite expired
const MEGAN = uid(22); // org-hdi + org-dca
const NATHAN = uid(23); // org-hdi, no access record
const OLIVIA = uid(24); // org-hdi: assetdb pending
const IDA = uid(6); // internal admin, internally managed, org-dca
const NORA = uid(4); // no organisation
const ANNA = uid(27); // org-dca
const MAREK = uid(26); // org-dca
const SARA = uid(43); // org-mcd + org-dca
const BEAT = uid(44); // external admin of org-dca
const EMMA = uid(45); // external admin of org-phl
const SVEN = uid(46); // internally managed employee (no admin role), org-dca
const INES = uid(47); // internal admin, internally managed, org-owg
const ADMIN_REQUIRED = { code: 403, reason: 'Forbidden', message: 'Delegated admin role required' };
const NOT_PERMITTED = { code: 403, reason: 'Forbidden', message: 'Not permitted for this user' };

let dataDir: string;
let id: DemoIdentity;
const tokens = new Map<string, string>();

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kmx-admin-test-'));
  id = await startDemoIdentity({ dataDir });
});
afterAll(async () => {
  await id.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const token = async (user: string) => {
  if (!tokens.has(user)) tokens.set(user, (await id.signIn(user)).access_token);
  return tokens.get(user)!;
};
const ADMIN = 'admin@demo.komax.test';
const INTERN = 'employee@komax.test';
const BEAT_LOGIN = 'beat.huber@dca.example';

const api = async (as: string | null, path: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await fetch(`${id.managementUrl}/endpoint/kmx-admin${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(as ? { authorization: `Bearer ${await token(as)}` } : {}), ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: await res.json() };
};
const action = (as: string, user: string, application: string, act: string, body: unknown = {}) =>
  api(as, `/users/${user}/access/${application}?_action=${act}`, { method: 'POST', body });
const rolesAt = async (user: string) => {
  const res = await fetch(`${id.issuer}/userinfo`, { headers: { authorization: `Bearer ${await token(user)}` } });
  return (await res.json()).roles as string[];
};
interface AccessView { application: string; status: string; inviteExpiresAt: string; requestDate: string }
const accessOf = (detail: { access: AccessView[] }, application: string) => detail.access.find((a) => a.application === application)!;

describe('seed', () => {
  it('the nine demo users keep exactly their roles at userinfo (and in the ID token)', async () => {
    const before: Record<string, string[]> = {
      'customer@demo.komax.test': ['kmx_int_serviceticketing_active', 'kmx_int_assetdb_active', 'kmx_int_artemis_active', 'kmx_int_direct_active', 'kmx_int_lmsefront_active'],
      'onprem@demo.komax.test': ['kmx_int_artemis_active', 'kmx_artemis_onpremuser', 'kmx_int_direct_pending', 'kmx_int_lmsefront_invited'],
      'expired@demo.komax.test': ['kmx_int_lmsefront_inviteexpired', 'kmx_int_mfpwm_active'],
      'noroles@demo.komax.test': [],
      'admin@demo.komax.test': ['kmx_delegatedadmin_extern', 'kmx_int_serviceticketing_active', 'kmx_int_mfpwm_active', 'kmx_int_mfpmds_active'],
      'employee@komax.test': ['kmx_delegatedadmin_intern', 'kmx_int_serviceticketing_active', 'kmx_int_assetdb_active', 'kmx_int_direct_active'],
      'password@demo.komax.test': ['kmx_int_serviceticketing_active'],
      'profile@demo.komax.test': ['kmx_int_assetdb_active'],
      'delete@demo.komax.test': [],
    };
    for (const [user, roles] of Object.entries(before)) {
      const set = await id.signIn(user);
      const info = await fetch(`${id.issuer}/userinfo`, { headers: { authorization: `Bearer ${set.access_token}` } });
      expect((await info.json()).roles, user).toEqual(roles);
      const claims = JSON.parse(Buffer.from(set.id_token!.split('.')[1]!, 'base64url').toString());
      expect(claims.roles, user).toEqual(roles);
    }
  });

  it('has at least 40 users over 5 organisations and every access status', async () => {
    const all = await api(INTERN, '/users?pageSize=100');
    expect(all.status).toBe(200);
    expect(all.body.totalCount).toBeGreaterThanOrEqual(40);
    const orgs = await api(INTERN, '/organisations');
    expect(orgs.body.result.map((o: { name: string }) => o.name)).toEqual(['Demo Cable Assembly AG', 'Harness Demo Inc.', 'Milano Cablaggi Demo S.r.l.', 'Onprem Wiring GmbH', 'Profile Harness Ltd']);
    expect(orgs.body.result.find((o: { orguid: string }) => o.orguid === 'org-hdi')).toEqual({ orguid: 'org-hdi', name: 'Harness Demo Inc.', subregion: 'North America', country: 'US', city: 'Auburn Hills', members: 17 });
    for (const status of EFFECTIVE_STATUSES) {
      const res = await api(INTERN, `/users?status=${status}`);
      expect(res.body.totalCount, status).toBeGreaterThan(0);
    }
  });
});

describe('permission rule', () => {
  it('401 without a token, 403 for a user without a delegated-admin role on every route', async () => {
    expect(await api(null, '/users')).toEqual({ status: 401, body: { code: 401, reason: 'Unauthorized', message: 'Access Denied' } });
    const calls: [string, { method?: string; body?: unknown }][] = [
      ['/organisations', {}], ['/users', {}], [`/users/${LUCIA}`, {}], [`/users/${LUCIA}`, { method: 'DELETE' }],
      ['/invitations', { method: 'POST', body: { email: 'x@example.com', orguid: 'org-hdi', applications: ['direct'] } }],
      [`/users/${LUCIA}/access/assetdb?_action=accept`, { method: 'POST', body: {} }], [`/users/${LUCIA}/organisations/org-hdi`, { method: 'DELETE' }],
    ];
    for (const [path, init] of calls) expect(await api('customer@demo.komax.test', path, init), path).toEqual({ status: 403, body: ADMIN_REQUIRED });
    expect((await api('customer@demo.komax.test', `/users/${LUCIA}`)).body).not.toHaveProperty('email');
  });

  it('an external admin sees their own organisations and only the users sharing one', async () => {
    const orgs = await api(ADMIN, '/organisations');
    expect(orgs.body.result.map((o: { orguid: string }) => o.orguid)).toEqual(['org-hdi', 'org-phl']);
    const list = await api(ADMIN, '/users?pageSize=100');
    const ids = list.body.result.map((u: { id: string }) => u.id);
    expect(ids).toEqual(expect.arrayContaining([ADAM, LUCIA, MEGAN, PETE]));
    expect(ids).not.toContain(CLAIRE);
    for (const row of list.body.result) expect(row.organisations.some((o: { orguid: string }) => ['org-hdi', 'org-phl'].includes(o.orguid)), row.email).toBe(true);
    expect(list.body.totalCount).toBe(list.body.result.length);
  });

  it('a user outside their organisations: 403 without any data on every route; an unknown id: 404', async () => {
    const before = await api(INTERN, `/users/${CLAIRE}`);
    for (const [path, init] of [
      [`/users/${CLAIRE}`, {}], [`/users/${CLAIRE}`, { method: 'DELETE' }], [`/users/${CLAIRE}/access/assetdb?_action=withdraw`, { method: 'POST', body: {} }],
      [`/users/${CLAIRE}/organisations/org-dca`, { method: 'DELETE' }],
    ] as const) {
      expect(await api(ADMIN, path, init), path).toEqual({ status: 403, body: NOT_PERMITTED });
    }
    expect(await api(INTERN, `/users/${CLAIRE}`)).toEqual(before);
    expect((await api(ADMIN, '/users/no-such-user')).status).toBe(404);
    expect((await api(ADMIN, '/users/no-such-user/access/assetdb?_action=add', { method: 'POST', body: {} })).status).toBe(404);
  });

  it('an internal admin sees and reads every user', async () => {
    expect((await api(INTERN, '/organisations')).body.result).toHaveLength(5);
    const claire = await api(INTERN, `/users/${CLAIRE}`);
    expect(claire.status).toBe(200);
    expect(claire.body).toMatchObject({ id: CLAIRE, givenName: 'Claire', sn: 'Customer', name: 'Claire Customer', email: 'customer@demo.komax.test', company: 'Demo Cable Assembly AG', role: 'user', canDelete: true,
      organisations: [{ orguid: 'org-dca', name: 'Demo Cable Assembly AG', subregion: 'Central Europe', country: 'CH', city: 'Dierikon', members: expect.any(Number) }] });
    expect(accessOf(claire.body, 'direct')).toEqual({ application: 'direct', status: 'active', requestedBy: expect.any(String), requestDate: expect.any(String), inviteExpiresAt: null, updatedAt: expect.any(String), actions: ['edit', 'withdraw'] });
  });
});

describe('permission rule: administrator kind × target kind × action (issue 28)', () => {
  const NOT_EVERY_ORG = { code: 403, reason: 'Forbidden', message: 'The user belongs to organisations you do not administer' };
  const OWN_ACCESS = { code: 403, reason: 'Forbidden', message: 'You cannot change your own application access' };
  const ORG_NOT_PERMITTED = { code: 403, reason: 'Forbidden', message: 'Not permitted for this organisation' };
  const listed = async (as: string) => (await api(as, '/users?pageSize=100')).body.result.map((u: { id: string }) => u.id) as string[];
  const actionsOf = (detail: { access: { actions: string[] }[] }) => detail.access.flatMap((a) => a.actions);

  /** Every route answers 403 Not permitted and changes nothing; the user is not listed. */
  const unreachable = async (as: string, user: string, orguid: string) => {
    // Somebody else who reaches the user (or themselves) sees that nothing changed.
    const witness = as === INTERN ? 'ines.imhof@komax.test' : INTERN;
    const before = await api(witness, `/users/${user}`);
    for (const [path, init] of [
      [`/users/${user}`, {}], [`/users/${user}`, { method: 'DELETE' }], [`/users/${user}/access/mfpmds?_action=add`, { method: 'POST', body: {} }],
      [`/users/${user}/access/serviceticketing?_action=withdraw`, { method: 'POST', body: {} }], [`/users/${user}/organisations/${orguid}`, { method: 'DELETE' }],
    ] as const) expect(await api(as, path, init), `${as} ${init.method ?? 'GET'} ${path}`).toEqual({ status: 403, body: NOT_PERMITTED });
    expect(await listed(as)).not.toContain(user);
    expect(before.status).toBe(200);
    expect(await api(witness, `/users/${user}`)).toEqual(before);
  };

  it('external admin → internal admin sharing the organisation: unreachable', async () => {
    await unreachable(BEAT_LOGIN, IDA, 'org-dca');
  });

  it('external admin → internally managed employee sharing the organisation: unreachable', async () => {
    await unreachable(BEAT_LOGIN, SVEN, 'org-dca');
  });

  it('external admin → external admin sharing the organisation: unreachable', async () => {
    await unreachable(ADMIN, EMMA, 'org-phl');
  });

  it('internal admin → another internal admin: unreachable', async () => {
    await unreachable(INTERN, INES, 'org-owg');
  });

  it('external admin → user also in an organisation they do not administer: view and "remove from this organisation" only', async () => {
    const sara = await api(BEAT_LOGIN, `/users/${SARA}`);
    expect(sara.status).toBe(200);
    expect(sara.body).toMatchObject({ canDelete: false, canChangeAccess: false });
    expect(actionsOf(sara.body)).toEqual([]);
    expect(await action(BEAT_LOGIN, SARA, 'mfpwm', 'accept')).toEqual({ status: 403, body: NOT_EVERY_ORG });
    expect(await action(BEAT_LOGIN, SARA, 'assetdb', 'add')).toEqual({ status: 403, body: NOT_EVERY_ORG });
    expect(await api(BEAT_LOGIN, `/users/${SARA}`, { method: 'DELETE' })).toEqual({ status: 403, body: NOT_EVERY_ORG });
    expect(await api(BEAT_LOGIN, `/users/${SARA}/organisations/org-mcd`, { method: 'DELETE' })).toEqual({ status: 403, body: ORG_NOT_PERMITTED });
    expect((await api(INTERN, `/users/${SARA}`)).body).toEqual({ ...sara.body, canDelete: true, canChangeAccess: true, access: expect.any(Array) });
    const removed = await api(BEAT_LOGIN, `/users/${SARA}/organisations/org-dca`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(removed.body.organisations.map((o: { orguid: string }) => o.orguid)).toEqual(['org-mcd']);
  });

  it('external admin → user only of their organisation: everything; → themselves: view, no access change, no deletion', async () => {
    expect((await api(BEAT_LOGIN, `/users/${MAREK}`)).body).toMatchObject({ canDelete: true, canChangeAccess: true });
    expect(accessOf((await action(BEAT_LOGIN, MAREK, 'mfpmds', 'add')).body, 'mfpmds')).toMatchObject({ status: 'active' });
    expect(await api(BEAT_LOGIN, `/users/${ANNA}`, { method: 'DELETE' })).toEqual({ status: 200, body: { id: ANNA } });

    const self = await api(BEAT_LOGIN, `/users/${BEAT}`);
    expect(self.body).toMatchObject({ id: BEAT, adminKind: 'extern', canDelete: false, canChangeAccess: false });
    expect(actionsOf(self.body)).toEqual([]);
    expect(await action(BEAT_LOGIN, BEAT, 'assetdb', 'add')).toEqual({ status: 403, body: OWN_ACCESS });
    expect(await action(BEAT_LOGIN, BEAT, 'serviceticketing', 'withdraw')).toEqual({ status: 403, body: OWN_ACCESS });
    expect(await rolesAt(BEAT_LOGIN)).toEqual(['kmx_delegatedadmin_extern', 'kmx_int_serviceticketing_active']);
    expect((await api(BEAT_LOGIN, `/users/${BEAT}`, { method: 'DELETE' })).status).toBe(409);
  });

  it('internal admin → external admins, employees and users of no organisation: everything; → themselves: no access change', async () => {
    expect((await api(INTERN, `/users/${BEAT}`)).body).toMatchObject({ adminKind: 'extern', canDelete: true, canChangeAccess: true });
    expect(accessOf((await action(INTERN, BEAT, 'mfpwm', 'add')).body, 'mfpwm')).toMatchObject({ status: 'active' });
    expect((await api(INTERN, `/users/${SVEN}`)).body).toMatchObject({ internallyManaged: true, canDelete: true, canChangeAccess: true });
    expect((await api(INTERN, `/users/${NORA}`)).body).toMatchObject({ organisations: [], canDelete: true, canChangeAccess: true });
    expect(await action(INTERN, IDA, 'mfpwm', 'add')).toEqual({ status: 403, body: OWN_ACCESS });
    expect(await listed(INTERN)).toEqual(expect.arrayContaining([IDA, BEAT, SVEN, NORA]));
    expect(await listed(INTERN)).not.toContain(INES);
  });
});

describe('user list', () => {
  const emails = (body: { result: { email: string }[] }) => body.result.map((r) => r.email);

  it('searches name and e-mail case-insensitively and filters by organisation, application, status and country', async () => {
    expect(emails((await api(ADMIN, '/users?search=RAMIREZ')).body)).toEqual(['lucia.ramirez@hdi.example']);
    expect(emails((await api(ADMIN, '/users?search=lucia r')).body)).toEqual(['lucia.ramirez@hdi.example']);
    expect((await api(ADMIN, '/users?search=@phl.example&pageSize=100')).body.result.every((r: { email: string }) => r.email.endsWith('@phl.example'))).toBe(true);
    expect((await api(ADMIN, '/users?search=customer@demo')).body.totalCount).toBe(0);
    const phl = await api(ADMIN, '/users?orguid=org-phl&pageSize=100');
    expect(emails(phl.body)).toEqual(expect.arrayContaining(['profile@demo.komax.test', 'admin@demo.komax.test']));
    expect(phl.body.result.every((r: { organisations: { orguid: string }[] }) => r.organisations.some((o) => o.orguid === 'org-phl'))).toBe(true);
    expect((await api(ADMIN, '/users?orguid=org-dca&pageSize=100')).body.result.map((r: { id: string }) => r.id)).toEqual([MEGAN]);
    const pendingAssetdb = await api(ADMIN, '/users?application=assetdb&status=pending&pageSize=100');
    expect(emails(pendingAssetdb.body).sort()).toEqual(['charlotte.evans@phl.example', 'lucia.ramirez@hdi.example', 'olivia.grant@hdi.example']);
    const mx = await api(ADMIN, '/users?country=mx&pageSize=100');
    expect(mx.body.totalCount).toBeGreaterThan(3);
    expect(mx.body.result.every((r: { country: string }) => r.country === 'MX')).toBe(true);
  });

  it('rows carry organisations, role and the most recent access record', async () => {
    const { body } = await api(ADMIN, '/users?search=lucia');
    expect(body).toEqual({ result: [{
      id: LUCIA, name: 'Lucia Ramirez', email: 'lucia.ramirez@hdi.example', organisations: [{ orguid: 'org-hdi', name: 'Harness Demo Inc.' }], role: 'user',
      adminKind: null, internallyManaged: false, status: 'pending', application: 'assetdb', country: 'MX', city: 'Querétaro',
      applications: [{ application: 'assetdb', status: 'pending' }, { application: 'serviceticketing', status: 'active' }],
    }], totalCount: 1, page: 1, pageSize: 20 });
    expect((await api(ADMIN, '/users?search=adam')).body.result[0].role).toBe('admin');
    expect((await api(ADMIN, `/users?search=nathan`)).body.result[0]).toMatchObject({ id: NATHAN, status: null, application: null, applications: [] });
  });

  it('sorts by each key both ways and pages', async () => {
    for (const key of ['name', 'email', 'organisation', 'status', 'country', 'city']) {
      const asc = (await api(ADMIN, `/users?sort=${key}&pageSize=100`)).body.result;
      const desc = (await api(ADMIN, `/users?sort=-${key}&pageSize=100`)).body.result;
      const value = (r: { name: string; email: string; organisations: { name: string }[]; status: string | null; country: string; city: string }) =>
        key === 'organisation' ? r.organisations[0]?.name ?? '' : key === 'name' ? r.name || r.email : String(r[key as 'email'] ?? '');
      const values = asc.map(value);
      expect(values, key).toEqual([...values].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
      expect(desc.map(value), key).toEqual([...values].reverse().sort((a, b) => b.localeCompare(a, 'en', { sensitivity: 'base' })));
    }
    const all = (await api(ADMIN, '/users?sort=email&pageSize=100')).body;
    const page2 = (await api(ADMIN, '/users?sort=email&page=2&pageSize=5')).body;
    expect(page2).toMatchObject({ page: 2, pageSize: 5, totalCount: all.totalCount });
    expect(page2.result).toEqual(all.result.slice(5, 10));
    expect((await api(ADMIN, '/users?page=99')).body).toMatchObject({ result: [], page: 99 });
    expect((await api(ADMIN, '/users')).body).toMatchObject({ page: 1, pageSize: 20 });
    expect((await api(ADMIN, '/users')).body.result.map((r: { name: string }) => r.name)[0]).toBe('Adam Admin');
  });

  it('400 with what is wrong for invalid parameters', async () => {
    for (const [query, message] of [
      ['pageSize=0', /pageSize must be at least 1/], ['pageSize=101', /pageSize must be at most 100/], ['page=0', /page must be at least 1/],
      ['page=abc', /page must be a whole number/], ['sort=age', /sort must be one of name, email/], ['status=bogus', /status must be one of/],
      ['application=crm', /application must be one of/], ['country=Switzerland', /country must be an ISO/],
    ] as const) {
      const res = await api(ADMIN, `/users?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toEqual({ code: 400, reason: 'Bad Request', message: expect.stringMatching(message) });
    }
  });
});

describe('invitations', () => {
  it('creates an invited user with a 7-day expiry and a membership, listed as invited', async () => {
    const before = Date.now();
    const res = await api(ADMIN, '/invitations', { method: 'POST', body: { email: ' New.Hire@hdi.example ', orguid: 'org-hdi', applications: ['serviceticketing', 'direct'] } });
    expect(res.status).toBe(201);
    const user = res.body.user;
    expect(user).toMatchObject({ email: 'New.Hire@hdi.example', name: '', company: 'Harness Demo Inc.', country: 'US', city: 'Auburn Hills', role: 'user', canDelete: true,
      organisations: [{ orguid: 'org-hdi', name: 'Harness Demo Inc.' }] });
    expect(user.access.map((a: { application: string }) => a.application)).toEqual(['direct', 'serviceticketing']);
    for (const access of user.access) {
      expect(access).toMatchObject({ status: 'invited', requestedBy: 'admin@demo.komax.test', actions: ['resend', 'decline', 'withdraw'] });
      const expires = Date.parse(access.inviteExpiresAt) - Date.parse(access.requestDate);
      expect(expires).toBe(7 * 24 * 3600 * 1000);
      expect(Date.parse(access.requestDate)).toBeGreaterThanOrEqual(before - 1000);
    }
    const row = (await api(ADMIN, '/users?search=new.hire')).body.result[0];
    expect(row).toMatchObject({ id: user.id, status: 'invited' });
    // No password: the invited user cannot sign in yet.
    await expect(id.signIn('new.hire@hdi.example')).rejects.toThrow(/login answered 401/);
  });

  it('400 for an invalid e-mail, empty applications, an unknown organisation; 403 outside the own organisations', async () => {
    const post = (body: unknown) => api(ADMIN, '/invitations', { method: 'POST', body });
    expect(await post({ email: 'not-an-email', orguid: 'org-hdi', applications: ['direct'] })).toEqual({ status: 400, body: { code: 400, reason: 'Bad Request', message: 'email must be a valid e-mail address', detail: { field: 'email' } } });
    expect(await post({ email: '', orguid: 'org-hdi', applications: ['direct'] })).toMatchObject({ status: 400, body: { detail: { field: 'email' } } });
    expect(await post({ email: 'ok@hdi.example', orguid: 'org-hdi', applications: [] })).toEqual({ status: 400, body: { code: 400, reason: 'Bad Request', message: 'applications must name at least one application', detail: { field: 'applications' } } });
    expect(await post({ email: 'ok@hdi.example', orguid: 'org-hdi', applications: ['crm'] })).toMatchObject({ status: 400, body: { detail: { field: 'applications' } } });
    expect(await post({ email: 'ok@hdi.example', orguid: 'org-nope', applications: ['direct'] })).toMatchObject({ status: 400, body: { detail: { field: 'orguid' } } });
    expect(await post({ email: 'ok@dca.example', orguid: 'org-dca', applications: ['direct'] })).toEqual({ status: 403, body: { code: 403, reason: 'Forbidden', message: 'Not permitted for this organisation' } });
    expect((await api(ADMIN, '/users?search=ok@')).body.totalCount).toBe(0);
    // The internal admin invites into any organisation.
    expect((await api(INTERN, '/invitations', { method: 'POST', body: { email: 'ok@dca.example', orguid: 'org-dca', applications: ['direct'] } })).status).toBe(201);
  });

  it('409 with the user id for an existing e-mail (and whether the admin may open it)', async () => {
    const post = (email: string) => api(ADMIN, '/invitations', { method: 'POST', body: { email, orguid: 'org-hdi', applications: ['direct'] } });
    expect(await post('LUCIA.RAMIREZ@hdi.example')).toEqual({ status: 409, body: { code: 409, reason: 'Conflict', message: 'User already exists', detail: { userId: LUCIA, permitted: true } } });
    expect(await post('customer@demo.komax.test')).toEqual({ status: 409, body: { code: 409, reason: 'Conflict', message: 'User already exists', detail: { userId: CLAIRE, permitted: false } } });
  });
});

describe('access actions', () => {
  it('accept a pending request: the tile role becomes active at userinfo', async () => {
    expect(await rolesAt('lucia.ramirez@hdi.example')).toEqual(['kmx_int_serviceticketing_active', 'kmx_int_assetdb_pending']);
    const res = await action(ADMIN, LUCIA, 'assetdb', 'accept');
    expect(res.status).toBe(200);
    expect(accessOf(res.body, 'assetdb')).toMatchObject({ status: 'active', requestedBy: 'lucia.ramirez@hdi.example', actions: ['edit', 'withdraw'] });
    expect(await rolesAt('lucia.ramirez@hdi.example')).toEqual(['kmx_int_serviceticketing_active', 'kmx_int_assetdb_active']);
    expect(await action(ADMIN, LUCIA, 'assetdb', 'accept')).toEqual({ status: 409, body: { code: 409, reason: 'Conflict', message: 'Action accept is not allowed when access is active' } });
  });

  it('withdraw, edit, grant, decline change the roles; add and invite start a record', async () => {
    const emily = 'emily.foster@hdi.example';
    expect((await action(ADMIN, EMILY, 'serviceticketing', 'withdraw')).status).toBe(200);
    expect(await rolesAt(emily)).toEqual(['kmx_int_assetdb_active']);
    expect(accessOf((await action(ADMIN, EMILY, 'assetdb', 'edit', { status: 'inactive' })).body, 'assetdb')).toMatchObject({ status: 'inactive', actions: ['grant', 'edit'] });
    expect(await rolesAt(emily)).toEqual([]);
    expect((await action(ADMIN, EMILY, 'assetdb', 'edit', { status: 'active' })).status).toBe(200);
    expect(await rolesAt(emily)).toEqual(['kmx_int_assetdb_active']);
    expect(await action(ADMIN, EMILY, 'assetdb', 'edit', {})).toMatchObject({ status: 400, body: { message: 'edit needs a body { "status": "active" | "inactive" }', detail: { field: 'status' } } });
    expect(await action(ADMIN, EMILY, 'assetdb', 'edit', { status: 'pending' })).toMatchObject({ status: 400, body: { message: 'status must be "active" or "inactive"', detail: { field: 'status' } } });

    expect(accessOf((await action(ADMIN, FRANK, 'serviceticketing', 'grant')).body, 'serviceticketing')).toMatchObject({ status: 'active', requestedBy: 'admin@demo.komax.test' });
    expect(await rolesAt('frank.novak@hdi.example')).toEqual(['kmx_int_serviceticketing_active']);
    expect((await action(ADMIN, GABRIELA, 'assetdb', 'grant')).status).toBe(200);

    expect(await rolesAt('derek.hughes@hdi.example')).toEqual(['kmx_int_direct_pending']);
    expect(accessOf((await action(ADMIN, DEREK, 'direct', 'decline')).body, 'direct')).toMatchObject({ status: 'declined', actions: ['grant'] });
    expect(await rolesAt('derek.hughes@hdi.example')).toEqual([]);

    expect(accessOf((await action(ADMIN, NATHAN, 'assetdb', 'add')).body, 'assetdb')).toMatchObject({ status: 'active', inviteExpiresAt: null });
    const invited = accessOf((await action(ADMIN, NATHAN, 'lmsefront', 'invite')).body, 'lmsefront');
    expect(invited).toMatchObject({ status: 'invited', requestedBy: 'admin@demo.komax.test' });
    expect(await rolesAt('nathan.reed@hdi.example')).toEqual(['kmx_int_assetdb_active', 'kmx_int_lmsefront_invited']);
    expect((await action(ADMIN, NATHAN, 'assetdb', 'add')).body.message).toBe('Action add is not allowed when access is active');
  });

  it('resend renews the expiry; an expired invite only allows a new one', async () => {
    const before = accessOf((await api(ADMIN, `/users/${BRIAN}`)).body, 'serviceticketing');
    await new Promise((r) => setTimeout(r, 5));
    const after = accessOf((await action(ADMIN, BRIAN, 'serviceticketing', 'resend')).body, 'serviceticketing');
    expect(after.status).toBe('invited');
    expect(Date.parse(after.inviteExpiresAt)).toBeGreaterThan(Date.parse(before.inviteExpiresAt));

    expect(await rolesAt('isabel.cruz@hdi.example')).toEqual(['kmx_int_serviceticketing_inviteexpired']);
    expect(accessOf((await api(ADMIN, `/users/${ISABEL}`)).body, 'serviceticketing')).toMatchObject({ status: 'inviteexpired', actions: ['reinvite'] });
    expect((await action(ADMIN, ISABEL, 'serviceticketing', 'resend')).body.message).toBe('Action resend is not allowed when access is inviteexpired');
    const renewed = accessOf((await action(ADMIN, ISABEL, 'serviceticketing', 'reinvite')).body, 'serviceticketing');
    expect(renewed.status).toBe('invited');
    expect(Date.parse(renewed.inviteExpiresAt)).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect(await rolesAt('isabel.cruz@hdi.example')).toEqual(['kmx_int_serviceticketing_invited']);
  });

  it('400 for an unknown application or action', async () => {
    expect(await action(ADMIN, LUCIA, 'crm', 'add')).toMatchObject({ status: 400, body: { detail: { field: 'application' } } });
    expect(await action(ADMIN, LUCIA, 'direct', 'approve')).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^_action must be one of invite, add/) } });
  });
});

describe('memberships and deletion', () => {
  it('removes a membership; the user is then out of reach; only memberships of the admin\'s organisations', async () => {
    expect(await api(ADMIN, `/users/${MEGAN}/organisations/org-dca`, { method: 'DELETE' })).toEqual({ status: 403, body: { code: 403, reason: 'Forbidden', message: 'Not permitted for this organisation' } });
    expect((await api(ADMIN, `/users/${MEGAN}/organisations/org-owg`, { method: 'DELETE' })).status).toBe(404);
    const res = await api(ADMIN, `/users/${MEGAN}/organisations/org-hdi`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body.organisations.map((o: { orguid: string }) => o.orguid)).toEqual(['org-dca']);
    expect(await api(ADMIN, `/users/${MEGAN}`)).toEqual({ status: 403, body: NOT_PERMITTED });
    expect((await api(INTERN, `/users/${MEGAN}`)).body.organisations).toHaveLength(1);
  });

  it("removing the admin's own membership is allowed and takes away that organisation's users", async () => {
    expect((await api(ADMIN, `/users/${PETE}`)).status).toBe(200);
    const res = await api(ADMIN, `/users/${ADAM}/organisations/org-phl`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ADAM, role: 'admin', adminKind: 'extern', canDelete: false, canChangeAccess: false, organisations: [{ orguid: 'org-hdi' }] });
    expect((await api(ADMIN, '/organisations')).body.result.map((o: { orguid: string }) => o.orguid)).toEqual(['org-hdi']);
    expect(await api(ADMIN, `/users/${PETE}`)).toEqual({ status: 403, body: NOT_PERMITTED });
  });

  it('deletes a user (not oneself): gone from the list, their sign-in fails', async () => {
    const olivia = await id.signIn('olivia.grant@hdi.example');
    expect(await api(ADMIN, `/users/${OLIVIA}`, { method: 'DELETE' })).toEqual({ status: 200, body: { id: OLIVIA } });
    expect((await api(ADMIN, `/users/${OLIVIA}`)).status).toBe(404);
    expect((await api(ADMIN, '/users?search=olivia')).body.totalCount).toBe(0);
    expect((await fetch(`${id.issuer}/userinfo`, { headers: { authorization: `Bearer ${olivia.access_token}` } })).status).toBe(401);
    await expect(id.signIn('olivia.grant@hdi.example')).rejects.toThrow(/login answered 401/);
    expect(await api(ADMIN, `/users/${ADAM}`, { method: 'DELETE' })).toEqual({ status: 409, body: { code: 409, reason: 'Conflict', message: 'You cannot delete your own account here' } });
  });
});

describe('persistence', () => {
  it('invitations, actions, memberships and deletions survive a restart', async () => {
    await id.close();
    id = await startDemoIdentity({ dataDir });
    tokens.clear();
    expect((await api(ADMIN, '/users?search=new.hire')).body.result[0]).toMatchObject({ status: 'invited' });
    expect(accessOf((await api(ADMIN, `/users/${LUCIA}`)).body, 'assetdb')).toMatchObject({ status: 'active' });
    expect(await rolesAt('lucia.ramirez@hdi.example')).toEqual(['kmx_int_serviceticketing_active', 'kmx_int_assetdb_active']);
    expect((await api(ADMIN, '/organisations')).body.result.map((o: { orguid: string }) => o.orguid)).toEqual(['org-hdi']);
    expect((await api(ADMIN, `/users/${OLIVIA}`)).status).toBe(404);
    expect((await api(INTERN, '/users?pageSize=100')).body.totalCount).toBeGreaterThanOrEqual(40);
  });
});
