import type { APIContext } from 'astro';
import * as v from 'valibot';
import { getPageProtection, getPagesById } from '../../lib/content/index.ts';
import { JSON_TYPE, readJsonBody } from '../../lib/http/body.ts';
import { endpoint, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { json } from '../../lib/http/json.ts';
import { getLogger } from '../../lib/log/index.ts';
import { userInfoOf } from '../../lib/identity/userinfo.server.ts';
import { IdentityUnavailableError } from '../../lib/identity/verify.server.ts';
import { localizedPath } from '../../site/paths.ts';
import { apiContext } from '../platform/context.ts';
import { requireUser, type CustomerUser } from '../sign-in/bearer.server.ts';
import { grantCookies, isPageId, ROLE_GRANT_SECONDS } from './grant.server.ts';
import { grantedResponse } from './gate.server.ts';

const log = getLogger('protected-pages');

const Body = v.object({
  pageId: v.pipe(v.string('pageId must be a string'), v.check(isPageId, 'pageId must be a page id')),
  /** The URL path of the protected page the grant is for (`/en/service-bulletins`): the cookie's Path. */
  path: v.pipe(v.string('path must be a string'), v.maxLength(512), v.regex(/^\/[a-z]{2}(?:-[a-z]{2})?(?:\/[A-Za-z0-9\-._~]+)+$/, 'path must be the page\'s URL path')),
});

/**
 * POST /api/protected-pages/grant with `Authorization: Bearer <access token>` and
 * `{ pageId, path }`: the grant of a CIAM-role page (protection 2) for a signed-in user who has
 * the page's role. The token is verified (signature, iss, aud, exp: `requireUser`), the roles come
 * from the provider's user info (never from the browser), the role from the content hub. Answers
 * 204 with the grant cookie (15 minutes, scoped to the page's path); 401 without a valid token;
 * 403 `{ error, message }` without the role; 404 when `pageId` names no role-protected page at `path`;
 * 400, 413, 415 for a bad body; 503 when the provider or the hub cannot be asked. Never stored.
 */
const grantHandler = async ({ context, user: auth }: { context: APIContext; user: CustomerUser }): Promise<Response> => {
  const body = await readJsonBody(context.request, 1024);
  if (body.kind === 'unsupported') return json({ error: 'unsupported-media-type', message: 'Send JSON (Content-Type: application/json)' }, 415);
  if (body.kind === 'too-large') return json({ error: 'too-large', message: 'The body is too large' }, 413);
  if (body.kind === 'malformed') return json({ error: 'bad-request', message: 'Malformed body: not JSON' }, 400);
  const parsed = v.safeParse(Body, body.value);
  if (!parsed.success) return json({ error: parsed.issues[0].message }, 400);
  const { pageId, path } = parsed.output;

  const { services, system } = apiContext(context.locals);
  const content = { config: services.content, locales: ['en'], stage: 'PUBLISHED' as const };
  const [protection, [page]] = await Promise.all([getPageProtection(content, pageId), getPagesById(content, [pageId])]);
  const site = page?.siteId ? system.sites.find((s) => s.id === page.siteId) : undefined;
  const locale = path.split('/')[1]!;
  if (!protection || protection.protection !== 2 || !page || !site || localizedPath(site, { urlCode: locale }, page.path) !== path) {
    return json({ error: 'not-found', message: 'No role-protected page at this path' }, 404);
  }

  let roles: string[];
  try {
    const user = await userInfoOf(services.identity.issuer, auth.accessToken, services.identity.timeouts.timeoutMs);
    if (user.id !== auth.claims.sub) return json({ error: 'unauthorized', message: 'The user info does not belong to the access token' }, 401);
    roles = user.roles;
  } catch (err) {
    if (err instanceof IdentityUnavailableError) {
      log.error(err.message);
      return json({ error: 'unavailable', message: 'The identity provider is not reachable right now' }, 503);
    }
    log.info({ err }, 'user info refused the access token');
    return json({ error: 'unauthorized', message: 'The access token was refused by the identity provider' }, 401);
  }
  if (!protection.requiredRole || !roles.includes(protection.requiredRole)) return json({ error: 'forbidden', message: 'Your account has no access to this page' }, 403);

  return grantedResponse(204, null, grantCookies({ pageId, path, ttlSeconds: ROLE_GRANT_SECONDS, secret: services.pageGrantSecret, url: context.url }));
};

/** JSON of at most 1 KiB; a visitor opens a few role pages a minute: 30 grants per client and minute. */
export const GRANT_LIMITS: EndpointLimits = { body: { maxBytes: 1024, types: [JSON_TYPE] }, rateLimit: { limit: 30, windowMs: 60_000 } };

/** POST /api/protected-pages/grant behind its limits. */
export const postGrant = endpoint(GRANT_LIMITS, { auth: requireUser }, grantHandler);
