import { createHash } from 'node:crypto';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { LRUCache } from 'lru-cache';
import * as v from 'valibot';

/**
 * Verifies the bearer access tokens the customer area sends to our APIs (server only), in two
 * steps. Locally: a JWT signed with a key of the provider's JWKS (`jwks_uri` from its discovery
 * document), of type `at+jwt` (RFC 9068: an ID token, signed with the same key for the same
 * audience, is refused here), issued by the configured issuer for the configured audience, not
 * expired. Then the provider's token introspection (RFC 7662, `introspection_endpoint`) says
 * whether the token is still active, so a revoked token (logout) stops working: a write asks
 * every time, a read reuses an answer for at most `cacheTtlMs` (≤ 30 s).
 */

/** What an API learns from a verified access token. */
export interface VerifiedClaims {
  sub: string;
  scope: string[];
}

export interface VerifierConfig {
  issuer: string;
  audience: string;
  /** How long each request to the provider (discovery, keys, introspection) may take. */
  timeoutMs: number;
  /** The confidential client of the introspection requests; without a secret no token passes (503). */
  introspection: { clientId: string; clientSecret?: string };
  /** How long a read may reuse the provider's answer about a token (ms; 0: ask every time). */
  cacheTtlMs: number;
  /** The clock (tests). */
  now?: () => number;
}

/** The token is missing, malformed, forged, expired, revoked, not an access token, or for another issuer or audience: 401. */
export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}

/** The provider's discovery, keys or introspection could not be used: not the caller's fault (503). */
export class IdentityUnavailableError extends Error {
  override name = 'IdentityUnavailableError';
}

const Discovery = v.object({
  issuer: v.string(),
  jwks_uri: v.pipe(v.string(), v.url()),
  introspection_endpoint: v.optional(v.pipe(v.string(), v.url())),
});

/** The part of an introspection answer we rely on (RFC 7662 §2.2; AM adds more members). */
const Introspection = v.object({
  active: v.boolean(),
  sub: v.optional(v.string()),
  exp: v.optional(v.number()),
});
type Introspection = v.InferOutput<typeof Introspection>;

/** Asymmetric algorithms only: a token must be signed by the provider's private key. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];
/** RFC 9068 §2.1: the JOSE `typ` of an access token (jose also accepts `application/at+jwt`). */
export const ACCESS_TOKEN_TYP = 'at+jwt';
/** The longest a read may reuse an introspection answer: the issue's bound for a revoked token. */
export const MAX_INTROSPECTION_CACHE_MS = 30_000;
/** Tokens remembered at most (hashes and answers only, about 100 bytes each). */
const CACHE_ENTRIES = 10_000;

interface Endpoints {
  jwks: ReturnType<typeof createRemoteJWKSet>;
  introspection?: string;
}

async function discover(config: VerifierConfig): Promise<Endpoints> {
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
  return {
    jwks: createRemoteJWKSet(new URL(parsed.output.jwks_uri), { timeoutDuration: config.timeoutMs }),
    ...(parsed.output.introspection_endpoint ? { introspection: parsed.output.introspection_endpoint } : {}),
  };
}

/** RFC 6749 §2.3.1: HTTP Basic with the form-encoded client id and secret. */
function basicAuth(clientId: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(clientId)}:${enc(secret)}`).toString('base64')}`;
}

/** One introspection request; anything but a well-formed 200 answer is the provider's failure. */
async function introspect(endpoint: string, token: string, config: VerifierConfig, clientSecret: string): Promise<Introspection> {
  let res: Response;
  let body: unknown;
  try {
    res = await fetch(endpoint, {
      method: 'POST',
      headers: { Authorization: basicAuth(config.introspection.clientId, clientSecret), 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    body = res.status === 200 ? await res.json() : undefined;
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? `no answer within ${config.timeoutMs} ms` : (err as Error).message;
    throw new IdentityUnavailableError(`Token introspection at ${endpoint} failed: ${reason}`, { cause: err });
  }
  if (res.status === 401 || res.status === 403) {
    throw new IdentityUnavailableError(`Token introspection at ${endpoint} refused the client ${config.introspection.clientId} (${res.status}): check IDENTITY_INTROSPECTION_CLIENT_ID and IDENTITY_INTROSPECTION_CLIENT_SECRET`);
  }
  if (res.status !== 200) throw new IdentityUnavailableError(`Token introspection at ${endpoint} answered ${res.status}`);
  const parsed = v.safeParse(Introspection, body);
  if (!parsed.success) throw new IdentityUnavailableError(`Token introspection at ${endpoint} answered no RFC 7662 response: ${parsed.issues[0].message}`);
  return parsed.output;
}

export interface VerifyOptions {
  /** Ask the provider now, whatever a read learnt before (every write: POST, PATCH, DELETE …). */
  fresh?: boolean;
}

export type AccessTokenVerifier = (token: string, opts?: VerifyOptions) => Promise<VerifiedClaims>;

/** The scope claim as a list (a space-separated string in RFC 9068, a list in some providers). */
export function scopeList(scope: unknown): string[] {
  if (Array.isArray(scope)) return scope.filter((s): s is string => typeof s === 'string');
  return typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
}

/** Whether a request of this method only reads (its token check may use a recent answer). */
export const isReadMethod = (method: string): boolean => method === 'GET' || method === 'HEAD';

/**
 * A verifier for one issuer and audience. The discovery document is read once (again after a
 * failure); jose keeps the JWKS and refetches it when a token names an unknown key. Introspection
 * answers are kept per token (by its SHA-256) until `cacheTtlMs` passed or the token expired,
 * whichever comes first; reads of one token share one request in flight.
 */
/** How often the provider was asked, and how often a read used an answer it had or shared a request in flight (for logs and tests). */
export interface IntrospectionStats { requests: number; cached: number; shared: number }

export function createAccessTokenVerifier(config: VerifierConfig): AccessTokenVerifier & { stats(): IntrospectionStats } {
  const now = config.now ?? Date.now;
  const ttl = Math.min(Math.max(0, config.cacheTtlMs), MAX_INTROSPECTION_CACHE_MS);
  let endpoints: Promise<Endpoints> | null = null;
  const discovered = () => {
    endpoints ??= discover(config);
    endpoints.catch(() => { endpoints = null; });
    return endpoints;
  };
  const answers = new LRUCache<string, { answer: Introspection; until: number }>({ max: CACHE_ENTRIES });
  const inflight = new Map<string, Promise<Introspection>>();
  const counts: IntrospectionStats = { requests: 0, cached: 0, shared: 0 };

  const ask = async (token: string, key: string, exp: number): Promise<Introspection> => {
    const secret = config.introspection.clientSecret;
    if (!secret) throw new IdentityUnavailableError('Token introspection is not configured (IDENTITY_INTROSPECTION_CLIENT_SECRET is unset): no access token is accepted');
    const { introspection } = await discovered();
    if (!introspection) throw new IdentityUnavailableError(`The identity provider ${config.issuer} names no introspection_endpoint in its discovery document`);
    counts.requests++;
    const answer = await introspect(introspection, token, config, secret);
    const until = Math.min(now() + ttl, exp * 1000);
    if (ttl > 0 && until > now()) answers.set(key, { answer, until });
    return answer;
  };

  const status = (token: string, exp: number, fresh: boolean): Promise<Introspection> => {
    const key = createHash('sha256').update(token).digest('base64url');
    if (fresh) return ask(token, key, exp);
    const hit = answers.get(key);
    if (hit && hit.until > now()) {
      counts.cached++;
      return Promise.resolve(hit.answer);
    }
    let pending = inflight.get(key);
    if (pending) counts.shared++;
    else {
      pending = ask(token, key, exp).finally(() => inflight.delete(key));
      inflight.set(key, pending);
    }
    return pending;
  };

  const verify: AccessTokenVerifier = async (token, opts = {}) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, (await discovered()).jwks, {
        issuer: config.issuer, audience: config.audience, algorithms: ALGORITHMS, typ: ACCESS_TOKEN_TYP, requiredClaims: ['sub', 'exp'],
      }));
    } catch (err) {
      if (err instanceof IdentityUnavailableError) throw err;
      if (err instanceof errors.JWKSTimeout || (err instanceof Error && !(err instanceof errors.JOSEError))) {
        throw new IdentityUnavailableError(`Identity keys could not be loaded: ${err.message}`, { cause: err });
      }
      if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'typ') throw new InvalidTokenError('The bearer token is not an access token', { cause: err });
      throw new InvalidTokenError(err instanceof errors.JWTExpired ? 'The access token has expired' : 'The access token is not valid', { cause: err });
    }
    const answer = await status(token, payload.exp!, !!opts.fresh);
    if (!answer.active) throw new InvalidTokenError('The access token is no longer active (revoked or signed out)');
    // The provider's word about this very token: a different subject is a provider fault we do not trust.
    if (answer.sub !== undefined && answer.sub !== payload.sub) throw new InvalidTokenError('The access token is not valid');
    return { sub: payload.sub!, scope: scopeList(payload.scope) };
  };
  return Object.assign(verify, { stats: () => ({ ...counts }) });
}

const verifiers = new Map<string, AccessTokenVerifier>();
/** The process's verifier for a configuration (one discovery, key and introspection cache per issuer, audience and client). */
export function accessTokenVerifier(config: VerifierConfig): AccessTokenVerifier {
  const key = JSON.stringify([config.issuer, config.audience, config.introspection.clientId, config.introspection.clientSecret ?? '', config.cacheTtlMs]);
  let verifier = verifiers.get(key);
  if (!verifier) {
    verifier = createAccessTokenVerifier(config);
    verifiers.set(key, verifier);
  }
  return verifier;
}
