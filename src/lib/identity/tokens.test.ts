import { describe, expect, it } from 'vitest';
import { parseStoredTokens, renewDelay, shouldReuse, tokenSetFromResponse } from './tokens.ts';

const now = 1_800_000_000_000;

describe('token set (spec §3)', () => {
  it('from a token answer: tokenExpiry = now + expires_in × 1000; a refresh token is not kept (issue 28)', () => {
    expect(tokenSetFromResponse({ access_token: 'a', id_token: 'i', refresh_token: 'r', expires_in: 120 }, now)).toEqual({ accessToken: 'a', idToken: 'i', tokenExpiry: now + 120_000 });
    expect(tokenSetFromResponse({ access_token: 'a', expires_in: '60' }, now)).toEqual({ accessToken: 'a', tokenExpiry: now + 60_000 });
  });

  it("without access token: 'Access token not found in response'", () => {
    for (const body of [{}, { access_token: '' }, null, 'x', { id_token: 'i' }]) expect(() => tokenSetFromResponse(body, now)).toThrow(/^Access token not found in response$/);
  });
});

describe('token reuse (spec §4 step 1)', () => {
  const tokens = (left: number) => ({ accessToken: 'a', tokenExpiry: now + left });
  it('reuses a stored token with more than 180 s left', () => {
    expect(shouldReuse(tokens(180_001), now)).toBe(true);
  });
  it('not within 180 s of expiry, nor expired', () => {
    expect(shouldReuse(tokens(180_000), now)).toBe(false);
    expect(shouldReuse(tokens(-1), now)).toBe(false);
  });
  it('not when force-renewed', () => {
    expect(shouldReuse(tokens(3_600_000), now, true)).toBe(false);
  });
  it('not when nothing is stored', () => {
    expect(shouldReuse(null, now)).toBe(false);
  });
});

describe('renewal while the page stays open', () => {
  it('180 s before expiry', () => expect(renewDelay(now + 3_600_000, now)).toBe(3_420_000));
  it('a token living shorter than that: 30 s before expiry (the OAuth threshold)', () => expect(renewDelay(now + 120_000, now)).toBe(90_000));
  it('at once when even that has passed', () => {
    expect(renewDelay(now + 10_000, now)).toBe(0);
    expect(renewDelay(now - 10_000, now)).toBe(0);
  });
});

describe('stored tokens', () => {
  it('nothing stored is null; a stored set is read back', () => {
    expect(parseStoredTokens(null, 'localStorage')).toBeNull();
    expect(parseStoredTokens(JSON.stringify({ accessToken: 'a', idToken: 'i', tokenExpiry: 5, extra: 1 }), 'localStorage')).toEqual({ accessToken: 'a', idToken: 'i', tokenExpiry: 5 });
  });
  it('a refresh token an older release stored is not read back', () => {
    expect(parseStoredTokens(JSON.stringify({ accessToken: 'a', refreshToken: 'r', tokenExpiry: 5 }), 'localStorage')).toEqual({ accessToken: 'a', tokenExpiry: 5 });
  });
  it("unreadable: 'Could not parse token object from localStorage' (or sessionStorage)", () => {
    expect(() => parseStoredTokens('{oops', 'localStorage')).toThrow(/^Could not parse token object from localStorage$/);
    expect(() => parseStoredTokens('{"accessToken":1}', 'sessionStorage')).toThrow(/^Could not parse token object from sessionStorage$/);
    expect(() => parseStoredTokens('null', 'localStorage')).toThrow('Could not parse token object from localStorage');
  });
});
