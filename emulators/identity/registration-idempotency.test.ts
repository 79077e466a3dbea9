import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoIdentity, type DemoIdentity } from '../testing.ts';
import { CookieJar, get } from './login-flow.ts';

// The registration page and its idempotency key: each rendering of the form carries a new key
// (hidden field); "Create account" sent twice with it (the answer to the first was lost) creates
// the account once and answers the repeat as the first time (back to the app), not with
// "An account with this e-mail address already exists".

const APP = 'http://localhost:4321';
let id: DemoIdentity;
beforeAll(async () => { id = await startDemoIdentity({ appOrigin: APP }); });
afterAll(async () => { await id.close(); });

const registration = () => `${id.origin}/am/XUI/?realm=alpha&authIndexType=service&authIndexValue=Registration&goto=${encodeURIComponent(`${APP}/en/mykomax`)}`;
const post = (url: string, body: Record<string, string>, jar: CookieJar) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() }, body: new URLSearchParams(body) });
async function open() {
  const jar = new CookieJar();
  const html = await (await get(registration(), jar)).text();
  return { jar, csrf: /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '', key: /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1] ?? '' };
}

describe('registration with the form\'s idempotency key', () => {
  it('creates the account once when the same form is sent twice, and answers the repeat like the first', async () => {
    const { jar, csrf, key } = await open();
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const body = { csrf, idempotencyKey: key, givenName: 'Ida', sn: 'Twice', mail: 'ida.twice@example.com', password: 'Wire-Harness-77' };
    const first = await post(registration(), body, jar);
    const again = await post(registration(), body, jar);
    expect([first.status, first.headers.get('location')]).toEqual([303, `${APP}/en/mykomax`]);
    expect([again.status, again.headers.get('location')]).toEqual([303, `${APP}/en/mykomax`]);
    // A new form (a new key) for the same address is a second registration: refused.
    const fresh = await open();
    const second = await post(registration(), { ...body, csrf: fresh.csrf, idempotencyKey: fresh.key }, fresh.jar);
    expect(second.status).toBe(400);
    expect(await second.text()).toContain('An account with this e-mail address already exists.');
  });

  it('gives the form a new key after refused input, so the corrected form is a new request', async () => {
    const { jar, csrf, key } = await open();
    const bad = await post(registration(), { csrf, idempotencyKey: key, givenName: 'Ivo', sn: '', mail: 'ivo@example.com', password: 'short' }, jar);
    expect(bad.status).toBe(400);
    const next = /name="idempotencyKey" value="([^"]+)"/.exec(await bad.text())?.[1];
    expect(next).toBeTruthy();
    expect(next).not.toBe(key);
    const ok = await post(registration(), { csrf, idempotencyKey: next!, givenName: 'Ivo', sn: 'Fixed', mail: 'ivo@example.com', password: 'Wire-Harness-77' }, jar);
    expect(ok.status).toBe(303);
  });
});
