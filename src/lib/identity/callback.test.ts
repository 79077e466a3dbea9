import { describe, expect, it } from 'vitest';
import { missingParamsMessage, parseSavedSignIn, validateCallback, type SavedSignIn } from './callback.ts';

const saved: SavedSignIn = { state: 's1', verifier: 'v', redirectUri: 'http://localhost/en/callback', locale: 'de-ch' };
const q = (s: string) => new URLSearchParams(s);

describe('callback validation (spec §2, §5, §8)', () => {
  it('answers the code of a valid callback', () => {
    expect(validateCallback(q('code=c1&state=s1'), saved)).toEqual({ code: 'c1', saved });
  });
  it("'missing params' without code or state, with error and error_description when present", () => {
    expect(() => validateCallback(q(''), saved)).toThrow(/^missing params$/);
    expect(() => validateCallback(q('code=c1'), saved)).toThrow(/^missing params$/);
    expect(() => validateCallback(q('state=s1'), saved)).toThrow(/^missing params$/);
    expect(() => validateCallback(q('code=c1&state='), saved)).toThrow(/^missing params$/);
    expect(() => validateCallback(q('state=s1&error=access_denied&error_description=User+cancelled'), saved)).toThrow(/^missing params \(error: access_denied, error_description: User cancelled\)$/);
    expect(missingParamsMessage(q('error=login_required'))).toBe('missing params (error: login_required)');
  });
  it("'State mismatch' when the state is not the saved one, or nothing was saved", () => {
    expect(() => validateCallback(q('code=c1&state=forged'), saved)).toThrow(/^State mismatch$/);
    expect(() => validateCallback(q('code=c1&state=s1'), null)).toThrow(/^State mismatch$/);
    expect(() => validateCallback(q('code=c1&state=s1&state=s1'), saved)).toThrow(/^State mismatch$/);
  });
  it("'Failed to acquire authorization code' for an empty or repeated code", () => {
    expect(() => validateCallback(q('code=&state=s1'), saved)).toThrow(/^Failed to acquire authorization code$/);
    expect(() => validateCallback(q('code=a&code=b&state=s1'), saved)).toThrow(/^Failed to acquire authorization code$/);
  });
  it('reads saved parameters back; anything malformed, or a locale that is not a locale, is null', () => {
    expect(parseSavedSignIn(JSON.stringify(saved))).toEqual(saved);
    for (const raw of [null, '', '{', '{"state":"s"}', JSON.stringify({ ...saved, locale: '/evil.example' }), JSON.stringify({ ...saved, locale: 'EN' })]) expect(parseSavedSignIn(raw)).toBeNull();
  });
  it('keeps a same-origin return path and drops anything that could leave the site', () => {
    expect(parseSavedSignIn(JSON.stringify({ ...saved, returnTo: '/en/service-bulletins' }))).toEqual({ ...saved, returnTo: '/en/service-bulletins' });
    for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/en/x?y=1', 'javascript:alert(1)', 42]) {
      expect(parseSavedSignIn(JSON.stringify({ ...saved, returnTo }))).toEqual(saved);
    }
  });
});
