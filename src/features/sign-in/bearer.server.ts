import type { APIContext } from 'astro';
import { json } from '../../lib/http/json.ts';
import { getLogger } from '../../lib/log/index.ts';
import { accessTokenVerifier, IdentityUnavailableError, isReadMethod, type VerifiedClaims } from '../../lib/identity/verify.server.ts';
import { userInfoOf } from '../../lib/identity/userinfo.server.ts';
import { apiContext } from '../platform/context.ts';

export type { VerifiedClaims } from '../../lib/identity/verify.server.ts';

/** The signed-in caller of a customer-area API: the verified claims and the token (to act on the user's behalf). */
export interface CustomerUser {
  claims: VerifiedClaims;
  accessToken: string;
}

/** The guard of a customer-area API (`requireUser`; tests pass their own): the caller, or the answer refusing them. */
export type UserGuard = (context: APIContext) => Promise<CustomerUser | Response>;

const log = getLogger('sign-in');

/** A 401 answer (RFC 6750): JSON `{ error: 'unauthorized', message }`, `WWW-Authenticate: Bearer`, never stored. */
export function unauthorized(message: string, invalidToken = false): Response {
  const res = json({ error: 'unauthorized', message }, 401);
  res.headers.set('WWW-Authenticate', invalidToken ? 'Bearer error="invalid_token"' : 'Bearer');
  return res;
}

/** The token of an `Authorization: Bearer <token>` header, else null. */
export function bearerToken(header: string | null): string | null {
  const m = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header ?? '');
  return m ? m[1]! : null;
}

/** The 503 of a token the provider could not confirm (its discovery, keys or introspection failed). */
export const IDENTITY_UNAVAILABLE = 'The identity provider could not confirm the sign-in right now. Please try again in a moment.';

/**
 * The guard of every customer-area API: the verified claims of the request's bearer access token
 * (an `at+jwt` access token: signature against the provider's JWKS, issuer, audience, expiry; then
 * the provider's introspection says it is still active, for a write always, for a read within the
 * last IDENTITY_INTROSPECTION_CACHE_SECONDS) and the token itself (to call identity management on
 * the user's behalf), or the 401 to answer (503 when the provider cannot confirm it).
 * @example
 *   export const getThing = endpoint(READ_ONLY, checked({ auth: requireUser }, ({ user }) => json({ sub: user.claims.sub })));
 */
export const requireUser: UserGuard = async (context) => {
  const accessToken = bearerToken(context.request.headers.get('authorization'));
  if (!accessToken) return unauthorized('An access token is required (Authorization: Bearer …)');
  const { identity } = apiContext(context.locals).services;
  try {
    const verify = accessTokenVerifier({
      issuer: identity.issuer,
      audience: identity.audience,
      timeoutMs: identity.timeouts.timeoutMs,
      introspection: identity.introspection,
      cacheTtlMs: identity.introspection.cacheTtlMs,
    });
    const claims = await verify(accessToken, { fresh: !isReadMethod(context.request.method) });
    return { claims, accessToken };
  } catch (err) {
    if (err instanceof IdentityUnavailableError) {
      log.error(err.message);
      const res = json({ error: 'unavailable', message: IDENTITY_UNAVAILABLE }, 503);
      res.headers.set('Retry-After', '30');
      return res;
    }
    return unauthorized((err as Error).message, true);
  }
};

/** A signed-in caller and the roles the provider's user info gives them. */
export interface CustomerUserWithRoles extends CustomerUser {
  roles: string[];
}

/**
 * `requireUser` and then the caller's roles from the provider's user info (never the browser's
 * word): 403 without every one of `roles` (a list among them is met by any one of its roles); 503
 * when the provider cannot be asked, 401 when it refuses the token. `requireRoles()` (no role)
 * gives the roles for the handler to decide.
 * @example endpoint(LIMITS, { auth: requireRoles('tickets:read') }, ({ user }) => …)
 * @example requireRoles([DELEGATED_ADMIN_INTERNAL_ROLE, DELEGATED_ADMIN_EXTERNAL_ROLE]) // either admin role
 */
export function requireRoles(...roles: (string | readonly string[])[]): (context: APIContext) => Promise<CustomerUserWithRoles | Response> {
  return async (context) => {
    const user = await requireUser(context);
    if (user instanceof Response) return user;
    const { identity } = apiContext(context.locals).services;
    let granted: string[];
    try {
      const info = await userInfoOf(identity.issuer, user.accessToken, identity.timeouts.timeoutMs);
      if (info.id !== user.claims.sub) return unauthorized('The user info does not belong to the access token', true);
      granted = info.roles;
    } catch (err) {
      if (err instanceof IdentityUnavailableError) {
        log.error(err.message);
        const res = json({ error: 'unavailable', message: IDENTITY_UNAVAILABLE }, 503);
        res.headers.set('Retry-After', '30');
        return res;
      }
      return unauthorized('The access token was refused by the identity provider', true);
    }
    const missing = roles.filter((role) => (typeof role === 'string' ? !granted.includes(role) : !role.some((r) => granted.includes(r))));
    if (missing.length) return json({ error: 'forbidden', message: 'Your account has no access to this.' }, 403);
    return { ...user, roles: granted };
  };
}
