import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import * as v from 'valibot';

/**
 * Verifies the bearer access tokens the customer area sends to our APIs (server only): a JWT
 * signed with a key of the provider's JWKS (`jwks_uri` from its discovery document), issued by
 * the configured issuer for the configured audience, not expired.
 */

/** What an API learns from a verified access token. */
export interface VerifiedClaims {
  sub: string;
  scope: string[];
}

export interface VerifierConfig {
  issuer: string;
  audience: string;
  /** How long the discovery and JWKS requests may take. */
  timeoutMs: number;
}

/** The token is missing, malformed, forged, expired, or for another issuer or audience: 401. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/** The provider's discovery or keys could not be loaded: not the caller's fault (503). */
export class IdentityUnavailableError extends Error {
  override name = 'IdentityUnavailableError';
}

const Discovery = v.object({ issuer: v.string(), jwks_uri: v.pipe(v.string(), v.url()) });

/** Asymmetric algorithms only: a token must be signed by the provider's private key. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];

async function discover(config: VerifierConfig): Promise<URL> {
  const url = `${config.issuer}/.well-known/openid-configuration`;
  let body: unknown;
  try {
    const res = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(config.timeoutMs) });
    if (res.status !== 200) throw new Error(`Expected 200, received ${res.status}`);
    body = await res.json();
  } catch (err) {
    throw new IdentityUnavailableError(`Identity discovery at ${url} failed: ${(err as Error).message}`, { cause: err });
  }
  const parsed = v.safeParse(Discovery, body);
  if (!parsed.success) throw new IdentityUnavailableError(`Identity discovery at ${url}: ${parsed.issues[0].message}`);
  if (parsed.output.issuer !== config.issuer) throw new IdentityUnavailableError(`Identity discovery names issuer ${parsed.output.issuer}, expected ${config.issuer}`);
  return new URL(parsed.output.jwks_uri);
}

export type AccessTokenVerifier = (token: string) => Promise<VerifiedClaims>;

/** The scope claim as a list (a space-separated string in RFC 9068, a list in some providers). */
export function scopeList(scope: unknown): string[] {
  if (Array.isArray(scope)) return scope.filter((s): s is string => typeof s === 'string');
  return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
}

/**
 * A verifier for one issuer and audience. The discovery document is read once (again after a
 * failure); jose keeps the JWKS and refetches it when a token names an unknown key.
 */
export function createAccessTokenVerifier(config: VerifierConfig): AccessTokenVerifier {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | null = null;
  const jwks = () => {
    keys ??= discover(config).then((uri) => createRemoteJWKSet(uri, { timeoutDuration: config.timeoutMs }));
    keys.catch(() => { keys = null; });
    return keys;
  };
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await jwks(), { issuer: config.issuer, audience: config.audience, algorithms: ALGORITHMS, requiredClaims: ['sub', 'exp'] }));
    } catch (err) {
      if (err instanceof IdentityUnavailableError) throw err;
      if (err instanceof errors.JWKSTimeout || (err instanceof Error && !(err instanceof errors.JOSEError))) {
        throw new IdentityUnavailableError(`Identity keys could not be loaded: ${err.message}`, { cause: err });
      }
      throw new InvalidTokenError(err instanceof errors.JWTExpired ? 'The access token has expired' : 'The access token is not valid', { cause: err });
    }
    return { sub: payload.sub!, scope: scopeList(payload.scope) };
  };
}

const verifiers = new Map<string, AccessTokenVerifier>();
/** The process's verifier for a configuration (one discovery and key cache per issuer and audience). */
export function accessTokenVerifier(config: VerifierConfig): AccessTokenVerifier {
  const key = `${config.issuer} ${config.audience}`;
  let verifier = verifiers.get(key);
  if (!verifier) {
    verifier = createAccessTokenVerifier(config);
    verifiers.set(key, verifier);
  }
  return verifier;
}
