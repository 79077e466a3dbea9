import type { FeatureMiddleware } from '../platform/feature-middleware.ts';
import { customerAreaCanonicalPath } from '../customer-area/paths.ts';
import { isMisplacedSignInPage, isSignInPath } from './area.ts';
import { withIdentityProvider } from './csp.ts';

/**
 * The customer area and the callback (spec customer-area §2): always rendered on demand and never
 * stored (`Cache-Control: no-store`); a differently cased /mykomax path goes to the lowercase one.
 * Only these pages may reach the identity provider from the browser (CSP connect-src, frame-src).
 * On a site other than the main site, or under a locale the site does not have (`/xx/mykomax`),
 * they are that site's 404: their own route files would otherwise render the area whatever the
 * resolution said.
 */
export const signInMiddleware: FeatureMiddleware = {
  feature: 'sign-in',
  claims: isSignInPath,
  async around(context, services, inner) {
    const canonical = customerAreaCanonicalPath(context.url.pathname);
    const res = canonical ? new Response(null, { status: 301, headers: { Location: `${canonical}${context.url.search}` } }) : await inner();
    const headers = new Headers(res.headers);
    headers.set('Cache-Control', 'no-store');
    const csp = headers.get('Content-Security-Policy');
    if (csp) headers.set('Content-Security-Policy', withIdentityProvider(csp, services.identity.issuer));
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  },
  misplaced: (site, pagePath, pathname) => (pagePath === null ? isSignInPath(pathname) : isMisplacedSignInPage(site, pagePath)),
};
