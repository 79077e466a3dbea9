import { describe, expect, it, vi } from 'vitest';
import { authorizeUrl, exchangeCode, fetchUserInfo, identityEndpoints } from './protocol.ts';
import { AM_SESSIONS_PATH, ISSUER_PATH } from '../../../emulators/identity/server.ts';

const endpoint = 'http://idp.test/am/oauth2/realms/root/realms/alpha/access_token';
const params = { clientId: 'kmx-web', code: 'c1', redirectUri: 'http://app.test/en/callback', verifier: 'v1' };
const answer = (status: number, body: unknown) => vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));

describe('authorize URL (spec §7)', () => {
  it('carries client_id, redirect_uri, response_type code, scope, state, the S256 challenge and the prompt', () => {
    const url = new URL(authorizeUrl('http://idp.test/authorize', { clientId: 'kmx-web', redirectUri: 'http://app.test/blank-callback', state: 's', challenge: 'ch', prompt: 'none' }));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'kmx-web', redirect_uri: 'http://app.test/blank-callback', response_type: 'code', scope: 'openid profile email fr:idm:*',
      state: 's', code_challenge: 'ch', code_challenge_method: 'S256', prompt: 'none',
    });
    expect(new URL(authorizeUrl('http://idp.test/authorize', { clientId: 'k', redirectUri: 'r', state: 's', challenge: 'c' })).searchParams.has('prompt')).toBe(false);
  });
});

describe('code exchange (spec §7, §8)', () => {
  it('posts the form of the spec and answers the token set (without the refresh token of the answer)', async () => {
    const fetch = answer(200, { access_token: 'at', id_token: 'it', refresh_token: 'rt', expires_in: 3600 });
    expect(await exchangeCode(endpoint, params, { fetch, now: () => 1000 })).toEqual({ accessToken: 'at', idToken: 'it', tokenExpiry: 3_601_000 });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(endpoint);
    expect(init.method).toBe('POST');
    expect(Object.fromEntries(init.body as URLSearchParams)).toEqual({ client_id: 'kmx-web', code: 'c1', grant_type: 'authorization_code', redirect_uri: 'http://app.test/en/callback', code_verifier: 'v1' });
  });
  it("'Expected 200, received {status}' for any other status", async () => {
    await expect(exchangeCode(endpoint, params, { fetch: answer(400, { error: 'invalid_grant' }) })).rejects.toThrow(/^Expected 200, received 400$/);
    await expect(exchangeCode(endpoint, params, { fetch: answer(201, { access_token: 'a' }) })).rejects.toThrow(/^Expected 200, received 201$/);
  });
  it("'Unable to exchange authorization for tokens' when no answer came (or it was not JSON)", async () => {
    const down = vi.fn(async () => { throw new TypeError('Failed to fetch'); });
    await expect(exchangeCode(endpoint, params, { fetch: down })).rejects.toThrow(/^Unable to exchange authorization for tokens$/);
    const html = vi.fn(async () => new Response('<html>', { status: 200 }));
    await expect(exchangeCode(endpoint, params, { fetch: html })).rejects.toThrow(/^Unable to exchange authorization for tokens$/);
  });
  it("'Access token not found in response'", async () => {
    await expect(exchangeCode(endpoint, params, { fetch: answer(200, { id_token: 'x' }) })).rejects.toThrow(/^Access token not found in response$/);
  });
});

describe('user info (spec §7)', () => {
  it('sends the bearer token and answers the claims', async () => {
    const fetch = answer(200, { sub: 'u1' });
    expect(await fetchUserInfo('http://idp.test/userinfo', 'at', { fetch })).toEqual({ sub: 'u1' });
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(new Headers(init.headers).get('Authorization')).toBe('Bearer at');
  });
  it("'Failed to get user info; received {status}'", async () => {
    await expect(fetchUserInfo('http://idp.test/userinfo', 'at', { fetch: answer(401, {}) })).rejects.toThrow(/^Failed to get user info; received 401$/);
  });
});

describe('the sign-in service\'s paths from its discovery document (spec §7)', () => {
  const doc = (issuer: string) => ({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/access_token`,
    userinfo_endpoint: `${issuer}/userinfo`,
    end_session_endpoint: `${issuer}/connect/endSession`,
    revocation_endpoint: `${issuer}/token/revoke`,
  });

  it('takes the OAuth 2.0 paths from the document and derives authenticate and sessions from the realm of the issuer', () => {
    expect(identityEndpoints(doc('https://idp.example/am/oauth2/realms/root/realms/alpha'))).toEqual({
      authenticate: 'https://idp.example/am/json/realms/root/realms/alpha/authenticate',
      authorize: 'https://idp.example/am/oauth2/realms/root/realms/alpha/authorize',
      accessToken: 'https://idp.example/am/oauth2/realms/root/realms/alpha/access_token',
      endSession: 'https://idp.example/am/oauth2/realms/root/realms/alpha/connect/endSession',
      userinfo: 'https://idp.example/am/oauth2/realms/root/realms/alpha/userinfo',
      revoke: 'https://idp.example/am/oauth2/realms/root/realms/alpha/token/revoke',
      sessions: 'https://idp.example/am/json/realms/root/realms/alpha/sessions',
    });
  });

  it('puts the root realm\'s paths under json/realms/root/ (the default realm paths)', () => {
    const root = identityEndpoints(doc('https://idp.example/am/oauth2'));
    expect(root.authenticate).toBe('https://idp.example/am/json/realms/root/authenticate');
    expect(root.sessions).toBe('https://idp.example/am/json/realms/root/sessions');
    expect(identityEndpoints(doc('https://idp.example/am/oauth2/realms/root/')).sessions).toBe('https://idp.example/am/json/realms/root/sessions');
  });

  it('matches the local identity provider\'s sessions path', () => {
    expect(new URL(identityEndpoints(doc(`http://localhost:4119${ISSUER_PATH}`)).sessions).pathname).toBe(AM_SESSIONS_PATH);
  });

  it('refuses an issuer that is no realm of the provider', () => {
    expect(() => identityEndpoints(doc('https://login.example/tenant'))).toThrow('The issuer https://login.example/tenant is no realm of the identity provider');
  });
});
