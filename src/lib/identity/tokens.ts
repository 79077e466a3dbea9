import { OAUTH_THRESHOLD_MS, RENEW_THRESHOLD_MS } from './constants.ts';

/**
 * The stored token set of spec customer-area §3, without its refresh token: the browser renews in
 * the hidden frame and never uses one, so none is kept where a script could read it (issue 28).
 */
export interface TokenSet {
  accessToken: string;
  idToken?: string;
  /** When the access token expires, ms since the epoch (now + expires_in × 1000). */
  tokenExpiry: number;
}

/** Where a token set may be kept; the name is part of the spec's error text. */
export type TokenStorageName = 'localStorage' | 'sessionStorage';

/**
 * The token set of a token endpoint answer received at `now` (a refresh token in it is dropped);
 * without an access token the spec's error 'Access token not found in response'.
 */
export function tokenSetFromResponse(body: unknown, now: number): TokenSet {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (typeof b.access_token !== 'string' || !b.access_token) throw new Error('Access token not found in response');
  const expiresIn = typeof b.expires_in === 'number' ? b.expires_in : Number(b.expires_in);
  return {
    accessToken: b.access_token,
    ...(typeof b.id_token === 'string' ? { idToken: b.id_token } : {}),
    tokenExpiry: now + (Number.isFinite(expiresIn) ? expiresIn : 0) * 1000,
  };
}

/**
 * Spec §4 step 1: the stored token is reused when present, not force-renewed and not within
 * 180 s of expiry.
 */
export function shouldReuse(tokens: TokenSet | null, now: number, forceRenew = false): tokens is TokenSet {
  return !!tokens && !forceRenew && tokens.tokenExpiry - now > RENEW_THRESHOLD_MS;
}

/**
 * How long a page that stays open waits before renewing: until 180 s before expiry, or, for a
 * token that lives shorter, until the OAuth threshold (30 s) before expiry; at once when that
 * has passed.
 * @example renewDelay(now + 3_600_000, now) // 3_420_000
 * @example renewDelay(now + 120_000, now)   // 90_000
 */
export function renewDelay(tokenExpiry: number, now: number): number {
  const left = tokenExpiry - now;
  if (left - RENEW_THRESHOLD_MS > 0) return left - RENEW_THRESHOLD_MS;
  return Math.max(0, left - OAUTH_THRESHOLD_MS);
}

/**
 * A stored token set; null when nothing is stored. Anything unreadable is the spec's error
 * 'Could not parse token object from localStorage' (or sessionStorage). A refresh token an older
 * release stored is not taken over.
 */
export function parseStoredTokens(raw: string | null, storage: TokenStorageName): TokenSet | null {
  if (raw === null) return null;
  const fail = () => new Error(`Could not parse token object from ${storage}`);
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw fail();
  }
  const t = v as Partial<TokenSet> | null;
  if (!t || typeof t !== 'object' || typeof t.accessToken !== 'string' || typeof t.tokenExpiry !== 'number') throw fail();
  return {
    accessToken: t.accessToken,
    ...(typeof t.idToken === 'string' ? { idToken: t.idToken } : {}),
    tokenExpiry: t.tokenExpiry,
  };
}
