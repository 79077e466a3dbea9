/**
 * The customer area's paths (spec customer-area §2): `/{locale}/mykomax` and everything below it,
 * in any letter case. Pure: the middleware, the prerender guard and the tests use it.
 */
export const CUSTOMER_AREA_SEGMENT = 'mykomax';

/** Fixed route segments below /mykomax (spec §2); ids (tickets, users) keep their case. */
const ROUTE_SEGMENTS = ['mykomax', 'account', 'inventory', 'old', 'logout', 'wire-flow', 'tickets', 'list', 'newticket', 'user-admin'];
const LOCALE = /^[a-z]{2}(?:-[a-z]{2})?$/i;

/** Whether a site-relative page path (below locale and site slug, `/mykomax/account`) is in the customer area. */
export function isCustomerAreaPagePath(pagePath: string): boolean {
  const first = pagePath.split('/').filter(Boolean)[0] ?? '';
  return first.toLowerCase() === CUSTOMER_AREA_SEGMENT;
}

/** Whether a URL path (`/en/MyKomax/account`) is in the customer area. */
export function isCustomerAreaPath(pathname: string): boolean {
  const [locale = '', area = ''] = pathname.split('/').filter(Boolean);
  return LOCALE.test(locale) && area.toLowerCase() === CUSTOMER_AREA_SEGMENT;
}

/**
 * The lowercase spelling of a customer-area path written in another case, else null:
 * `/en/MyKomax/Account` → `/en/mykomax/account`; `/en/mykomax/tickets/AbC1` keeps the ticket id.
 */
export function customerAreaCanonicalPath(pathname: string): string | null {
  if (!isCustomerAreaPath(pathname)) return null;
  const parts = pathname.split('/');
  const canonical = parts.map((p, i) => (i === 1 || ROUTE_SEGMENTS.includes(p.toLowerCase()) ? p.toLowerCase() : p)).join('/');
  return canonical === pathname ? null : canonical;
}

/** Pages of the sign-in flow that reach the provider from the browser: the customer area and the callback. */
export function isSignInPath(pathname: string): boolean {
  const [locale = '', page = ''] = pathname.split('/').filter(Boolean);
  return isCustomerAreaPath(pathname) || (LOCALE.test(locale) && page === 'callback');
}

/** A page path (below locale and site slug) of the sign-in flow: the customer area (any case) or the callback. */
export function isSignInPagePath(pagePath: string): boolean {
  const first = pagePath.split('/').filter(Boolean)[0] ?? '';
  return isCustomerAreaPagePath(pagePath) || first === 'callback';
}

/**
 * The customer area and the callback live on the main site only (spec customer-area §2): on any
 * other site (its own host, `events.localhost/en/mykomax`, or its slug, `/en/brand-portal/mykomax`)
 * such a path is that site's 404 page (still never stored).
 */
export function isMisplacedSignInPage(site: { isMain: boolean }, pagePath: string): boolean {
  return !site.isMain && isSignInPagePath(pagePath);
}

/**
 * Where the middleware rewrites a misplaced sign-in page: a path only the generic content route
 * matches, which renders the site's 404 page (the request resolved as not found). The 404 page
 * names the path the visitor asked for (`Astro.originPathname`), not this one.
 */
export const SITE_NOT_FOUND_PATH = '/_not-found';
