import { PKCE_STATE_BYTES, PKCE_VERIFIER_BYTES } from './constants.ts';

/** base64url without padding (RFC 7636 appendix A). */
export function base64Url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const randomString = (bytes: number): string => base64Url(crypto.getRandomValues(new Uint8Array(bytes)));

/** The S256 code challenge of a verifier. */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/** A fresh state (16 random bytes) and code verifier (32 random bytes) with its S256 challenge (spec §9). */
export async function createPkce(): Promise<{ state: string; verifier: string; challenge: string }> {
  const state = randomString(PKCE_STATE_BYTES);
  const verifier = randomString(PKCE_VERIFIER_BYTES);
  return { state, verifier, challenge: await codeChallenge(verifier) };
}
