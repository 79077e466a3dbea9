/**
 * Cross-site request refusal for endpoints that change state (a cookie-authenticated POST): a
 * browser says where a request comes from in `Sec-Fetch-Site` and `Origin`, and another site's page
 * (a sibling subdomain included: `same-site` is not enough, the platform's other sites are such
 * subdomains) must not ride the user's cookie. Astro's `security.checkOrigin` covers form posts
 * only; this covers every content type. A request carrying neither header comes from no browser
 * (curl, a server), which holds no victim's cookie, and is let through.
 */

export const CROSS_SITE_MESSAGE = 'Cross-site request refused: this endpoint changes state and accepts requests from its own origin only (Origin and Sec-Fetch-Site must name it).';

/** Whether a browser sent `request` from a page of another origin than `url`'s (the origin the server answers on). */
export function isCrossOriginRequest(request: Request, url: URL): boolean {
  const site = request.headers.get('sec-fetch-site');
  // `none`: the user's own action (typed address, bookmark), never another page's.
  if (site !== null && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.get('origin');
  return origin !== null && origin !== url.origin;
}
