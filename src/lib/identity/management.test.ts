import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changePassword, deleteAccount, getProfile, IdentityManagementError, resetMfa, updateProfile, type ManagementConfig } from './management.ts';
import { fakeUser, startFakeManagement, type FakeManagement } from '../../../emulators/identity/management.ts';

let fake: FakeManagement;
let config: ManagementConfig;

beforeAll(async () => {
  fake = await startFakeManagement();
  config = { managementUrl: fake.url, timeouts: { connectTimeoutMs: 500, timeoutMs: 300 } };
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.users.clear();
  fake.users.set('u1', fakeUser('u1', { telephoneNumber: '+41 41 455 55 55', country: 'ch', custom_language: 'DE' }));
  fake.users.set('u2', fakeUser('u2'));
  fake.users.set('intern', fakeUser('intern', { custom_internallyManaged: true }));
  fake.tokens.clear();
  fake.tokens.set('token-u1', 'u1');
  fake.tokens.set('token-intern', 'intern');
  fake.requests.length = 0;
  fake.override = null;
});

const failure = async (p: Promise<unknown>): Promise<IdentityManagementError> => {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(IdentityManagementError);
  return err as IdentityManagementError;
};

describe('getProfile', () => {
  it('reads the own record with the user\'s token and maps it to our Profile', async () => {
    await expect(getProfile(config, 'token-u1', 'u1')).resolves.toEqual({
      id: 'u1', userName: 'u1@demo.komax.test', firstName: 'Claire', lastName: 'Customer', company: 'Demo AG', email: 'u1@demo.komax.test',
      telephone: '+41 41 455 55 55', address: '', postalCode: '', city: '', country: 'CH', language: 'de', internallyManaged: false, mfaDevices: 1,
    });
    expect(fake.requests[0]).toMatchObject({ method: 'GET', url: '/openidm/managed/alpha_user/u1' });
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer token-u1');
  });

  it('absent text fields become empty, unknown languages and countries empty', async () => {
    fake.override = { status: 200, body: { _id: 'u1', givenName: 'A', country: 'Switzerland', custom_language: 'xx' } };
    const p = await getProfile(config, 'token-u1', 'u1');
    expect(p).toMatchObject({ firstName: 'A', lastName: '', email: '', country: '', language: '', internallyManaged: false, mfaDevices: 0 });
  });

  it('401 is unauthorized, another user\'s id forbidden, an unknown one not found', async () => {
    expect((await failure(getProfile(config, 'nope', 'u1'))).kind).toBe('unauthorized');
    const other = await failure(getProfile(config, 'token-u1', 'u2'));
    expect([other.kind, other.status]).toEqual(['forbidden', 403]);
    fake.tokens.set('token-gone', 'gone');
    expect((await failure(getProfile(config, 'token-gone', 'gone'))).kind).toBe('not-found');
  });

  it('a 5xx, a timeout or a refused connection is unavailable; a body of the wrong shape an invalid answer', async () => {
    fake.override = { status: 502, body: 'Bad gateway' };
    expect((await failure(getProfile(config, 'token-u1', 'u1'))).kind).toBe('unavailable');
    fake.override = { status: 200, body: {}, delayMs: 1000 };
    const slow = await failure(getProfile(config, 'token-u1', 'u1'));
    expect(slow.kind).toBe('unavailable');
    expect(slow.message).toContain('no answer within 300 ms');
    expect((await failure(getProfile({ managementUrl: 'http://127.0.0.1:1/openidm' }, 'token-u1', 'u1'))).kind).toBe('unavailable');
    fake.override = { status: 200, body: { id: 'u1' } };
    expect((await failure(getProfile(config, 'token-u1', 'u1'))).kind).toBe('invalid-answer');
    fake.override = { status: 200, body: '<html>' };
    expect((await failure(getProfile(config, 'token-u1', 'u1'))).kind).toBe('invalid-answer');
  });

  it('the user id is one path segment, whatever it contains', async () => {
    fake.tokens.set('token-odd', '../x?y');
    await failure(getProfile(config, 'token-odd', '../x?y'));
    expect(fake.requests[0]!.url).toBe('/openidm/managed/alpha_user/..%2Fx%3Fy');
  });
});

describe('updateProfile', () => {
  it('sends a replace operation per given field with the IDM attribute names, answers the stored profile', async () => {
    const p = await updateProfile(config, 'token-u1', 'u1', { firstName: 'Ana', lastName: 'Bell', email: 'ana@example.test', language: 'fr', company: '' });
    expect(fake.requests[0]).toMatchObject({ method: 'PATCH', body: [
      { operation: 'replace', field: '/givenName', value: 'Ana' },
      { operation: 'replace', field: '/sn', value: 'Bell' },
      { operation: 'replace', field: '/custom_company', value: '' },
      { operation: 'replace', field: '/mail', value: 'ana@example.test' },
      { operation: 'replace', field: '/custom_language', value: 'fr' },
    ] });
    expect(p).toMatchObject({ firstName: 'Ana', lastName: 'Bell', company: '', email: 'ana@example.test', language: 'fr' });
  });

  it('policy failures keep their codes and params, named by our field', async () => {
    const err = await failure(updateProfile(config, 'token-u1', 'u1', { email: 'not-an-address' }));
    expect(err.kind).toBe('policy');
    expect(err.status).toBe(403);
    expect(err.failures).toEqual([{ field: 'email', code: 'VALID_EMAIL_ADDRESS_FORMAT', params: {} }]);
  });

  it('an internally managed account refuses', async () => {
    expect((await failure(updateProfile(config, 'token-intern', 'intern', { firstName: 'X' }))).kind).toBe('internally-managed');
  });
});

describe('changePassword', () => {
  it('sends the new password as a patch and the current one as the reauthentication header', async () => {
    await changePassword(config, 'token-u1', 'u1', 'Komax-Demo-2026', 'Better-Pass-2027');
    expect(fake.requests[0]!.body).toEqual([{ operation: 'replace', field: '/password', value: 'Better-Pass-2027' }]);
    expect(fake.requests[0]!.headers['x-openidm-reauth-password']).toBe('Komax-Demo-2026');
    expect(fake.users.get('u1')!.password).toBe('Better-Pass-2027');
  });

  it('a wrong current password is a failed reauthentication; a weak new one a policy failure with its bound', async () => {
    expect((await failure(changePassword(config, 'token-u1', 'u1', 'wrong', 'Better-Pass-2027'))).kind).toBe('reauthentication-failed');
    const weak = await failure(changePassword(config, 'token-u1', 'u1', 'Komax-Demo-2026', 'short'));
    expect(weak.kind).toBe('policy');
    expect(weak.failures).toEqual([{ field: 'password', code: 'MIN_LENGTH', params: { minLength: 10 } }]);
  });
});

describe('resetMfa and deleteAccount', () => {
  it('resets the devices, also for an internal account', async () => {
    await expect(resetMfa(config, 'token-intern', 'intern')).resolves.toBe(0);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', url: '/openidm/managed/alpha_user/intern?_action=resetMfa' });
  });

  it('deletes the account', async () => {
    await deleteAccount(config, 'token-u1', 'u1');
    expect(fake.requests[0]).toMatchObject({ method: 'DELETE', url: '/openidm/managed/alpha_user/u1' });
    expect(fake.users.has('u1')).toBe(false);
  });
});
