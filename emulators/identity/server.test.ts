// The identity emulator as a client sees it: discovery, code + PKCE through the real login form,
// RFC 9068 access tokens (no refresh tokens), userinfo, introspection, revocation, end session, registration.
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoIdentity, type DemoIdentity } from '../testing.ts';
import { CookieJar, absolute, authorizationUrl, get, openLoginForm, postLogin, signIn } from './login-flow.ts';

const APP = 'http://localhost:4321';
/** Another site's host: its visitors sign in on the app's host and return to it at logout. */
const EVENTS = 'http://events.localhost:4321';
let id: DemoIdentity;

beforeAll(async () => {
  id = await startDemoIdentity({ appOrigin: APP, signOutOrigins: [EVENTS] });
});
afterAll(async () => {
  await id.close();
});

const userinfo = (token: string, headers: Record<string, string> = {}) => fetch(`${id.issuer}/userinfo`, { headers: { authorization: `Bearer ${token}`, ...headers } });
const form = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body) });
const refresh = (token: string) => form(`${id.issuer}/access_token`, { grant_type: 'refresh_token', refresh_token: token, client_id: 'kmx-web' });
const basic = (clientId: string, secret: string) => `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
/** RFC 7662 with the introspection client (HTTP Basic), as our server asks. */
const introspect = async (token: string, auth = basic(id.introspection.clientId, id.introspection.clientSecret)) =>
  form(`${id.issuer}/introspect`, { token, token_type_hint: 'access_token' }, { authorization: auth });
const active = async (token: string) => ((await (await introspect(token)).json()) as { active: boolean }).active;

describe('discovery', () => {
  it('serves the AIC realm alpha configuration with AM endpoint names', async () => {
    const res = await fetch(`${id.issuer}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const config = await res.json();
    expect(id.issuer).toMatch(/^http:\/\/localhost:\d+\/am\/oauth2\/realms\/root\/realms\/alpha$/);
    expect(config).toMatchObject({
      issuer: id.issuer,
      authorization_endpoint: `${id.issuer}/authorize`,
      token_endpoint: `${id.issuer}/access_token`,
      userinfo_endpoint: `${id.issuer}/userinfo`,
      revocation_endpoint: `${id.issuer}/token/revoke`,
      end_session_endpoint: `${id.issuer}/connect/endSession`,
      jwks_uri: `${id.issuer}/connect/jwk_uri`,
      introspection_endpoint: `${id.issuer}/introspect`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(config.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'fr:idm:*']));
    expect(config.claims_supported).toContain('roles');
  });
});

describe('sign-in', () => {
  it('code + PKCE through the login form gives a JWT access token for audience kmx-web, verified against the JWKS', async () => {
    const tokens = await id.signIn('customer@demo.komax.test');
    expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'fr:idm:*', 'openid', 'profile']);
    // The browser renews in the hidden frame: no refresh token is issued to it.
    expect(tokens.refresh_token).toBeUndefined();
    const jwks = createRemoteJWKSet(new URL(`${id.issuer}/connect/jwk_uri`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, { issuer: id.issuer, audience: 'kmx-web' });
    expect(protectedHeader.alg).toBe('RS256');
    // RFC 9068: the access token says what it is; the ID token (same key, same audience) does not.
    expect(protectedHeader.typ).toBe('at+jwt');
    expect(payload).toMatchObject({ sub: '7f3c2a10-5b1e-4c6a-9d2e-1a0000000001', client_id: 'kmx-web', scope: 'openid profile email fr:idm:*' });
    expect(payload.jti).toBeTruthy();
    expect(payload.exp! - payload.iat!).toBe(3600);
    // The ID token carries the profile claims too.
    const idToken = await jwtVerify(tokens.id_token!, jwks, { issuer: id.issuer, audience: 'kmx-web' });
    expect(idToken.protectedHeader.typ).not.toBe('at+jwt');
    expect(idToken.payload).toMatchObject({ given_name: 'Claire', family_name: 'Customer', email: 'customer@demo.komax.test' });
  });

  it('userinfo accepts the access token and carries the roles', async () => {
    const tokens = await id.signIn('onprem@demo.komax.test');
    const res = await userinfo(tokens.access_token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      sub: '7f3c2a10-5b1e-4c6a-9d2e-1a0000000002',
      name: 'Otto Onprem',
      given_name: 'Otto',
      family_name: 'Onprem',
      preferred_username: 'onprem@demo.komax.test',
      email: 'onprem@demo.komax.test',
      email_verified: true,
      roles: ['kmx_int_artemis_active', 'kmx_artemis_onpremuser', 'kmx_int_direct_pending', 'kmx_int_lmsefront_invited'],
    });
  });

  it('userinfo answers CORS for the app origin only', async () => {
    const tokens = await id.signIn('noroles@demo.komax.test');
    expect((await userinfo(tokens.access_token, { origin: APP })).headers.get('access-control-allow-origin')).toBe(APP);
    expect((await userinfo(tokens.access_token, { origin: 'http://evil.test' })).headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${id.issuer}/userinfo`, { method: 'OPTIONS', headers: { origin: APP, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('userinfo refuses a missing, forged or foreign token', async () => {
    expect((await fetch(`${id.issuer}/userinfo`)).status).toBe(401);
    expect((await userinfo('not-a-token')).status).toBe(401);
    const tokens = await id.signIn('noroles@demo.komax.test');
    const [h, p] = tokens.access_token.split('.');
    const other = await id.signIn('admin@demo.komax.test');
    expect((await userinfo(`${h}.${p}.${other.access_token.split('.')[2]}`)).status).toBe(401);
  });

  it('a wrong password shows the form again with the error, linked to the fields', async () => {
    const jar = new CookieJar();
    const { formUrl } = await openLoginForm({ issuer: id.issuer, redirectUri: `${APP}/en/callback`, username: '', password: '' }, jar);
    const page = await get(formUrl, jar);
    const html = await page.text();
    expect(html).toContain('<label for="username">E-mail address</label>');
    expect(html).toContain('autocomplete="current-password"');
    const res = await postLogin(formUrl, 'customer@demo.komax.test', 'Wrong-Password-1', jar);
    expect(res.status).toBe(401);
    const again = await res.text();
    expect(again).toContain('<p id="login-error" class="alert" role="alert">Incorrect e-mail address or password.</p>');
    expect(again).toMatch(/id="username"[^>]*aria-invalid="true" aria-describedby="login-error"[^>]*autofocus/);
    expect(again).toContain('value="customer@demo.komax.test"');
    // The same interaction still signs in with the right password.
    expect((await postLogin(formUrl, 'customer@demo.komax.test', id.password, jar)).status).toBe(303);
  });

  it('the login page follows ui_locales (de), other languages fall back to English', async () => {
    const html = async (uiLocales: string) => {
      const jar = new CookieJar();
      const { formUrl } = await openLoginForm({ issuer: id.issuer, redirectUri: `${APP}/de/callback`, username: '', password: '', uiLocales }, jar);
      return (await get(formUrl, jar)).text();
    };
    const de = await html('de-CH de');
    expect(de).toContain('<html lang="de">');
    expect(de).toContain('Bei myKomax anmelden');
    // The registration link returns to the customer area of the app's language.
    expect(de).toContain(`goto=${encodeURIComponent(`${APP}/de/mykomax`)}`);
    const ja = await html('ja');
    expect(ja).toContain('<html lang="en">');
    expect(ja).toContain('Sign in to myKomax');
  });
});

describe('refusals', () => {
  const start = async (opts: { pkce?: 'S256' | 'plain' | 'none'; redirectUri?: string }) => {
    const { url } = authorizationUrl({ issuer: id.issuer, redirectUri: opts.redirectUri ?? `${APP}/en/callback`, username: '', password: '', pkce: opts.pkce });
    return get(url, new CookieJar());
  };

  it('refuses an authorization request without PKCE', async () => {
    const res = await start({ pkce: 'none' });
    expect(res.status).toBe(303);
    const back = new URL(absolute(res.headers.get('location'), id.issuer));
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('refuses plain PKCE', async () => {
    const res = await start({ pkce: 'plain' });
    const back = new URL(absolute(res.headers.get('location'), id.issuer));
    expect(back.searchParams.get('error')).toBe('invalid_request');
  });

  it('refuses an unregistered redirect URI with an error page (no redirect)', async () => {
    for (const redirectUri of ['http://localhost:4321/en/other', 'http://evil.test/en/callback', 'http://localhost:9999/en/callback']) {
      const res = await start({ redirectUri });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('redirect_uri');
    }
  });

  it('accepts every interface language callback and the silent-renew page', async () => {
    for (const path of ['/zh/callback', '/de/callback', '/blank-callback']) {
      expect((await start({ redirectUri: `${APP}${path}` })).status).toBe(303);
    }
  });
});

describe('tokens', () => {
  it('the browser\'s client may not use the refresh_token grant', async () => {
    const res = await refresh('any-refresh-token');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_request', error_description: 'requested grant type is not allowed for this client' });
  });

  it('revocation answers {} as JSON; the access token then gets 401 at userinfo and is inactive at introspection', async () => {
    const tokens = await id.signIn('admin@demo.komax.test');
    expect((await userinfo(tokens.access_token)).status).toBe(200);
    const res = await form(`${id.issuer}/token/revoke`, { token: tokens.access_token, token_type_hint: 'access_token', client_id: 'kmx-web' }, { origin: APP });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(await res.json()).toEqual({});
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    // Introspection (our server's check) says so too; another token of the same grant stays active.
    expect(await active(tokens.access_token)).toBe(false);
  });

  it('revocation needs the client id', async () => {
    const tokens = await id.signIn('admin@demo.komax.test');
    expect((await form(`${id.issuer}/token/revoke`, { token: tokens.access_token })).status).toBe(401);
    expect((await userinfo(tokens.access_token)).status).toBe(200);
  });

  it('end session without a confirmation page: back to the app, the access token gets 401, the session is gone', async () => {
    const tokens = await id.signIn('customer@demo.komax.test');
    const { jar } = tokens as typeof tokens & { jar: CookieJar };
    expect((await userinfo(tokens.access_token)).status).toBe(200);
    const params = new URLSearchParams({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: `${APP}/`, state: 'bye' });
    const page = await get(`${id.issuer}/connect/endSession?${params}`, jar);
    expect(page.status).toBe(200);
    const html = await page.text();
    // The logout form submits itself with logout=yes.
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    expect(html).toContain('name="logout" value="yes"');
    expect(html).toContain(".submit()");
    const confirm = await fetch(action!, { method: 'POST', redirect: 'manual', headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }) });
    jar.store(confirm);
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(`${APP}/?state=bye`);
    expect((await userinfo(tokens.access_token)).status).toBe(401);
    expect(await active(tokens.access_token)).toBe(false);
    // A silent authorization (prompt=none) now answers login_required.
    const { url } = authorizationUrl({ issuer: id.issuer, redirectUri: `${APP}/blank-callback`, username: '', password: '' });
    const silent = await get(`${url}&prompt=none`, jar);
    expect(new URL(silent.headers.get('location')!).searchParams.get('error')).toBe('login_required');
  });

  it('end session may return to the root of another site\'s registered host, never to an unregistered address', async () => {
    const end = async (postLogout: string) => {
      const tokens = await id.signIn('customer@demo.komax.test');
      const { jar } = tokens as typeof tokens & { jar: CookieJar };
      const page = await get(`${id.issuer}/connect/endSession?${new URLSearchParams({ id_token_hint: tokens.id_token!, post_logout_redirect_uri: postLogout })}`, jar);
      return { page, jar };
    };
    const { page, jar } = await end(`${EVENTS}/`);
    const html = await page.text();
    const action = /<form id="op.logoutForm" method="post" action="([^"]+)"/.exec(html)?.[1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
    const confirm = await fetch(action!, { method: 'POST', redirect: 'manual', headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }) });
    expect(confirm.headers.get('location')).toBe(`${EVENTS}/`);
    for (const foreign of ['https://evil.example/', `${EVENTS}/en/agenda`, 'http://partner.localhost:4321/']) {
      const refused = await end(foreign);
      expect(refused.page.status, foreign).toBe(400);
      expect(await refused.page.text(), foreign).toContain('post_logout_redirect_uri not registered');
    }
  });

  it('a silent authorization (prompt=none) signs in again while the session lasts', async () => {
    const { jar } = await signIn({ issuer: id.issuer, redirectUri: `${APP}/en/callback`, username: 'noroles@demo.komax.test', password: id.password });
    const { url } = authorizationUrl({ issuer: id.issuer, redirectUri: `${APP}/blank-callback`, username: '', password: '' });
    let res = await get(`${url}&prompt=none`, jar);
    while (res.status === 303 && !res.headers.get('location')!.startsWith(APP)) res = await get(absolute(res.headers.get('location'), url), jar);
    expect(new URL(res.headers.get('location')!).searchParams.get('code')).toBeTruthy();
  });

  it('the AM REST logout stub answers AM\'s JSON', async () => {
    const res = await fetch(`${id.origin}/am/json/realms/root/realms/alpha/sessions?_action=logout`, { method: 'POST', headers: { origin: APP } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP);
    expect(await res.json()).toEqual({ result: 'Successfully logged out' });
  });
});

describe('introspection (RFC 7662) for our server', () => {
  it('answers an active access token with its subject, client, scope and expiry', async () => {
    const tokens = await id.signIn('customer@demo.komax.test');
    const res = await introspect(tokens.access_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const claims = decodeJwt(tokens.access_token);
    expect(await res.json()).toEqual({
      active: true, sub: claims.sub, client_id: 'kmx-web', scope: 'openid profile email fr:idm:*', aud: 'kmx-web', iss: id.issuer,
      exp: claims.exp, iat: claims.iat, jti: claims.jti, token_type: 'Bearer',
    });
  });

  it('an ID token, a forged or an unknown token is not active', async () => {
    const tokens = await id.signIn('noroles@demo.komax.test');
    expect(await active(tokens.id_token!)).toBe(false);
    const [h, p] = tokens.access_token.split('.');
    expect(await active(`${h}.${p}.${tokens.id_token!.split('.')[2]}`)).toBe(false);
    expect(await active('opaque-token')).toBe(false);
  });

  it('takes the client in the form body too (client_secret_post)', async () => {
    const tokens = await id.signIn('noroles@demo.komax.test');
    const res = await form(`${id.issuer}/introspect`, { token: tokens.access_token, client_id: id.introspection.clientId, client_secret: id.introspection.clientSecret });
    expect(await res.json()).toMatchObject({ active: true });
  });

  it('refuses a request without our client, with a wrong secret, from the browser\'s public client, or by GET', async () => {
    const tokens = await id.signIn('noroles@demo.komax.test');
    for (const auth of ['', basic('kmx-api', 'wrong-secret-0123456789'), basic('kmx-web', id.introspection.clientSecret)]) {
      const res = await introspect(tokens.access_token, auth);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: 'invalid_client' });
    }
    expect((await form(`${id.issuer}/introspect`, { token: tokens.access_token, client_id: 'kmx-web' })).status).toBe(401);
    expect((await fetch(`${id.issuer}/introspect?token=${tokens.access_token}`, { headers: { authorization: basic(id.introspection.clientId, id.introspection.clientSecret) } })).status).toBe(405);
    expect((await introspect('')).status).toBe(400);
  });
});

describe('registration', () => {
  const registration = (goto: string, extra = '') => `${id.origin}/am/XUI/?realm=alpha&authIndexType=service&authIndexValue=Registration&goto=${encodeURIComponent(goto)}${extra}`;
  const open = async (url: string) => {
    const jar = new CookieJar();
    const res = await get(url, jar);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await res.text())?.[1] ?? '';
    return { jar, csrf };
  };
  const submit = async (url: string, body: Record<string, string>) => {
    const { jar, csrf } = await open(url);
    return form(url, { csrf, ...body }, { cookie: jar.header() });
  };

  it('shows the policy messages, then creates a user without roles and returns to the app', async () => {
    const url = registration(`${APP}/en/mykomax`);
    const bad = await submit(url, { givenName: 'Rita', sn: '', mail: 'customer@demo.komax.test', password: 'short' });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain('This field is required.');
    expect(html).toContain('An account with this e-mail address already exists.');
    expect(html).toContain('Use at least 10 characters.');
    expect(html).toMatch(/id="password"[^>]*aria-describedby="password-hint password-error"[^>]*aria-invalid="true"/);

    const ok = await submit(url, { givenName: 'Rita', sn: 'Register', mail: 'rita@example.com', password: 'Wire-Harness-77' });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`${APP}/en/mykomax`);
    const tokens = await id.signIn('rita@example.com', { password: 'Wire-Harness-77' });
    expect(await (await userinfo(tokens.access_token)).json()).toMatchObject({ given_name: 'Rita', family_name: 'Register', roles: [] });
  });

  it('never redirects to a foreign goto (no open redirect)', async () => {
    const res = await submit(registration('http://evil.test/steal'), { givenName: 'Otto', sn: 'Other', mail: 'otto.other@example.com', password: 'Wire-Harness-77' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('Your account was created.');
  });

  it('refuses a post without the form token', async () => {
    const res = await form(registration(`${APP}/en/mykomax`), { givenName: 'Mallory', sn: 'Forged', mail: 'mallory@example.com', password: 'Wire-Harness-77' });
    expect(res.status).toBe(403);
    await expect(id.signIn('mallory@example.com', { password: 'Wire-Harness-77' })).rejects.toThrow(/login answered 401/);
  });

  it('speaks German with locale=de', async () => {
    const res = await fetch(registration(`${APP}/de/mykomax`, '&locale=de'));
    expect(await res.text()).toContain('Ihr Komax-Konto erstellen');
  });
});
