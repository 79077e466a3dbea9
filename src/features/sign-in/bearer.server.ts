import type { APIContext } from 'astro';
import { json } from '../../lib/http/json.ts';
import { getLogger } from '../../lib/log/index.ts';
import { accessTokenVerifier, IdentityUnavailableError, type VerifiedClaims } from '../../lib/identity/verify.server.ts';
import { apiContext } from '../platform/context.ts';

export type { VerifiedClaims } from '../../lib/identity/verify.server.ts';

const log = getLogger('sign-in');

/** A 401 answer (RFC 6750): JSON `{ error }`, `WWW-Authenticate: Bearer`, never stored. */
export function unauthorized(message: string, invalidToken = false): Response {
  const res = json({ error: message }, 401);
  res.headers.set('WWW-Authenticate', invalidToken ? 'Bearer error="invalid_token"' : 'Bearer');
  return res;
}

/** The token of an `Authorization: Bearer <token>` header, else null. */
export function bearerToken(header: string | null): string | null {
  const m = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header ?? '');
  return m ? m[1]! : null;
}

/**
 * The guard of every customer-area API: the verified claims of the request's bearer access token
 * (signature against the provider's JWKS, issuer, audience, expiry) and the token itself (to call
 * identity management on the user's behalf), or the 401 to answer (503 when the provider's keys
 * cannot be loaded).
 * @example
 *   const auth = await requireUser(context);
 *   if (auth instanceof Response) return auth;
 */
export async function requireUser(context: APIContext): Promise<{ claims: VerifiedClaims; accessToken: string } | Response> {
  const accessToken = bearerToken(context.request.headers.get('authorization'));
  if (!accessToken) return unauthorized('An access token is required (Authorization: Bearer …)');
  const { identity } = apiContext(context.locals).services;
  try {
    const claims = await accessTokenVerifier({ issuer: identity.issuer, audience: identity.audience, timeoutMs: identity.timeouts.timeoutMs })(accessToken);
    return { claims, accessToken };
  } catch (err) {
    if (err instanceof IdentityUnavailableError) {
      log.error(err.message);
      return json({ error: 'The identity provider is not reachable right now' }, 503);
    }
    return unauthorized((err as Error).message, true);
  }
}
