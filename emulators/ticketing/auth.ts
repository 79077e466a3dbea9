// Who is calling: the `x-identity-token` header verified against the identity provider's keys
// (discovery → jwks_uri, jose's remote key set), issuer, audience and expiry.
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import * as v from 'valibot';

export const IDENTITY_TOKEN_HEADER = 'x-identity-token';
export const DEFAULT_AUDIENCE = 'kmx-web';

export interface Caller {
  sub: string;
  /** The e-mail claim when the token has one (ID tokens do; access tokens do not). */
  email?: string;
  /** The caller's roles: the token's `roles` claim, else the issuer's userinfo for this (access) token. */
  roles(): Promise<string[]>;
}

/** The token is missing, malformed, forged, expired, for another audience or from another issuer. */
export class Unauthenticated extends Error {
  override name = 'Unauthenticated';
}

/** The identity provider cannot be reached to check the token (its discovery or keys). */
export class IdentityUnavailable extends Error {
  override name = 'IdentityUnavailable';
}

const Discovery = v.object({ issuer: v.string(), jwks_uri: v.pipe(v.string(), v.url()), userinfo_endpoint: v.optional(v.pipe(v.string(), v.url())) });
const Roles = v.array(v.string());
const Userinfo = v.object({ sub: v.string(), roles: v.optional(Roles, []) });
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export interface TokenVerifier {
  verify(token: string | undefined): Promise<Caller>;
}

/**
 * Verifies identity tokens of `issuer` (RS256, `aud` must contain `audience`, `exp` required). The
 * discovery document is read on first use and again after a failure; the key set is jose's, which
 * refetches on an unknown key id.
 */
export function tokenVerifier(opts: { issuer: string; audience?: string; timeoutMs?: number }): TokenVerifier {
  const issuer = opts.issuer.replace(/\/+$/, '');
  const audience = opts.audience ?? DEFAULT_AUDIENCE;
  const timeoutMs = opts.timeoutMs ?? 5000;
  let discovered: Promise<{ jwks: ReturnType<typeof createRemoteJWKSet>; userinfo?: string }> | undefined;
  const discover = () => {
    discovered ??= (async () => {
      const res = await fetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) throw new Error(`discovery answered ${res.status}`);
      const doc = v.parse(Discovery, await res.json());
      if (doc.issuer !== issuer) throw new Error(`discovery names issuer ${doc.issuer}`);
      return { jwks: createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: timeoutMs }), userinfo: doc.userinfo_endpoint };
    })().catch((err: unknown) => {
      discovered = undefined;
      throw new IdentityUnavailable(`identity provider ${issuer} unavailable: ${(err as Error).message}`, { cause: err });
    });
    return discovered;
  };
  // Roles looked up at userinfo, per access token, until it expires (bounded).
  const rolesCache = new Map<string, { roles: Promise<string[]>; exp: number }>();

  const rolesFromUserinfo = (token: string, payload: JWTPayload, endpoint: string | undefined): Promise<string[]> => {
    const now = Date.now() / 1000;
    const hit = rolesCache.get(token);
    if (hit && hit.exp > now) return hit.roles;
    if (rolesCache.size > 500) for (const [k, e] of rolesCache) if (e.exp <= now || rolesCache.size > 500) rolesCache.delete(k);
    const roles = (async () => {
      if (!endpoint) return [];
      const res = await fetch(endpoint, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(timeoutMs) });
      if (res.status === 401) throw new Unauthenticated('the identity provider no longer accepts this token');
      if (!res.ok) throw new IdentityUnavailable(`userinfo answered ${res.status}`);
      const info = v.parse(Userinfo, await res.json());
      if (info.sub !== payload.sub) throw new Unauthenticated('userinfo is about another subject');
      return info.roles;
    })();
    roles.catch(() => rolesCache.delete(token));
    rolesCache.set(token, { roles, exp: Math.min(payload.exp ?? 0, now + 60) });
    return roles;
  };

  return {
    async verify(token) {
      if (!token || !JWT_SHAPE.test(token)) throw new Unauthenticated('no identity token');
      const { jwks, userinfo } = await discover();
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, jwks, { issuer, audience, algorithms: ['RS256'], requiredClaims: ['exp', 'sub'] }));
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        // jose's own errors (ERR_JWS_…, ERR_JWT_…, ERR_JWKS_NO_MATCHING_KEY …) judge the token; anything else
        // (ERR_JWKS_TIMEOUT, a failed fetch of the key set) means the keys could not be read.
        if (code === 'ERR_JWKS_TIMEOUT' || !code.startsWith('ERR_J')) throw new IdentityUnavailable('identity keys unavailable', { cause: err });
        throw new Unauthenticated(`invalid identity token (${code || (err as Error).message})`, { cause: err });
      }
      const sub = payload.sub!;
      const claimed = v.safeParse(Roles, payload.roles);
      return {
        sub,
        email: typeof payload.email === 'string' ? payload.email : undefined,
        roles: () => (claimed.success ? Promise.resolve(claimed.output) : rolesFromUserinfo(token, payload, userinfo)),
      };
    },
  };
}
