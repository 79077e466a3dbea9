import { describe, expect, it } from 'vitest';
import { signValue } from '../../lib/crypto/signed.ts';
import { memorySharedState } from '../../lib/shared-state/index.ts';
import {
  EDITOR_COOKIE, EDITOR_COOKIE_MAX_AGE, editorCookieHeader, editorSession, editorSessionValue, isEditorRequest, newEditorSession,
  readEditorSession, revokeEditorSession,
} from './session.server.ts';

const HASH_A = 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5';
const HASH_B = HASH_A.replace('c2Fsd', 'd2Fsd');
const DAY = 24 * 3600 * 1000;
const T0 = Date.UTC(2026, 0, 1);

const payloadOf = (value: string) => JSON.parse(Buffer.from(value.split('.')[0]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('editor session values', () => {
  it('are signed, random per sign-in, and carry the issue time and an expiry 90 days later; never the hash', () => {
    const a = newEditorSession(HASH_A, T0);
    const b = newEditorSession(HASH_A, T0);
    expect(a).not.toBe(b);
    expect(a).not.toContain(HASH_A.split('$').at(-1));
    const p = payloadOf(a);
    expect(p).toEqual({ purpose: 'editor-session', sid: expect.stringMatching(/^[\w-]{22}$/), iat: T0 / 1000, exp: T0 / 1000 + EDITOR_COOKIE_MAX_AGE });
    expect(payloadOf(b).sid).not.toBe(p.sid);
    expect(readEditorSession(a, HASH_A, T0)).toEqual({ sid: p.sid, iat: T0 / 1000, exp: T0 / 1000 + EDITOR_COOKIE_MAX_AGE });
  });

  it('live 90 days: refused from the second the 90 days are over', () => {
    const value = newEditorSession(HASH_A, T0);
    expect(readEditorSession(value, HASH_A, T0 + 90 * DAY - 1000)).not.toBeNull();
    expect(readEditorSession(value, HASH_A, T0 + 90 * DAY)).toBeNull();
  });

  it('forged, altered, of another password or with the area closed: refused', () => {
    const value = newEditorSession(HASH_A, T0);
    const [body, mac] = value.split('.') as [string, string];
    const longer = Buffer.from(JSON.stringify({ ...payloadOf(value), exp: T0 / 1000 + 365 * 86400 })).toString('base64url');
    for (const forged of ['', 'forged', `${value}x`, `${longer}.${mac}`, `${body}.${mac.slice(0, -4)}AAAA`, HASH_A]) expect(readEditorSession(forged, HASH_A, T0), forged).toBeNull();
    expect(readEditorSession(value, HASH_B, T0)).toBeNull();
    // Issued in the future (beyond a minute of clock skew between instances).
    expect(readEditorSession(newEditorSession(HASH_A, T0 + 120_000), HASH_A, T0)).toBeNull();
    expect(readEditorSession(newEditorSession(HASH_A, T0 + 30_000), HASH_A, T0)).not.toBeNull();
    expect(readEditorSession(value, undefined, T0)).toBeNull();
    // A handoff token (another purpose) is no session, even if it were signed with the same key.
    expect(readEditorSession(signValue({ purpose: 'editor-handoff', sid: payloadOf(value).sid, iat: T0 / 1000 }, 'k', 60, T0), HASH_A, T0)).toBeNull();
  });

  it('a session re-signed (for another host) is the same session', () => {
    const value = newEditorSession(HASH_A, T0);
    const session = readEditorSession(value, HASH_A, T0)!;
    expect(editorSessionValue(HASH_A, session, T0 + DAY)).toBe(value);
  });
});

describe('revocation', () => {
  it('a revoked session is refused on every later request; other sessions are not affected', async () => {
    const state = memorySharedState();
    const mine = newEditorSession(HASH_A);
    const other = newEditorSession(HASH_A);
    const request = (v: string) => new Request('http://localhost/en/editor', { headers: { cookie: `a=1; ${EDITOR_COOKIE}=${v}; b=2` } });
    expect(await isEditorRequest(request(mine), HASH_A, state)).toBe(true);
    await revokeEditorSession(readEditorSession(mine, HASH_A)!, state);
    expect(await isEditorRequest(request(mine), HASH_A, state)).toBe(false);
    expect(await editorSession(mine, HASH_A, state)).toBeNull();
    expect(await isEditorRequest(request(other), HASH_A, state)).toBe(true);
    expect(await isEditorRequest(new Request('http://localhost/en/editor'), HASH_A, state)).toBe(false);
  });

  it('is kept exactly until the session would have expired (so the set of revocations stays bounded)', async () => {
    let now = T0;
    const state = memorySharedState(() => now);
    const value = newEditorSession(HASH_A, T0);
    await revokeEditorSession(readEditorSession(value, HASH_A, T0)!, state);
    now = T0 + 90 * DAY - 1000;
    expect(await state.has(`editor-session:revoked:${String(payloadOf(value).sid)}`)).toBe(true);
    now = T0 + 90 * DAY;
    expect(await state.has(`editor-session:revoked:${String(payloadOf(value).sid)}`)).toBe(false);
    expect(state.size()).toBe(0);
  });
});

describe('the editor cookie', () => {
  it('is HttpOnly, SameSite=Lax, 90 days, Secure outside localhost', () => {
    expect(editorCookieHeader('v', new URL('http://localhost:4321/'))).toBe(`${EDITOR_COOKIE}=v; Max-Age=7776000; Path=/; HttpOnly; SameSite=Lax`);
    expect(editorCookieHeader('v', new URL('https://komax.example/'))).toMatch(/; Secure$/);
    expect(editorCookieHeader('', new URL('https://komax.example/'), 0)).toMatch(/Max-Age=0;/);
  });
});
