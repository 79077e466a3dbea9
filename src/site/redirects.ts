/** Redirect rules of spec 2.3 and §9: 301 for a trailing slash or a CMS redirect, 302 for a locale change or direct lookup. */

export interface Redirect {
  status: 301 | 302;
  location: string;
}

/** `/en/page/` → 301 `/en/page` (query kept). The root path is left alone. */
export function trailingSlashRedirect(pathname: string, search: string): Redirect | null {
  if (pathname === '/' || !pathname.endsWith('/')) return null;
  // Leading slashes collapse to one: a Location of '//host' would leave the site (open redirect).
  const clean = pathname.replace(/\/+$/, '').replace(/^\/+/, '/') || '/';
  return { status: 301, location: `${clean}${search}` };
}

/** A locale written differently from the resolved one (`/DE/x`, `/de-CH/x`) → 302 to the resolved spelling. */
export function localeRedirect(pathname: string, search: string, resolvedUrlCode: string): Redirect | null {
  const [, first = '', ...rest] = pathname.split('/');
  if (first === resolvedUrlCode) return null;
  return { status: 302, location: `/${resolvedUrlCode}${rest.length ? `/${rest.join('/')}` : ''}${search}` };
}

/**
 * The previousUrl variants a request can match: the path, and the path with its query. Entries
 * stored with a hash match on the part before it (a server never sees the hash).
 */
export function redirectVariants(pathname: string, search: string): string[] {
  const variants = [pathname];
  if (search && search !== '?') variants.push(`${pathname}${search}`);
  return variants;
}

/** Of the system redirects that matched, the one with the longest previousUrl wins. */
export function pickSystemRedirect<T extends { previousUrl: string; target: string }>(matches: T[]): T | null {
  let best: T | null = null;
  for (const m of matches) if (!best || m.previousUrl.length > best.previousUrl.length) best = m;
  return best;
}

/** Removes the `direct` flag from a query string (`&direct=true`, `?direct`, …). */
export function withoutDirect(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('direct');
  const s = params.toString();
  return s ? `?${s}` : '';
}
