import { isCustomerAreaPagePath, isCustomerAreaPath } from '../customer-area/paths.ts';

/*
 * The sign-in flow's pages: the customer area (its paths: src/features/customer-area/paths.ts) and
 * the callback. Pure: the middleware, the prerender guard and the tests use it.
 */
const LOCALE = /^[a-z]{2}(?:-[a-z]{2})?$/i;

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
