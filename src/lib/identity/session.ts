import { OidcClient, WebStorageStateStore } from 'oidc-client-ts';
import { isReturnPath, validateCallback } from './callback.ts';
import { BLANK_CALLBACK_PATH, IDENTITY_REQUEST_TIMEOUT_MS, SIGN_IN_TIMEOUT_MS } from './constants.ts';
import { authorizeErrorMessage, isRecoverable, type LoginMode } from './errors.ts';
import { createPkce } from './pkce.ts';
import { authorizeUrl, exchangeCode, fetchUserInfo } from './protocol.ts';
import { silentFrame } from './silent-frame.ts';
import {
  clearReturnSite, clearSession, clearSignIn, clearTokens, identityLog, readReturnSite, readSignIn, readTokens, readUser, saveReturnSite, saveSignIn,
  writeTokens, writeUser,
} from './storage.ts';
import { renewDelay, shouldReuse, type TokenSet } from './tokens.ts';
import { RETURN_PARAM, returnTarget, signOutReturnUri, siteOrigins } from '../../site/return-target.ts';
import { userFromUserInfo, type AuthenticatedUser } from './user.ts';

export type { AuthenticatedUser } from './user.ts';

/**
 * The customer area's session in the browser (spec customer-area §4): the only code that talks to
 * the identity provider from a page. Discovery, revocation and the end-session request go
 * through oidc-client-ts; the authorization request, the hidden-frame check, the code exchange and
 * the user info are ours, because the spec fixes their sizes, timeouts and error texts.
 */

/** What a page finds in `#identity-config` (rendered by src/layouts/CustomerArea.astro and the sign-in pages). */
export interface IdentityPageConfig {
  issuer: string;
  clientId: string;
  /** The interface language: the callback path's language (`de` also for a `de-ch` page). */
  language: string;
  /** The full locale of the page (`de-ch`): where the visitor returns to after signing in. */
  locale: string;
  /** The hosts of the site configuration: a `?return=` address must be on one of them. */
  siteHosts: string[];
}

export interface Session {
  user: AuthenticatedUser;
  accessToken: string;
}

/** The spec's login mode: a recoverable silent failure sends the visitor to sign in. */
const LOGIN_MODE: LoginMode = 'redirect';
export const CONFIG_ELEMENT_ID = 'identity-config';

export function readIdentityConfig(doc: Document = document): IdentityPageConfig {
  const el = doc.getElementById(CONFIG_ELEMENT_ID);
  const d = el?.dataset ?? {};
  if (!d.issuer || !d.clientId || !d.language || !d.locale) throw new Error('The page names no identity provider (#identity-config)');
  return { issuer: d.issuer, clientId: d.clientId, language: d.language, locale: d.locale, siteHosts: (d.siteHosts ?? '').split(' ').filter(Boolean) };
}

/** A return address on one of the configured sites' hosts (in this page's host family), else null. */
function allowedReturn(cfg: IdentityPageConfig, raw: string | null): string | null {
  return returnTarget(raw, siteOrigins(cfg.siteHosts, new URL(location.href)));
}

/**
 * A sub-site's link into the customer area names its page (`?return=`, src/site/return-target.ts):
 * remembered for this tab, so logout returns to that site, and dropped from the address bar. A
 * return address on any other host is ignored (no open redirect).
 */
export function rememberReturnSite(): void {
  const url = new URL(location.href);
  if (!url.searchParams.has(RETURN_PARAM)) return;
  const target = allowedReturn(readIdentityConfig(), url.searchParams.get(RETURN_PARAM));
  if (target) saveReturnSite(target);
  else identityLog('warn', 'ignored a return address outside the configured sites');
  url.searchParams.delete(RETURN_PARAM);
  history.replaceState(history.state, '', url.href);
}

let client: OidcClient | null = null;
function oidc(cfg: IdentityPageConfig): OidcClient {
  client ??= new OidcClient({
    authority: cfg.issuer,
    client_id: cfg.clientId,
    redirect_uri: callbackUri(cfg),
    post_logout_redirect_uri: `${location.origin}/`,
    requestTimeoutInSeconds: IDENTITY_REQUEST_TIMEOUT_MS / 1000,
    stateStore: new WebStorageStateStore({ store: sessionStorage }),
    // AM's revocation answer may come without a JSON type (notes/identity.md, pitfall 12).
    revokeTokenAdditionalContentTypes: ['text/plain'],
  });
  return client;
}

const callbackUri = (cfg: IdentityPageConfig) => `${location.origin}/${cfg.language}/callback`;

/** Revokes the access token (the browser holds no refresh token); a failure is logged (the token is deleted anyway). */
async function revoke(cfg: IdentityPageConfig, tokens: TokenSet): Promise<void> {
  try {
    await oidc(cfg).revokeToken(tokens.accessToken, 'access_token');
  } catch (err) {
    identityLog('warn', 'token revocation failed', err);
  }
}

function storedTokens(): TokenSet | null {
  try {
    return readTokens();
  } catch (err) {
    // 'Could not parse token object from localStorage': logged, and the unreadable entry goes.
    identityLog('error', (err as Error).message);
    clearTokens();
    return null;
  }
}

async function loadUser(cfg: IdentityPageConfig, accessToken: string): Promise<AuthenticatedUser> {
  const user = userFromUserInfo(await fetchUserInfo(await oidc(cfg).metadataService.getUserInfoEndpoint(), accessToken));
  writeUser(user);
  return user;
}

let renewTimer: ReturnType<typeof setTimeout> | undefined;
/** While the page stays open the token is renewed before it expires (without a navigation). */
function scheduleRenew(tokens: TokenSet): void {
  clearTimeout(renewTimer);
  renewTimer = setTimeout(() => {
    ensureSession({ forceRenew: true }).catch((err) => identityLog('error', `renewal failed: ${(err as Error).message}`));
  }, renewDelay(tokens.tokenExpiry, Date.now()));
}

/** The hidden-frame authorization, then the exchange and the user info. */
async function silentSignIn(cfg: IdentityPageConfig): Promise<Session> {
  const endpoint = await oidc(cfg).metadataService.getAuthorizationEndpoint();
  const pkce = await createPkce();
  const redirectUri = `${location.origin}${BLANK_CALLBACK_PATH}`;
  const params = await silentFrame(authorizeUrl(endpoint, { clientId: cfg.clientId, redirectUri, state: pkce.state, challenge: pkce.challenge, prompt: 'none' }), SIGN_IN_TIMEOUT_MS);
  const error = params.get('error');
  if (error) throw new Error(authorizeErrorMessage(error, params.get('error_description')));
  const { code } = validateCallback(params, { state: pkce.state, verifier: pkce.verifier, redirectUri, locale: cfg.locale });
  return finishSignIn(cfg, code, pkce.verifier, redirectUri);
}

async function finishSignIn(cfg: IdentityPageConfig, code: string, verifier: string, redirectUri: string): Promise<Session> {
  const tokenEndpoint = await oidc(cfg).metadataService.getTokenEndpoint(false);
  const tokens = await exchangeCode(tokenEndpoint, { clientId: cfg.clientId, code, redirectUri, verifier });
  writeTokens(tokens);
  const user = await loadUser(cfg, tokens.accessToken);
  scheduleRenew(tokens);
  return { user, accessToken: tokens.accessToken };
}

/** Spec §4 step 3: the parameters go to session storage, the browser to the provider's sign-in. Never resolves. */
async function redirectToSignIn(cfg: IdentityPageConfig, returnTo?: string): Promise<never> {
  const endpoint = await oidc(cfg).metadataService.getAuthorizationEndpoint();
  const pkce = await createPkce();
  const redirectUri = callbackUri(cfg);
  saveSignIn({ state: pkce.state, verifier: pkce.verifier, redirectUri, locale: cfg.locale, ...(returnTo && isReturnPath(returnTo) ? { returnTo } : {}) });
  location.assign(authorizeUrl(endpoint, { clientId: cfg.clientId, redirectUri, state: pkce.state, challenge: pkce.challenge }));
  return new Promise<never>(() => {});
}

async function establish(cfg: IdentityPageConfig, forceRenew: boolean, returnTo?: string): Promise<Session> {
  const tokens = storedTokens();
  if (shouldReuse(tokens, Date.now(), forceRenew)) {
    try {
      const user = readUser() ?? (await loadUser(cfg, tokens.accessToken));
      scheduleRenew(tokens);
      return { user, accessToken: tokens.accessToken };
    } catch (err) {
      // A failed user info read is logged and triggers a new sign-in (spec §7).
      identityLog('warn', (err as Error).message);
    }
  }
  if (tokens) {
    await revoke(cfg, tokens);
    clearTokens();
  }
  try {
    return await silentSignIn(cfg);
  } catch (err) {
    if (!isRecoverable(err, LOGIN_MODE)) throw err;
    identityLog('info', `silent sign-in: ${(err as Error).message}; signing in`);
    return redirectToSignIn(cfg, returnTo);
  }
}

let inflight: Promise<Session> | null = null;

/**
 * The signed-in session of spec §4: the stored token while it has more than 180 s left (unless
 * `forceRenew`), else a silent renewal, else the provider's sign-in page (then it never
 * resolves). Rejects with the error to show as technical detail when signing in is impossible.
 * `returnTo` (a same-origin path) is where the callback goes after that sign-in instead of the
 * localized /mykomax (a protected page that asked the visitor to log in).
 */
export function ensureSession(opts: { forceRenew?: boolean; returnTo?: string } = {}): Promise<Session> {
  inflight ??= (async () => establish(readIdentityConfig(), !!opts.forceRenew, opts.returnTo))().finally(() => { inflight = null; });
  return inflight;
}

/** A same-origin request with the access token; a 401 renews the token once and retries. */
export async function apiFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const send = (token: string) => {
    const headers = new Headers(init.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return fetch(path, { ...init, headers, credentials: 'same-origin' });
  };
  const res = await send((await ensureSession()).accessToken);
  if (res.status !== 401) return res;
  return send((await ensureSession({ forceRenew: true })).accessToken);
}

/**
 * The callback page (spec §2, §4 step 4): validates code and state against the saved parameters,
 * exchanges the code with the saved verifier, loads the user info. Answers the localized
 * /mykomax to go to; throws the spec's error otherwise.
 */
export async function completeSignIn(search: string = location.search): Promise<string> {
  const cfg = readIdentityConfig();
  const { code, saved } = validateCallback(new URLSearchParams(search), readSignIn());
  clearSignIn();
  await finishSignIn(cfg, code, saved.verifier, saved.redirectUri);
  return saved.returnTo ?? `/${saved.locale}/mykomax`;
}

/**
 * Logout (spec §4 step 5): revokes the tokens, clears token and user, and ends the provider's
 * session, which returns to the home page, or to the site the visitor came from
 * ({@link rememberReturnSite}: the root of its host, the only address the provider returns to;
 * straight to the page itself when there is no provider session to end).
 */
export async function signOut(): Promise<void> {
  clearTimeout(renewTimer);
  const cfg = readIdentityConfig();
  const tokens = storedTokens();
  const back = allowedReturn(cfg, readReturnSite());
  clearSession();
  clearReturnSite();
  let target = back ?? '/';
  if (tokens) {
    await revoke(cfg, tokens);
    const postLogout = back ? signOutReturnUri(back) : `${location.origin}/`;
    try {
      const request = await oidc(cfg).createSignoutRequest({ ...(tokens.idToken ? { id_token_hint: tokens.idToken } : {}), post_logout_redirect_uri: postLogout });
      target = request.url;
    } catch (err) {
      identityLog('error', `end session: ${(err as Error).message}`);
      target = postLogout;
    }
  }
  location.assign(target);
}
