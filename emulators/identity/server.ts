// The identity emulator: oidc-provider posing as the Ping AIC / ForgeRock AM realm "alpha" (issuer
// path, AM endpoint names, public client kmx-web with PKCE S256 and no refresh tokens, RFC 9068 JWT
// access tokens (typ at+jwt) for audience kmx-web, roles in userinfo, token introspection for the
// confidential client kmx-api), its own login and registration pages, and identity management REST
// (/openidm, see idm.ts). Recipe and pitfalls: ../../../shared/notes/identity.md (kept in the team's notes).
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { jwtVerify, decodeProtectedHeader, type JWTPayload } from 'jose';
import Provider, { type ProviderContext, type TokenModel } from 'oidc-provider';
import * as v from 'valibot';
import { fingerprintOf, IdempotencyKeys, idempotencyKeyOf } from '../shared/idempotency.ts';
import { MemoryStore, memoryAdapter } from './adapter.ts';
import { BodyTooLarge, bearerToken, cookie, cors, readForm, redirect, sendHtml, sendJson } from './http.ts';
import { IDM_SCOPE, handleIdm } from './idm.ts';
import { fieldRequirements, passwordRequirements, type FailedPolicyRequirement } from './policy.ts';
import { loginPage, messagePage, page, pageLanguage, registerPage, strings, type PageLanguage } from './pages.ts';
import { UserStore, verifyPassword, type IdentityUser } from './store.ts';
import { DEMO_USERS_FILE } from './demo.ts';
import { UI_LANGUAGES } from '../../src/site/locale.ts';

/** The realm's issuer path (Ping AIC / AM realm alpha). */
export const ISSUER_PATH = '/am/oauth2/realms/root/realms/alpha';
export const REGISTRATION_PATH = '/am/XUI/';
export const AM_SESSIONS_PATH = '/am/json/realms/root/realms/alpha/sessions';
export const CLIENT_ID = 'kmx-web';
export const AUDIENCE = 'kmx-web';
export const SCOPE = 'openid profile email fr:idm:*';
/** The confidential client our server introspects access tokens with (RFC 7662, HTTP Basic). */
export const INTROSPECTION_CLIENT_ID = 'kmx-api';
/** Its secret in local runs and tests (never a real provider's: production configures its own). */
export const LOCAL_INTROSPECTION_SECRET = 'local-introspection-secret-change-me';
/** The interface languages: one callback URI each. */
export const CALLBACK_LANGUAGES = UI_LANGUAGES;
/** The resource indicator every access token is issued for (its audience is AUDIENCE). */
const RESOURCE = 'urn:komax:kmx-web';
const DEFAULT_SEED = DEMO_USERS_FILE;

export interface IdentityOptions {
  /** Port on 127.0.0.1; 0 picks a free one. */
  port: number;
  /** The app origins allowed to sign in (redirect URIs, CORS, registration goto), e.g. http://localhost:4321. */
  appOrigins: string[];
  /**
   * Further origins the logout may return to (their root is a registered post-logout redirect
   * URI, as the "Sign-out URLs" of the tenant's client): the other sites' hosts, whose visitors
   * sign in on the main site and return to their own site at logout.
   */
  signOutOrigins?: string[];
  /** Where users.sqlite and keys.json live (created when missing). */
  dataDir: string;
  /** The seed of an empty store; emulators/data/identity/users.json by default. */
  seedFile?: string;
  /** Access token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
  /** The secret of the introspection client kmx-api (default LOCAL_INTROSPECTION_SECRET). */
  introspectionSecret?: string;
  quiet?: boolean;
}

export interface RunningIdentity {
  server: Server;
  /** http://localhost:<port> */
  origin: string;
  issuer: string;
  managementUrl: string;
  /** The registration page for a return address (an app URL). */
  registrationUrl(goto: string): string;
  /** The credentials of the introspection client (for our server's IDENTITY_INTROSPECTION_CLIENT_*). */
  introspection: { clientId: string; clientSecret: string };
  store: UserStore;
  close(): Promise<void>;
}

/** The redirect URIs of the client for one app origin (contract: one callback per interface language, and the silent-renew page). */
export function redirectUris(origin: string): string[] {
  return [...CALLBACK_LANGUAGES.map((lang) => `${origin}/${lang}/callback`), `${origin}/blank-callback`];
}

interface Keys {
  jwk: Record<string, unknown>;
  cookieKeys: string[];
}

/** The signing key and cookie keys, generated once into the data folder (git-ignored). */
function loadKeys(dataDir: string): Keys {
  const file = join(dataDir, 'keys.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Keys;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys: Keys = {
    jwk: { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}

/** The claims of a user by scope (userinfo and ID token). */
function claimsOf(user: IdentityUser, scopes: Set<string>): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: user._id };
  if (scopes.has('profile')) {
    Object.assign(claims, {
      name: `${user.givenName} ${user.sn}`.trim(), given_name: user.givenName, family_name: user.sn, preferred_username: user.userName, roles: user.roles,
    });
  }
  if (scopes.has('email')) Object.assign(claims, { email: user.mail, email_verified: true });
  return claims;
}

const LoginForm = v.object({ username: v.optional(v.string(), ''), password: v.optional(v.string(), '') });
const RegisterForm = v.object({
  givenName: v.optional(v.string(), ''), sn: v.optional(v.string(), ''), mail: v.optional(v.string(), ''), password: v.optional(v.string(), ''), csrf: v.optional(v.string(), ''),
  idempotencyKey: v.optional(v.string(), ''),
});

/** Starts the identity emulator; resolves once it listens on 127.0.0.1. */
export async function startIdentity(opts: IdentityOptions): Promise<RunningIdentity> {
  const quiet = !!opts.quiet;
  const appOrigins = opts.appOrigins.map((o) => new URL(o).origin);
  const signOutOrigins = [...new Set([...appOrigins, ...(opts.signOutOrigins ?? []).map((o) => new URL(o).origin)])];
  const ttl = opts.accessTokenTtl ?? 3600;
  const store = new UserStore(opts.dataDir);
  const registrationKeys = new IdempotencyKeys(store.db);
  await store.seed(opts.seedFile ?? DEFAULT_SEED);
  const keys = loadKeys(opts.dataDir);
  const publicKey: KeyObject = createPublicKey({ key: keys.jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  const memory = new MemoryStore();
  const Adapter = memoryAdapter(memory);

  /** Access tokens are JWTs the provider does not store: what the emulator knows about each (for userinfo and IDM). */
  const issued = new Map<string, { grantId?: string; accountId?: string; exp: number }>();
  const revoked = new Map<string, number>();
  const forget = () => {
    const now = Math.floor(Date.now() / 1000);
    for (const [jti, info] of issued) if (info.exp < now) issued.delete(jti);
    for (const [jti, exp] of revoked) if (exp < now) revoked.delete(jti);
  };

  let origin = '';
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      if (!quiet) console.error('[identity]', err);
      if (!res.headersSent) sendJson(res, err instanceof BodyTooLarge ? 413 : 500, { error: 'server_error' });
      else res.end();
    });
  };
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://localhost:${port}`;
  const issuer = `${origin}${ISSUER_PATH}`;
  const registrationUrl = (goto: string, lang?: PageLanguage) =>
    `${origin}${REGISTRATION_PATH}?realm=alpha&authIndexType=service&authIndexValue=Registration&goto=${encodeURIComponent(goto)}${lang ? `&locale=${lang}` : ''}`;

  /**
   * The caller of a valid, unrevoked access token whose grant and account still exist. Only
   * access tokens (typ at+jwt): an ID token, signed with the same key for the same audience, is none.
   */
  const authenticate = async (token: string): Promise<{ sub: string; scope: string[]; user: IdentityUser; payload: JWTPayload } | null> => {
    try {
      if (decodeProtectedHeader(token).alg !== 'RS256') return null;
      const { payload } = await jwtVerify(token, publicKey, { issuer, audience: AUDIENCE, algorithms: ['RS256'], typ: 'at+jwt' });
      if (typeof payload.jti !== 'string' || typeof payload.sub !== 'string' || revoked.has(payload.jti)) return null;
      const info = issued.get(payload.jti);
      if (!info?.grantId || !(await provider.Grant.find(info.grantId))) return null;
      const user = store.get(payload.sub);
      if (!user) return null;
      return { sub: payload.sub, scope: typeof payload.scope === 'string' ? payload.scope.split(' ') : [], user, payload };
    } catch {
      return null;
    }
  };

  const endGrant = async (grantId: string) => {
    await new Adapter('Grant').destroy(grantId);
    await new Adapter('AccessToken').revokeByGrantId(grantId);
  };
  const endAccount = async (accountId: string) => {
    for (const grantId of memory.idsWhere('Grant', (p) => p.accountId === accountId)) await endGrant(grantId);
    for (const id of memory.idsWhere('Session', (p) => p.accountId === accountId)) await new Adapter('Session').destroy(id);
  };

  const provider: Provider = new Provider(issuer, {
    adapter: Adapter,
    clients: [{
      client_id: CLIENT_ID,
      token_endpoint_auth_method: 'none',
      application_type: 'web',
      // No refresh_token grant: the browser renews in the hidden frame, so no refresh token is issued (docs/operations.md).
      grant_types: ['authorization_code'],
      response_types: ['code', 'none'],
      redirect_uris: appOrigins.flatMap(redirectUris),
      post_logout_redirect_uris: signOutOrigins.map((o) => `${o}/`),
      scope: SCOPE,
    }],
    responseTypes: ['code', 'none'],
    scopes: ['openid', 'offline_access', IDM_SCOPE],
    claims: { openid: ['sub'], profile: ['name', 'given_name', 'family_name', 'preferred_username', 'roles'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: false,
    findAccount: async (_ctx: unknown, sub: string) => {
      const user = store.get(sub);
      return user && { accountId: sub, claims: (_use: string, scope: string) => claimsOf(user, new Set(scope.split(' '))) };
    },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      introspection: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // No "Do you want to sign out?" page (as AIC): the form submits itself with logout=yes, which ends the session too.
        logoutSource: async (ctx: ProviderContext, form: string) => {
          const lang = pageLanguage(ctx.oidc.params?.ui_locales as string | undefined);
          const t = strings(lang);
          const auto = form.replace('</form>', `<input type="hidden" name="logout" value="yes"><noscript><button type="submit">${t.continue}</button></noscript></form>`);
          ctx.type = 'html';
          ctx.body = page(lang, t.signingOut, `<h1>${t.signingOut}</h1>${auto}<script>document.getElementById('op.logoutForm').submit()</script>`);
        },
        postLogoutSuccessSource: async (ctx: ProviderContext) => {
          const lang = pageLanguage(ctx.oidc.params?.ui_locales as string | undefined);
          ctx.type = 'html';
          ctx.body = messagePage(lang, strings(lang).signedOutTitle, strings(lang).signedOut);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => {
          if (resource !== RESOURCE) throw new Error(`unknown resource ${resource}`);
          return { scope: SCOPE, audience: AUDIENCE, accessTokenFormat: 'jwt', accessTokenTTL: ttl };
        },
      },
    },
    // As AIC: refresh tokens without offline_access for clients allowed the refresh_token grant (kmx-web is not).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    // Implied consent (AIC's per-client switch): the grant gets the requested scopes.
    loadExistingGrant: async (ctx: ProviderContext) => {
      const { oidc } = ctx;
      const clientId = oidc.client!.clientId;
      const grantId = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(clientId);
      const grant = (grantId && await oidc.provider.Grant.find(grantId)) || new oidc.provider.Grant({ clientId, accountId: oidc.session!.accountId! });
      grant.addOIDCScope([...oidc.requestParamOIDCScopes].join(' '));
      for (const [indicator, resourceServer] of Object.entries(oidc.resourceServers)) grant.addResourceScope(indicator, resourceServer.scope);
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${ISSUER_PATH}/interaction/${interaction.uid}` },
    cookies: { keys: keys.cookieKeys },
    jwks: { keys: [keys.jwk] },
    ttl: {
      AccessToken: ttl, AuthorizationCode: 60, IdToken: 3600, RefreshToken: 24 * 3600, Session: 8 * 3600, Grant: 8 * 3600, Interaction: 600,
    },
    clientBasedCORS: (_ctx: unknown, requestOrigin: string) => appOrigins.includes(requestOrigin),
    formats: {
      customizers: {
        jwt: (_ctx: unknown, token: TokenModel, jwt: { payload: { exp?: number } }) => {
          issued.set(token.jti, { grantId: token.grantId, accountId: token.accountId, exp: jwt.payload.exp ?? 0 });
          if (issued.size % 200 === 0) forget();
        },
      },
    },
    renderError: async (ctx: ProviderContext, out: { error: string; error_description?: string }) => {
      const lang = pageLanguage(ctx.oidc?.params?.ui_locales as string | undefined);
      const t = strings(lang);
      ctx.type = 'html';
      ctx.body = messagePage(lang, t.errorTitle, `${t.errorText} (${out.error}${out.error_description ? `: ${out.error_description}` : ''})`);
    },
    routes: {
      authorization: '/authorize',
      token: '/access_token',
      userinfo: '/userinfo',
      revocation: '/token/revoke',
      end_session: '/connect/endSession',
      jwks: '/connect/jwk_uri',
      introspection: '/introspect',
      pushed_authorization_request: '/par',
    },
  });
  if (!quiet) provider.on('server_error', (_ctx: unknown, err: unknown) => console.error('[identity] server_error', err));
  const providerCallback = provider.callback();

  // ---- the issuer's userinfo: accepts the JWT access tokens (audience kmx-web), as AIC does ----
  const userinfo = async (req: IncomingMessage, res: ServerResponse) => {
    if (cors(req, res, appOrigins)) return;
    const token = bearerToken(req);
    const caller = token ? await authenticate(token) : null;
    if (!caller) {
      sendJson(res, 401, { error: 'invalid_token', error_description: 'invalid or revoked access token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
      return;
    }
    sendJson(res, 200, claimsOf(caller.user, new Set(caller.scope)));
  };

  // ---- revocation (RFC 7009): JWT access tokens go on a deny list; a refresh token ends its grant; always `{}` JSON ----
  const revoke = async (req: IncomingMessage, res: ServerResponse) => {
    if (cors(req, res, appOrigins)) return;
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: 'invalid_request', error_description: 'use POST' }, { allow: 'POST' });
      return;
    }
    const form = await readForm(req);
    if (form.client_id !== CLIENT_ID) {
      sendJson(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
      return;
    }
    if (!form.token) {
      sendJson(res, 400, { error: 'invalid_request', error_description: "missing required parameter 'token'" });
      return;
    }
    let jwt = false;
    try {
      jwt = !!decodeProtectedHeader(form.token).alg;
    } catch { /* an opaque token */ }
    if (jwt) {
      try {
        const { payload } = await jwtVerify(form.token, publicKey, { issuer, algorithms: ['RS256'] });
        if (typeof payload.jti === 'string' && payload.client_id === CLIENT_ID) revoked.set(payload.jti, payload.exp ?? 0);
      } catch { /* invalid or expired: nothing to revoke (RFC 7009 answers 200 all the same) */ }
    } else {
      const refresh = await new Adapter('RefreshToken').find(form.token);
      if (refresh && refresh.clientId === CLIENT_ID) {
        await new Adapter('RefreshToken').destroy(form.token);
        if (typeof refresh.grantId === 'string') await endGrant(refresh.grantId);
      }
    }
    sendJson(res, 200, {});
  };

  // ---- introspection (RFC 7662) for the confidential client kmx-api: oidc-provider refuses to
  // introspect JWT access tokens, and only this emulator knows which ones were revoked ----
  const secretDigest = (secret: string) => createHash('sha256').update(secret).digest();
  const introspectionSecret = secretDigest(opts.introspectionSecret ?? LOCAL_INTROSPECTION_SECRET);
  /** The client of HTTP Basic (RFC 6749 §2.3.1: form-encoded id and secret) or of the form body. */
  const clientCredentials = (req: IncomingMessage, form: Record<string, string>): { id: string; secret: string } | null => {
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      if (id === undefined || secret === undefined) return null;
      try {
        return { id: decodeURIComponent(id.replace(/\+/g, ' ')), secret: decodeURIComponent(secret.replace(/\+/g, ' ')) };
      } catch {
        return null;
      }
    }
    return form.client_id && form.client_secret ? { id: form.client_id, secret: form.client_secret } : null;
  };
  const introspect = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: 'invalid_request', error_description: 'use POST' }, { allow: 'POST' });
      return;
    }
    const form = await readForm(req);
    const client = clientCredentials(req, form);
    if (!client || client.id !== INTROSPECTION_CLIENT_ID || !timingSafeEqual(secretDigest(client.secret), introspectionSecret)) {
      sendJson(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' }, { 'www-authenticate': 'Basic realm="introspect"' });
      return;
    }
    if (!form.token) {
      sendJson(res, 400, { error: 'invalid_request', error_description: "missing required parameter 'token'" });
      return;
    }
    const caller = await authenticate(form.token);
    if (!caller) {
      sendJson(res, 200, { active: false });
      return;
    }
    const { payload } = caller;
    sendJson(res, 200, {
      active: true, scope: caller.scope.join(' '), client_id: payload.client_id, sub: caller.sub, aud: payload.aud,
      iss: payload.iss, exp: payload.exp, iat: payload.iat, jti: payload.jti, token_type: 'Bearer',
    });
  };

  // ---- login page ----
  const interaction = async (req: IncomingMessage, res: ServerResponse, uid: string) => {
    let details;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      const lang = pageLanguage(req.headers['accept-language']);
      sendHtml(res, 400, messagePage(lang, strings(lang).errorTitle, strings(lang).errorText));
      return;
    }
    if (details.uid !== uid) {
      sendHtml(res, 400, messagePage('en', strings('en').errorTitle, strings('en').errorText));
      return;
    }
    const lang = pageLanguage(details.params.ui_locales as string | undefined);
    const action = `${ISSUER_PATH}/interaction/${uid}`;
    // Registration returns to the customer area of the app that asked (its callback names the language).
    const redirectUri = URL.parse(String(details.params.redirect_uri ?? ''));
    const appLang = /^\/([a-z]{2})\/callback$/.exec(redirectUri?.pathname ?? '')?.[1] ?? 'en';
    const registerUrl = redirectUri ? registrationUrl(`${redirectUri.origin}/${appLang}/mykomax`, lang) : undefined;

    if (details.prompt.name !== 'login') {
      // Consent is implied (loadExistingGrant); any other prompt finishes as it is.
      const grant = new provider.Grant({ clientId: CLIENT_ID, accountId: details.session!.accountId });
      grant.addOIDCScope(SCOPE);
      grant.addResourceScope(RESOURCE, SCOPE);
      await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
      return;
    }
    if (req.method === 'GET') {
      sendHtml(res, 200, loginPage({ lang, action, registerUrl }));
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: 'method not allowed' }, { allow: 'GET, POST' });
      return;
    }
    const form = v.parse(LoginForm, await readForm(req));
    const found = store.findByLogin(form.username.trim());
    if (!found || !(await verifyPassword(form.password, found.passwordHash))) {
      sendHtml(res, 401, loginPage({ lang, action, registerUrl, email: form.username, failed: true }));
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: found.user._id, amr: ['pwd'] } }, { mergeWithLastSubmission: false });
  };

  // ---- registration page (AM's hosted Registration journey) ----
  const register = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const lang = pageLanguage(url.searchParams.get('locale'), url.searchParams.get('ui_locales'), req.headers['accept-language']);
    const t = strings(lang);
    if (url.searchParams.get('authIndexValue') !== 'Registration') {
      sendHtml(res, 404, messagePage(lang, t.errorTitle, t.errorText));
      return;
    }
    const goto = URL.parse(url.searchParams.get('goto') ?? '');
    // Only back to an app registered for the client: no open redirect.
    const back = goto && appOrigins.includes(goto.origin) ? goto.href : undefined;
    const action = `${url.pathname}${url.search}`;
    const csrfCookie = cookie(req, 'kmx_registration');
    const csrf = csrfCookie && /^[\w-]{20,}$/.test(csrfCookie) ? csrfCookie : randomBytes(18).toString('base64url');
    const setCookie = { 'set-cookie': `kmx_registration=${csrf}; Path=${REGISTRATION_PATH}; HttpOnly; SameSite=Strict` };
    // Each rendering of the form gets a new idempotency key (hidden field): "Create account" sent
    // again after a lost answer creates the account once and answers as the first time did.
    const freshKey = () => randomUUID();
    if (req.method === 'GET') {
      sendHtml(res, 200, registerPage({ lang, action, csrf, idempotencyKey: freshKey(), values: { givenName: '', sn: '', mail: '' } }), setCookie);
      return;
    }
    if (req.method !== 'POST') {
      sendJson(res, 405, { error: 'method not allowed' }, { allow: 'GET, POST' });
      return;
    }
    const form = v.parse(RegisterForm, await readForm(req));
    if (!csrfCookie || form.csrf !== csrfCookie) {
      sendHtml(res, 403, registerPage({ lang, action, csrf, idempotencyKey: freshKey(), values: form, failures: [] }), setCookie);
      return;
    }
    const values = { givenName: form.givenName.trim(), sn: form.sn.trim(), mail: form.mail.trim() };
    const done = () => {
      if (back) redirect(res, back);
      else sendHtml(res, 201, messagePage(lang, t.registeredTitle, t.registered));
    };
    const key = idempotencyKeyOf({ 'idempotency-key': form.idempotencyKey });
    const claim = key && key !== 'malformed' ? registrationKeys.claim('register', key, fingerprintOf(values.mail.toLowerCase(), values.givenName, values.sn)) : null;
    if (claim?.kind === 'done') {
      done();
      return;
    }
    if (claim?.kind === 'in-progress') {
      sendHtml(res, 409, messagePage(lang, t.registerBusyTitle, t.registerBusy), { 'retry-after': '1' });
      return;
    }
    const failures: FailedPolicyRequirement[] = [];
    for (const field of ['givenName', 'sn', 'mail'] as const) {
      const requirements = fieldRequirements(field, values[field]);
      if (field === 'mail' && !requirements.length && store.mailTaken(values.mail)) requirements.push({ policyRequirement: 'UNIQUE' });
      if (requirements.length) failures.push({ property: field, policyRequirements: requirements });
    }
    const passwordFailures = passwordRequirements(form.password, { ...values, userName: values.mail });
    if (passwordFailures.length) failures.push({ property: 'password', policyRequirements: passwordFailures });
    if (failures.length) {
      if (claim?.kind === 'started') claim.release();
      sendHtml(res, 400, registerPage({ lang, action, csrf, idempotencyKey: freshKey(), values, failures }), setCookie);
      return;
    }
    try {
      await store.create(values, form.password);
    } catch (err) {
      if (claim?.kind === 'started') claim.release();
      throw err;
    }
    if (claim?.kind === 'started') claim.finish({ status: back ? 303 : 201, body: '' });
    done();
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const path = url.pathname;
    if (path === ISSUER_PATH || path.startsWith(`${ISSUER_PATH}/`)) {
      const sub = path.slice(ISSUER_PATH.length);
      if (sub === '/userinfo') return userinfo(req, res);
      if (sub === '/token/revoke') return revoke(req, res);
      if (sub === '/introspect') return introspect(req, res);
      const uid = /^\/interaction\/([\w-]+)$/.exec(sub)?.[1];
      if (uid) return interaction(req, res, uid);
      // Mounted like Express's app.use(prefix): oidc-provider derives its mount path from originalUrl minus url.
      (req as IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      req.url = (req.url ?? '/').slice(ISSUER_PATH.length) || '/';
      return providerCallback(req, res);
    }
    if (path === REGISTRATION_PATH || path === REGISTRATION_PATH.slice(0, -1)) return register(req, res, url);
    if (path === AM_SESSIONS_PATH || path === `${AM_SESSIONS_PATH}/`) {
      // AM's REST logout (the app may call it besides the end-session endpoint): the answer AM gives.
      if (cors(req, res, appOrigins)) return;
      if (req.method === 'POST' && url.searchParams.get('_action') === 'logout') sendJson(res, 200, { result: 'Successfully logged out' });
      else sendJson(res, 400, { code: 400, reason: 'Bad Request', message: 'Unsupported action' });
      return;
    }
    if (await handleIdm(req, res, url, { store, authenticate, endAccount })) return;
    sendJson(res, 404, { code: 404, reason: 'Not Found', message: 'Resource not found' });
  }

  return {
    server,
    origin,
    issuer,
    managementUrl: `${origin}/openidm`,
    registrationUrl: (goto: string) => registrationUrl(goto),
    introspection: { clientId: INTROSPECTION_CLIENT_ID, clientSecret: opts.introspectionSecret ?? LOCAL_INTROSPECTION_SECRET },
    store,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        store.close();
        resolve();
      });
    }),
  };
}
