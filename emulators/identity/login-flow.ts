// A browser-less authorization code + PKCE sign-in through the emulator's real login form, for tests
// that need tokens (fetch with the cookies handled by hand).
import { createHash, randomBytes } from 'node:crypto';

export interface TokenSet {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  token_type: string;
  expires_in: number;
  scope?: string;
}

/** A minimal cookie jar: name → value, every cookie sent to the one emulator origin. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1] ?? '') < Date.now()));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface SignInOptions {
  issuer: string;
  redirectUri: string;
  username: string;
  password: string;
  clientId?: string;
  scope?: string;
  /** Another PKCE method or none at all (negative tests). */
  pkce?: 'S256' | 'plain' | 'none';
  jar?: CookieJar;
  uiLocales?: string;
}

export const b64url = (buf: Buffer) => buf.toString('base64url');

/** GET with the jar, no redirects followed. */
export async function get(url: string, jar: CookieJar): Promise<Response> {
  const res = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
  jar.store(res);
  return res;
}

export function absolute(location: string | null, base: string): string {
  if (!location) throw new Error('expected a redirect');
  return new URL(location, base).href;
}

/** The authorization request's URL with a fresh state and PKCE pair. */
export function authorizationUrl(opts: SignInOptions): { url: string; verifier: string; state: string } {
  const verifier = b64url(randomBytes(32));
  const state = b64url(randomBytes(12));
  const params = new URLSearchParams({
    client_id: opts.clientId ?? 'kmx-web',
    response_type: 'code',
    redirect_uri: opts.redirectUri,
    scope: opts.scope ?? 'openid profile email fr:idm:*',
    state,
  });
  const method = opts.pkce ?? 'S256';
  if (method !== 'none') {
    params.set('code_challenge', method === 'S256' ? b64url(createHash('sha256').update(verifier).digest()) : verifier);
    params.set('code_challenge_method', method);
  }
  if (opts.uiLocales) params.set('ui_locales', opts.uiLocales);
  return { url: `${opts.issuer}/authorize?${params}`, verifier, state };
}

/** Follows /authorize to the login form; returns the form's URL (absolute). */
export async function openLoginForm(opts: SignInOptions, jar: CookieJar): Promise<{ formUrl: string; verifier: string; state: string }> {
  const { url, verifier, state } = authorizationUrl(opts);
  const res = await get(url, jar);
  if (res.status !== 303 && res.status !== 302) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
  return { formUrl: absolute(res.headers.get('location'), url), verifier, state };
}

/** Posts the login form; resolves with the answer (a redirect on success, the form again on failure). */
export async function postLogin(formUrl: string, username: string, password: string, jar: CookieJar): Promise<Response> {
  const res = await fetch(formUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }),
  });
  jar.store(res);
  return res;
}

/** Signs in through the login form and exchanges the code: the token response. */
export async function signIn(opts: SignInOptions): Promise<TokenSet & { jar: CookieJar }> {
  const jar = opts.jar ?? new CookieJar();
  const { formUrl, verifier, state } = await openLoginForm(opts, jar);
  const login = await postLogin(formUrl, opts.username, opts.password, jar);
  if (login.status !== 303 && login.status !== 302) throw new Error(`login answered ${login.status}`);
  let location = absolute(login.headers.get('location'), formUrl);
  // Resume at /authorize/<uid>, which redirects to the app's callback with the code.
  while (!location.startsWith(opts.redirectUri)) {
    const res = await get(location, jar);
    if (res.status !== 303 && res.status !== 302) throw new Error(`${location} answered ${res.status}: ${await res.text()}`);
    location = absolute(res.headers.get('location'), location);
  }
  const callback = new URL(location);
  if (callback.searchParams.get('state') !== state) throw new Error('state mismatch');
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.search}`);
  const tokens = await exchangeCode(opts.issuer, { code, redirectUri: opts.redirectUri, verifier, clientId: opts.clientId });
  return { ...tokens, jar };
}

export async function exchangeCode(issuer: string, p: { code: string; redirectUri: string; verifier: string; clientId?: string }): Promise<TokenSet> {
  const res = await fetch(`${issuer}/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: p.code, redirect_uri: p.redirectUri, client_id: p.clientId ?? 'kmx-web', code_verifier: p.verifier }),
  });
  if (!res.ok) throw new Error(`token endpoint answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as TokenSet;
}
