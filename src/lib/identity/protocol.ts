import { IDENTITY_REQUEST_TIMEOUT_MS, SCOPE } from './constants.ts';
import { tokenSetFromResponse, type TokenSet } from './tokens.ts';
import type { UserInfoClaims } from './user.ts';

/**
 * The calls of the sign-in service (spec customer-area §7) that need the spec's own error texts:
 * the authorization URL, the code exchange and the user info. Discovery, revocation and the end
 * session request go through oidc-client-ts (session.ts).
 */

type Fetch = typeof fetch;

export interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  state: string;
  challenge: string;
  prompt?: 'none' | 'login';
}

/** GET authorize with client_id, redirect_uri, response_type code, scope, state, S256 challenge, optional prompt. */
export function authorizeUrl(endpoint: string, p: AuthorizeParams): string {
  const url = new URL(endpoint);
  url.searchParams.set('client_id', p.clientId);
  url.searchParams.set('redirect_uri', p.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', SCOPE);
  url.searchParams.set('state', p.state);
  url.searchParams.set('code_challenge', p.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  if (p.prompt) url.searchParams.set('prompt', p.prompt);
  return url.href;
}

/**
 * POST access token (authorization_code with the saved verifier). A request that never got an
 * answer is 'Unable to exchange authorization for tokens' (its cause kept); any status but 200
 * 'Expected 200, received {status}'; an answer without access token 'Access token not found in response'.
 */
export async function exchangeCode(
  endpoint: string,
  p: { clientId: string; code: string; redirectUri: string; verifier: string },
  opts: { fetch?: Fetch; now?: () => number } = {},
): Promise<TokenSet> {
  const body = new URLSearchParams({ client_id: p.clientId, code: p.code, grant_type: 'authorization_code', redirect_uri: p.redirectUri, code_verifier: p.verifier });
  let res: Response;
  let json: unknown;
  try {
    res = await (opts.fetch ?? fetch)(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(IDENTITY_REQUEST_TIMEOUT_MS),
    });
    if (res.status !== 200) throw new Error(`Expected 200, received ${res.status}`);
    json = await res.json();
  } catch (err) {
    if (err instanceof Error && err.message.startsWith('Expected 200')) throw err;
    throw new Error('Unable to exchange authorization for tokens', { cause: err });
  }
  return tokenSetFromResponse(json, (opts.now ?? Date.now)());
}

/** GET user info with the bearer token; any status but 200 is 'Failed to get user info; received {status}'. */
export async function fetchUserInfo(endpoint: string, accessToken: string, opts: { fetch?: Fetch } = {}): Promise<UserInfoClaims> {
  const res = await (opts.fetch ?? fetch)(endpoint, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' },
    signal: AbortSignal.timeout(IDENTITY_REQUEST_TIMEOUT_MS),
  });
  if (res.status !== 200) throw new Error(`Failed to get user info; received ${res.status}`);
  return (await res.json()) as UserInfoClaims;
}

/** The provider's discovery document (`{issuer}/.well-known/openid-configuration`), the fields the sign-in service reads. */
export interface DiscoveryDocument {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  end_session_endpoint?: string;
  revocation_endpoint?: string;
}

/** Every path of the sign-in service (spec customer-area §7). */
export interface IdentityEndpoints {
  authenticate: string;
  authorize: string;
  accessToken: string;
  endSession: string | null;
  userinfo: string;
  revoke: string | null;
  sessions: string;
}

/** A realm's OAuth 2.0 path: `{base}/oauth2` and, unless it is the root realm, `/realms/root/realms/{name}…`. */
const REALM_PATH = /^(.*)\/oauth2((?:\/realms\/[^/]+)*)\/?$/;

/**
 * The sign-in service's paths from its discovery document (spec customer-area §7): the OAuth 2.0
 * ones as the document names them; the authenticate and sessions paths, which it does not name,
 * from the issuer: the realm's REST (json) tree beside its oauth2 tree. Realms without a realm
 * path are the root realm (json/realms/root/, oauth2/realms/root/).
 * @example identityEndpoints(doc).sessions // 'https://idp/am/json/realms/root/realms/alpha/sessions' for the issuer 'https://idp/am/oauth2/realms/root/realms/alpha'
 */
export function identityEndpoints(doc: DiscoveryDocument): IdentityEndpoints {
  const issuer = new URL(doc.issuer);
  const match = REALM_PATH.exec(issuer.pathname);
  if (!match) throw new Error(`The issuer ${doc.issuer} is no realm of the identity provider (…/oauth2/realms/root/…)`);
  const realm = match[2] || '/realms/root';
  const json = `${issuer.origin}${match[1]}/json${realm}`;
  return {
    authenticate: `${json}/authenticate`,
    authorize: doc.authorization_endpoint,
    accessToken: doc.token_endpoint,
    endSession: doc.end_session_endpoint ?? null,
    userinfo: doc.userinfo_endpoint,
    revoke: doc.revocation_endpoint ?? null,
    sessions: `${json}/sessions`,
  };
}
