/**
 * Page grants: after the server checked a protected page's password (or the visitor's role), the
 * browser holds one cookie per granted page, `kmx_grant_<pageId>`, whose value is signed with
 * `services.pageGrantSecret` (src/lib/crypto/signed.ts) and names the page again, expiring with
 * the cookie. It is HttpOnly, SameSite=Lax, Secure outside localhost, and scoped to the page's URL
 * path, so the browser sends it only to that page and the pages below it (which need the grant
 * of their protected ancestor). A copy of the same value is scoped to `/file`, the downloads route
 * (spec §2.1 `/file/{slug}`), so the files the granted page links can be downloaded; the file rule
 * (access.ts `fileAccess`) still serves only files a granted page links. A forged, altered,
 * expired or other page's value is no grant.
 */
import { readSignedValue, signValue } from '../../lib/crypto/signed.ts';
import type { Grants } from '../../lib/content/index.ts';

export const GRANT_COOKIE_PREFIX = 'kmx_grant_';
/** A password grant lasts a working day. */
export const PASSWORD_GRANT_SECONDS = 8 * 60 * 60;
/** A role grant is short: the role is checked again (from the still valid sign-in) when it runs out. */
export const ROLE_GRANT_SECONDS = 15 * 60;

/** Content hub ids are short and alphanumeric; anything else is no page id (and never a cookie name). */
const PAGE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A URL path a cookie may be scoped to (no `;`, spaces or control characters). */
const COOKIE_PATH = /^\/[A-Za-z0-9\-._~%/]*$/;

export const isPageId = (id: string): boolean => PAGE_ID.test(id);

/** The signed value of a grant for `pageId`, valid for `ttlSeconds` from `now` (ms). */
export function grantValue(pageId: string, secret: string, ttlSeconds: number, now = Date.now()): string {
  return signValue({ page: pageId }, secret, ttlSeconds, now);
}

/** Whether `value` is a valid, unexpired grant for exactly `pageId`. */
export function isGrantFor(pageId: string, value: string | undefined, secret: string, now = Date.now()): boolean {
  const payload = readSignedValue(value, secret, now);
  return !!payload && payload.page === pageId;
}

/**
 * The page ids a request's Cookie header holds valid grants for. Each cookie is checked on its
 * own: its name and its signed payload must name the same page.
 */
export function grantsFromCookies(cookieHeader: string | null, secret: string, now = Date.now()): Grants {
  const grants = new Set<string>();
  for (const part of (cookieHeader ?? '').split(/;\s*/)) {
    if (!part.startsWith(GRANT_COOKIE_PREFIX)) continue;
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const id = part.slice(GRANT_COOKIE_PREFIX.length, eq);
    if (isPageId(id) && isGrantFor(id, part.slice(eq + 1), secret, now)) grants.add(id);
  }
  return grants;
}

/** Whether a URL is served from the developer's machine (cookies without `Secure` there). */
export function isLocalUrl(url: URL): boolean {
  const h = url.hostname;
  return h === 'localhost' || h.endsWith('.localhost') || h === '127.0.0.1' || h === '[::1]';
}

/**
 * The Set-Cookie header of a grant: HttpOnly, SameSite=Lax, `Path` the protected page's URL path,
 * `Max-Age` the grant's lifetime, `Secure` unless `url` is local.
 */
export function grantCookieHeader(opts: { pageId: string; value: string; path: string; maxAge: number; url: URL }): string {
  if (!isPageId(opts.pageId)) throw new Error(`Not a page id: ${opts.pageId}`);
  if (!COOKIE_PATH.test(opts.path)) throw new Error(`Not a cookie path: ${opts.path}`);
  return `${GRANT_COOKIE_PREFIX}${opts.pageId}=${opts.value}; Max-Age=${opts.maxAge}; Path=${opts.path}; HttpOnly; SameSite=Lax${isLocalUrl(opts.url) ? '' : '; Secure'}`;
}

/** Where the downloads live (`/file/{slug}`): the grant's copy for the page's files is scoped to it. */
export const FILE_GRANT_PATH = '/file';

/**
 * The Set-Cookie headers of a page grant, ready to send: the grant scoped to the page's path, and
 * the same value scoped to the downloads route.
 */
export function grantCookies(opts: { pageId: string; path: string; ttlSeconds: number; secret: string; url: URL; now?: number }): [string, string] {
  const value = grantValue(opts.pageId, opts.secret, opts.ttlSeconds, opts.now);
  const cookie = (path: string) => grantCookieHeader({ pageId: opts.pageId, value, path, maxAge: opts.ttlSeconds, url: opts.url });
  return [cookie(opts.path), cookie(FILE_GRANT_PATH)];
}
