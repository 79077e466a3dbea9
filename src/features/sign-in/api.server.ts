import type { APIContext } from 'astro';
import { json } from '../../lib/http/json.ts';
import { endpoint, READ_ONLY } from '../../lib/http/endpoint.ts';
import { apiContext } from '../platform/context.ts';
import { requireUser } from './bearer.server.ts';

/** GET /api/mykomax/session: the subject and scope of the caller's verified access token (no-store). */
export const getSession = endpoint(READ_ONLY, async (context: APIContext) => {
  const auth = await requireUser(context);
  if (auth instanceof Response) return auth;
  return json({ sub: auth.claims.sub, scope: auth.claims.scope });
});

/**
 * GET /api/mykomax/register?locale=de-ch: the provider's registration page (a redirect), returning
 * to the localized /mykomax after sign-in. A route rather than a link in the page, so a prerendered
 * header never carries the provider's address (it comes from the environment).
 */
export const getRegister = endpoint(READ_ONLY, async ({ url, locals }: APIContext) => {
  const locale = url.searchParams.get('locale') ?? 'en';
  if (!/^[a-z]{2}(?:-[a-z]{2})?$/.test(locale)) return json({ error: 'locale must be a locale code such as en or de-ch' }, 400);
  const { identity } = apiContext(locals).services;
  return new Response(null, { status: 302, headers: { Location: registrationUrl(identity.issuer, `${url.origin}/${locale}/mykomax`), 'Cache-Control': 'no-store' } });
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
