import * as v from 'valibot';
import { fetchUserInfo } from './protocol.ts';
import { userFromUserInfo, type AuthenticatedUser } from './user.ts';
import { IdentityUnavailableError } from './verify.server.ts';

/**
 * The user info of an access token, read by the server (the roles a protected page needs are the
 * provider's word, as on the dashboard, never the browser's). The user info endpoint comes from
 * the provider's discovery document, read once per issuer (again after a failure).
 */
const Discovery = v.object({ issuer: v.string(), userinfo_endpoint: v.pipe(v.string(), v.url()) });
const endpoints = new Map<string, Promise<string>>();

async function discoverUserInfo(issuer: string, timeoutMs: number): Promise<string> {
  const url = `${issuer}/.well-known/openid-configuration`;
  let body: unknown;
  try {
    const res = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs) });
    if (res.status !== 200) throw new Error(`Expected 200, received ${res.status}`);
    body = await res.json();
  } catch (err) {
    throw new IdentityUnavailableError(`Identity discovery at ${url} failed: ${(err as Error).message}`, { cause: err });
  }
  const parsed = v.safeParse(Discovery, body);
  if (!parsed.success || parsed.output.issuer !== issuer) throw new IdentityUnavailableError(`Identity discovery at ${url} names no user info endpoint of ${issuer}`);
  return parsed.output.userinfo_endpoint;
}

/**
 * The user behind a (verified) access token, from the provider's user info. Throws
 * IdentityUnavailableError when the provider cannot be asked, an Error when it refuses the token.
 */
export async function userInfoOf(issuer: string, accessToken: string, timeoutMs: number): Promise<AuthenticatedUser> {
  let endpoint = endpoints.get(issuer);
  if (!endpoint) {
    endpoint = discoverUserInfo(issuer, timeoutMs);
    endpoints.set(issuer, endpoint);
    endpoint.catch(() => endpoints.delete(issuer));
  }
  let claims;
  try {
    claims = await fetchUserInfo(await endpoint, accessToken);
  } catch (err) {
    if (err instanceof IdentityUnavailableError) throw err;
    if (err instanceof Error && err.message.startsWith('Failed to get user info')) throw err;
    throw new IdentityUnavailableError(`User info failed: ${(err as Error).message}`, { cause: err });
  }
  return userFromUserInfo(claims);
}
