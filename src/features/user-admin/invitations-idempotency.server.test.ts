import type { APIContext } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoIdentity, type DemoIdentity } from '../../../emulators/testing.ts';
import { startPausableProxy } from '../../../emulators/shared/pausable-proxy.ts';
import { userAdminHandlers, type UserGuard } from './api.server.ts';

// Invitations and the Idempotency-Key, against the real identity emulator: an invitation sent
// twice with one key is made once and the repeat gets the first answer (201), not "User already
// exists"; also when identity management hung and then resumed after the first attempt gave up.

let idp: DemoIdentity;
let token = '';
beforeAll(async () => {
  idp = await startDemoIdentity();
  token = (await idp.signIn('admin@demo.komax.test')).access_token;
}, 30_000);
afterAll(() => idp?.close());

const guard: UserGuard = async ({ request }) => {
  const bearer = /^Bearer (.+)$/.exec(request.headers.get('authorization') ?? '')?.[1] ?? '';
  const sub = String(JSON.parse(Buffer.from(bearer.split('.')[1] ?? '', 'base64url').toString() || '{}').sub ?? 'x');
  return { claims: { sub, scope: ['fr:idm:*'] }, accessToken: bearer };
};
const { invite } = userAdminHandlers(guard);

async function send(body: unknown, key: string | null, managementUrl = idp.managementUrl, timeoutMs = 3000) {
  const request = new Request('http://localhost/api/user-admin/invitations', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
  });
  const locals = { api: { services: { identity: { managementUrl, timeouts: { connectTimeoutMs: 500, timeoutMs } } } } };
  const res = await invite({ request, locals, url: new URL(request.url), params: {} } as unknown as APIContext);
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.json() };
}

describe('POST /api/user-admin/invitations with an Idempotency-Key', () => {
  it('invites once for a key sent twice; the repeat gets the first answer', async () => {
    const key = `"${crypto.randomUUID()}"`;
    const invitation = { email: 'twice@hdi.example', orguid: 'org-hdi', applications: ['assetdb'] };
    const first = await send(invitation, key);
    const again = await send(invitation, key);
    expect(first.status).toBe(201);
    expect(again).toMatchObject({ status: 201, replayed: 'true', body: first.body });
    // without the key the same invitation again is the second invitation of an existing address
    expect((await send(invitation, `"${crypto.randomUUID()}"`)).status).toBe(409);
  });

  it('refuses a missing or malformed key with 400, and the key with another invitation with 422', async () => {
    expect(await send({ email: 'nokey@hdi.example', orguid: 'org-hdi', applications: ['assetdb'] }, null)).toMatchObject({ status: 400, body: { error: 'idempotency-key-required' } });
    expect((await send({ email: 'nokey@hdi.example', orguid: 'org-hdi', applications: ['assetdb'] }, '"bad key"')).status).toBe(400);
    const key = `"${crypto.randomUUID()}"`;
    expect((await send({ email: 'first@hdi.example', orguid: 'org-hdi', applications: ['assetdb'] }, key)).status).toBe(201);
    expect(await send({ email: 'second@hdi.example', orguid: 'org-hdi', applications: ['assetdb'] }, key)).toMatchObject({ status: 422, body: { error: 'idempotency-key-reused' } });
  });

  it('identity management hung, then resumed: the first attempt is 502, the retry with the same key is the invitation made meanwhile (201), not 409', async () => {
    const relay = await startPausableProxy(Number(new URL(idp.managementUrl).port));
    try {
      const managementUrl = idp.managementUrl.replace(/:\d+\//, `:${relay.port}/`);
      const key = `"${crypto.randomUUID()}"`;
      const invitation = { email: 'hung@hdi.example', orguid: 'org-hdi', applications: ['assetdb'] };
      relay.pause();
      const first = await send(invitation, key, managementUrl, 700);
      expect(first).toMatchObject({ status: 502, body: { message: 'User administration is not available right now.' } });
      relay.resume();
      // The held request is made as soon as it resumes; a retry that races it gets 409 (in progress) and waits.
      await expect.poll(async () => (await send(invitation, key, managementUrl)).status).toBe(201);
      expect((await send(invitation, key, managementUrl)).body.email).toBe('hung@hdi.example');
    } finally {
      await relay.close();
    }
  });
});
