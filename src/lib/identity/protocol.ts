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
