import type { APIContext } from 'astro';
import { json } from '../../lib/http/json.ts';
import { endpoint, READ_ONLY } from '../../lib/http/endpoint.ts';
import { apiContext } from '../platform/context.ts';
import { requireUser } from './bearer.server.ts';
import { originFor } from '../../site/links.ts';
import { RETURN_PARAM, returnTarget, siteHosts, siteOrigins } from '../../site/return-target.ts';
import { mainSite } from '../../site/main-site.ts';

/** GET /api/mykomax/session: the subject and scope of the caller's verified access token (no-store). */
export const getSession = endpoint(READ_ONLY, { auth: requireUser }, ({ user }) => json({ sub: user.claims.sub, scope: user.claims.scope }));

/**
 * GET /api/mykomax/register?locale=de-ch[&return=<page>]: the provider's registration page (a
 * redirect), returning to the main site's localized /mykomax after sign-in (whatever host the
 * request came to: a sub-site has no customer area). `return`, a page of a configured site
 * (src/site/return-target.ts), travels on so that logout leads back to it; any other is refused.
 * A route rather than a link in the page, so a prerendered header never carries the provider's
 * address (it comes from the environment).
 */
export const getRegister = endpoint(READ_ONLY, async ({ url, locals }: APIContext) => {
  const locale = url.searchParams.get('locale') ?? 'en';
  if (!/^[a-z]{2}(?:-[a-z]{2})?$/.test(locale)) return json({ error: 'locale must be a locale code such as en or de-ch' }, 400);
  const { services, system } = apiContext(locals);
  const raw = url.searchParams.get(RETURN_PARAM);
  const back = raw === null ? null : returnTarget(raw, siteOrigins(siteHosts(system.sites), url));
  if (raw !== null && !back) return json({ error: 'return must be the address of a page of one of our sites' }, 400);
  const main = mainSite(system);
  const goto = new URL(`${originFor(main, url) || url.origin}/${locale}/mykomax`);
  if (back) goto.searchParams.set(RETURN_PARAM, back);
  return new Response(null, { status: 302, headers: { Location: registrationUrl(services.identity.issuer, goto.href), 'Cache-Control': 'no-store' } });
});

/**
 * The provider's self-registration journey (AM hosted pages) with the return address.
 * @example registrationUrl('http://localhost:4102/am/oauth2/realms/root/realms/alpha', 'http://localhost:4321/en/mykomax')
 *   // 'http://localhost:4102/am/XUI/?realm=alpha&authIndexType=service&authIndexValue=Registration&goto=http%3A%2F%2Flocalhost%3A4321%2Fen%2Fmykomax'
 */
export function registrationUrl(issuer: string, goto: string): string {
  const realm = /\/realms\/root\/realms\/([^/]+)/.exec(new URL(issuer).pathname)?.[1] ?? 'alpha';
  const params = new URLSearchParams({ realm, authIndexType: 'service', authIndexValue: 'Registration', goto });
  return `${new URL(issuer).origin}/am/XUI/?${params}`;
}
