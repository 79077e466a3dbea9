// Identity management REST (/openidm/managed/alpha_user/{id}) with the emulator's access tokens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoIdentity, type DemoIdentity } from '../testing.ts';

const CUSTOMER = '7f3c2a10-5b1e-4c6a-9d2e-1a0000000001';
const EMPLOYEE = '7f3c2a10-5b1e-4c6a-9d2e-1a0000000006';
const PASSWORD_USER = '7f3c2a10-5b1e-4c6a-9d2e-1a0000000007';
const PROFILE_USER = '7f3c2a10-5b1e-4c6a-9d2e-1a0000000008';
const DELETE_USER = '7f3c2a10-5b1e-4c6a-9d2e-1a0000000009';

let dataDir: string;
let id: DemoIdentity;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kmx-idm-test-'));
  id = await startDemoIdentity({ dataDir });
});
afterAll(async () => {
  await id.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (token: string | null, userId: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; query?: string } = {}) =>
  fetch(`${id.managementUrl}/managed/alpha_user/${userId}${init.query ?? ''}`, {
    method: init.method ?? 'GET',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
const replace = (field: string, value: string) => ({ operation: 'replace', field: `/${field}`, value });
const token = async (user: string, password?: string) => (await id.signIn(user, { password })).access_token;

describe('access', () => {
  it('GET answers the own profile in IDM shape', async () => {
    const res = await call(await token('customer@demo.komax.test'), CUSTOMER);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      _id: CUSTOMER,
      userName: 'customer@demo.komax.test',
      givenName: 'Claire',
      sn: 'Customer',
      mail: 'customer@demo.komax.test',
      telephoneNumber: '+41 41 455 04 55',
      postalAddress: 'Industriestrasse 6',
      postalCode: '6036',
      city: 'Dierikon',
      country: 'CH',
      custom_company: 'Demo Cable Assembly AG',
      custom_language: 'en',
      custom_internallyManaged: false,
      custom_mfaDevices: 1,
    });
  });

  it('401 without a token or with an invalid or revoked one', async () => {
    const unauthorized = { code: 401, reason: 'Unauthorized', message: 'Access Denied' };
    let res = await call(null, CUSTOMER);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(unauthorized);
    res = await call('garbage', CUSTOMER);
    expect(res.status).toBe(401);
    const tokens = await id.signIn('customer@demo.komax.test');
    await fetch(`${id.issuer}/token/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokens.access_token, client_id: 'kmx-web' }) });
    res = await call(tokens.access_token, CUSTOMER);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(unauthorized);
  });

  it('401 for a token without the fr:idm:* scope', async () => {
    const { signIn } = await import('./login-flow.ts');
    const tokens = await signIn({ issuer: id.issuer, redirectUri: 'http://localhost:4321/en/callback', username: 'customer@demo.komax.test', password: id.password, scope: 'openid profile' });
    expect(tokens.scope).not.toContain('fr:idm:*');
    expect((await call(tokens.access_token, CUSTOMER)).status).toBe(401);
  });

  it("403 for another user's id, 404 for an unknown one", async () => {
    const t = await token('customer@demo.komax.test');
    const res = await call(t, PROFILE_USER);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 403, reason: 'Forbidden', message: 'Access denied' });
    for (const method of ['PATCH', 'DELETE']) expect((await call(t, PROFILE_USER, { method, body: method === 'PATCH' ? [replace('city', 'X')] : undefined })).status).toBe(403);
    expect((await call(t, 'no-such-user')).status).toBe(404);
  });
});

describe('profile', () => {
  it('PATCH replaces profile fields and the change survives a restart of the emulator on the same data folder', async () => {
    const t = await token('profile@demo.komax.test');
    const res = await call(t, PROFILE_USER, { method: 'PATCH', body: [replace('givenName', 'Peter'), replace('city', 'Manchester'), replace('telephoneNumber', '+44 161 555 0100'), replace('country', 'GB'), replace('custom_language', 'de')] });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ _id: PROFILE_USER, givenName: 'Peter', sn: 'Profile', city: 'Manchester', custom_language: 'de' });

    await id.close();
    id = await startDemoIdentity({ dataDir });
    const again = await call(await token('profile@demo.komax.test'), PROFILE_USER);
    expect(await again.json()).toMatchObject({ givenName: 'Peter', city: 'Manchester', telephoneNumber: '+44 161 555 0100' });
    // The claims follow the profile.
    const info = await fetch(`${id.issuer}/userinfo`, { headers: { authorization: `Bearer ${await token('profile@demo.komax.test')}` } });
    expect(await info.json()).toMatchObject({ name: 'Peter Profile', given_name: 'Peter' });
  });

  it('403 with the failed policies of every invalid field', async () => {
    const t = await token('profile@demo.komax.test');
    const res = await call(t, PROFILE_USER, { method: 'PATCH', body: [replace('givenName', ''), replace('mail', 'customer@demo.komax.test'), replace('telephoneNumber', 'abc')] });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: 403, reason: 'Forbidden', message: 'Failed policy validation',
      detail: { result: false, failedPolicyRequirements: [
        { property: 'givenName', policyRequirements: [{ policyRequirement: 'REQUIRED' }] },
        { property: 'telephoneNumber', policyRequirements: [{ policyRequirement: 'VALID_PHONE_FORMAT' }] },
        { property: 'mail', policyRequirements: [{ policyRequirement: 'UNIQUE' }] },
      ] },
    });
    // Nothing changed.
    expect(await (await call(t, PROFILE_USER)).json()).toMatchObject({ givenName: expect.not.stringMatching(/^$/), mail: 'profile@demo.komax.test' });
  });

  it('400 for a malformed body or a field that cannot be changed', async () => {
    const t = await token('profile@demo.komax.test');
    const bad = async (body: unknown) => {
      const res = await call(t, PROFILE_USER, { method: 'PATCH', body });
      expect(res.status).toBe(400);
      return (await res.json()).message as string;
    };
    expect(await bad({ givenName: 'X' })).toMatch(/array of patch operations/);
    expect(await bad([])).toMatch(/at least one/);
    expect(await bad([{ operation: 'remove', field: '/city' }])).toMatch(/replace/);
    expect(await bad([replace('userName', 'x@example.com')])).toMatch(/\/userName cannot be changed/);
    expect(await bad([replace('custom_mfaDevices', '0')])).toMatch(/cannot be changed/);
    expect(await bad([{ operation: 'replace', field: '/city', value: 3 }])).toMatch(/value must be a string/);
  });
});

describe('password', () => {
  it('403 Reauthentication failed without or with a wrong current password', async () => {
    const t = await token('password@demo.komax.test');
    for (const headers of [{}, { 'x-openidm-reauth-password': 'Wrong-Password-1' }] as Record<string, string>[]) {
      const res = await call(t, PASSWORD_USER, { method: 'PATCH', body: [replace('password', 'Wire-Harness-77')], headers });
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ code: 403, reason: 'Forbidden', message: 'Reauthentication failed' });
    }
  });

  it('403 with the policy codes and their parameters', async () => {
    const t = await token('password@demo.komax.test');
    const headers = { 'x-openidm-reauth-password': id.password };
    const failed = async (password: string) => {
      const res = await call(t, PASSWORD_USER, { method: 'PATCH', body: [replace('password', password)], headers });
      expect(res.status).toBe(403);
      const body = await res.json();
      expect(body.message).toBe('Failed policy validation');
      return body.detail.failedPolicyRequirements;
    };
    expect(await failed('short1A')).toEqual([{ property: 'password', policyRequirements: [{ policyRequirement: 'MIN_LENGTH', params: { minLength: 10 } }] }]);
    expect(await failed('no-capitals-123')).toEqual([{ property: 'password', policyRequirements: [{ policyRequirement: 'AT_LEAST_X_CAPITAL_LETTERS', params: { numCaps: 1 } }] }]);
    expect(await failed('Paula-Secret-99')).toEqual([{ property: 'password', policyRequirements: [{ policyRequirement: 'CANNOT_CONTAIN_OTHERS', params: { disallowedFields: ['givenName'] } }] }]);
    expect(await failed('')).toEqual([{ property: 'password', policyRequirements: [{ policyRequirement: 'REQUIRED' }] }]);
  });

  it('a valid change signs in with the new password only', async () => {
    const t = await token('password@demo.komax.test');
    const res = await call(t, PASSWORD_USER, { method: 'PATCH', body: [replace('password', 'Wire-Harness-77')], headers: { 'x-openidm-reauth-password': id.password } });
    expect(res.status).toBe(200);
    expect(await res.json()).not.toHaveProperty('password');
    await expect(id.signIn('password@demo.komax.test')).rejects.toThrow(/login answered 401/);
    expect((await id.signIn('password@demo.komax.test', { password: 'Wire-Harness-77' })).access_token).toBeTruthy();
  });
});

describe('internally managed account', () => {
  it('refuses profile and password changes but resets MFA', async () => {
    const t = await token('employee@komax.test');
    const internal = { code: 403, reason: 'Forbidden', message: 'Internally managed account' };
    let res = await call(t, EMPLOYEE, { method: 'PATCH', body: [replace('city', 'Zug')] });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual(internal);
    res = await call(t, EMPLOYEE, { method: 'PATCH', body: [replace('password', 'Wire-Harness-77')], headers: { 'x-openidm-reauth-password': id.password } });
    expect(await res.json()).toEqual(internal);
    expect(await (await call(t, EMPLOYEE)).json()).toMatchObject({ city: 'Dierikon', custom_internallyManaged: true });

    res = await call(t, EMPLOYEE, { method: 'POST', query: '?_action=resetMfa' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ _id: EMPLOYEE, custom_mfaDevices: 0 });
    expect(await (await call(t, EMPLOYEE)).json()).toMatchObject({ custom_mfaDevices: 0 });
    expect((await call(t, EMPLOYEE, { method: 'POST', query: '?_action=somethingElse' })).status).toBe(400);
  });
});

describe('deletion', () => {
  it('DELETE answers the deleted user, ends its tokens and sign-in fails afterwards', async () => {
    const tokens = await id.signIn('delete@demo.komax.test');
    const res = await call(tokens.access_token, DELETE_USER, { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ _id: DELETE_USER, userName: 'delete@demo.komax.test' });
    expect((await call(tokens.access_token, DELETE_USER)).status).toBe(401);
    expect((await fetch(`${id.issuer}/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
    const renewed = await fetch(`${id.issuer}/access_token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: 'kmx-web' }) });
    expect(renewed.status).toBe(400);
    await expect(id.signIn('delete@demo.komax.test')).rejects.toThrow(/login answered 401/);
  });
});
