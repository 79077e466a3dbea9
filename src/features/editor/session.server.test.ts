import { describe, expect, it } from 'vitest';
import { EDITOR_COOKIE, editorCookieHeader, editorSessionValue, isEditorRequest, isEditorSession } from './session.server.ts';

const HASH_A = 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5';
const HASH_B = HASH_A.replace('c2Fsd', 'd2Fsd');

describe('editor session', () => {
  it('accepts the value of the configured hash and nothing else', () => {
    const value = editorSessionValue(HASH_A);
    expect(value).not.toContain(HASH_A);
    expect(isEditorSession(value, HASH_A)).toBe(true);
    expect(isEditorSession(`${value}x`, HASH_A)).toBe(false);
    expect(isEditorSession('', HASH_A)).toBe(false);
    expect(isEditorSession(HASH_A, HASH_A)).toBe(false);
  });

  it('is invalid after the configured password (hash) changes, and when the area is closed', () => {
    const value = editorSessionValue(HASH_A);
    expect(isEditorSession(value, HASH_B)).toBe(false);
    expect(isEditorSession(value, undefined)).toBe(false);
  });

  it('reads the cookie of a request', () => {
    const value = editorSessionValue(HASH_A);
    const request = new Request('http://localhost/en/editor', { headers: { cookie: `a=1; ${EDITOR_COOKIE}=${value}; b=2` } });
    expect(isEditorRequest(request, HASH_A)).toBe(true);
    expect(isEditorRequest(new Request('http://localhost/en/editor'), HASH_A)).toBe(false);
  });

  it('sets an HttpOnly, SameSite=Lax cookie for 90 days, Secure outside localhost', () => {
    expect(editorCookieHeader('v', new URL('http://localhost:4321/'))).toBe(`${EDITOR_COOKIE}=v; Max-Age=7776000; Path=/; HttpOnly; SameSite=Lax`);
    expect(editorCookieHeader('v', new URL('https://komax.example/'))).toMatch(/; Secure$/);
    expect(editorCookieHeader('', new URL('https://komax.example/'), 0)).toMatch(/Max-Age=0;/);
  });
});
