import { isLevelEnabled, parseLogLevel, type MessageLevel } from '../log/levels.ts';
import { parseSavedSignIn, type SavedSignIn } from './callback.ts';
import { parseStoredTokens, type TokenSet, type TokenStorageName } from './tokens.ts';
import { parseSignedInRecord, signedInRecord, type AuthenticatedUser, type SignedInRecord } from './user.ts';

/**
 * Where the browser keeps the sign-in state (browser only). The token set and the user live in
 * localStorage (a reload or another tab reuses them; never in a cookie, so no request carries them
 * unasked); the parameters of a sign-in in progress in sessionStorage (this tab only); the
 * signed-in record the header menu reads on every page holds names and initials only.
 */
export const TOKENS_KEY = 'kmx.identity.tokens';
export const USER_KEY = 'kmx.identity.user';
export const SIGN_IN_KEY = 'kmx.identity.signIn';
/** The page of another site the visitor came to the customer area from (this tab only): logout returns there. */
export const RETURN_SITE_KEY = 'kmx.identity.returnSite';
/** Read by the header's user menu (src/features/sign-in/user-menu.ts) with a plain script. */
export const SIGNED_IN_KEY = 'kmx.signedIn';
/** Where the token set is kept (the spec's error names the storage). */
export const TOKEN_STORAGE: TokenStorageName = 'localStorage';

/** The browser's log for the sign-in (silent unless `localStorage.logLevel` says otherwise, like every browser log). */
export function identityLog(level: MessageLevel, message: string, ...details: unknown[]): void {
  let configured;
  try {
    configured = parseLogLevel(localStorage.getItem('logLevel')) ?? 'none';
  } catch {
    configured = 'none' as const;
  }
  if (isLevelEnabled(level, configured)) console[level](`[identity] ${message}`, ...details);
}

const store = (name: TokenStorageName): Storage => (name === 'localStorage' ? localStorage : sessionStorage);

/** Writes a value; a failure (quota, privacy mode) is only logged (spec §8). */
function write(storage: Storage, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch (err) {
    identityLog('warn', `could not store ${key}`, err);
  }
}

function remove(storage: Storage, key: string): void {
  try {
    storage.removeItem(key);
  } catch {
    // nothing stored, nothing to remove
  }
}

function read(storage: Storage, key: string): string | null {
  try {
    return storage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * The stored token set; throws the spec's 'Could not parse token object from …' when unreadable.
 * An entry an older release wrote with a refresh token is written again without it.
 */
export function readTokens(name: TokenStorageName = TOKEN_STORAGE): TokenSet | null {
  const raw = read(store(name), TOKENS_KEY);
  const tokens = parseStoredTokens(raw, name);
  if (tokens && raw?.includes('"refreshToken"')) writeTokens(tokens, name);
  return tokens;
}

export function writeTokens(tokens: TokenSet, name: TokenStorageName = TOKEN_STORAGE): void {
  write(store(name), TOKENS_KEY, JSON.stringify(tokens));
}

export function readUser(): AuthenticatedUser | null {
  const raw = read(localStorage, USER_KEY);
  if (!raw) return null;
  try {
    const u = JSON.parse(raw) as AuthenticatedUser;
    return u && typeof u.id === 'string' && Array.isArray(u.roles) ? u : null;
  } catch {
    return null;
  }
}

/** Fired on `window` when the signed-in record changes in this tab (other tabs get a `storage` event). */
export const SIGNED_IN_EVENT = 'kmx:signed-in';

/** Stores the user and the header's signed-in record. */
export function writeUser(user: AuthenticatedUser): void {
  write(localStorage, USER_KEY, JSON.stringify(user));
  write(localStorage, SIGNED_IN_KEY, JSON.stringify(signedInRecord(user)));
  window.dispatchEvent(new Event(SIGNED_IN_EVENT));
}

export function readSignedIn(): SignedInRecord | null {
  return parseSignedInRecord(read(localStorage, SIGNED_IN_KEY));
}

/** Forgets the token set, the user and the signed-in record. */
export function clearSession(name: TokenStorageName = TOKEN_STORAGE): void {
  remove(store(name), TOKENS_KEY);
  remove(localStorage, USER_KEY);
  remove(localStorage, SIGNED_IN_KEY);
  window.dispatchEvent(new Event(SIGNED_IN_EVENT));
}

export function clearTokens(name: TokenStorageName = TOKEN_STORAGE): void {
  remove(store(name), TOKENS_KEY);
}

export function saveSignIn(saved: SavedSignIn): void {
  write(sessionStorage, SIGN_IN_KEY, JSON.stringify(saved));
}

export function readSignIn(): SavedSignIn | null {
  return parseSavedSignIn(read(sessionStorage, SIGN_IN_KEY));
}

export function clearSignIn(): void {
  remove(sessionStorage, SIGN_IN_KEY);
}

/** Remembers the page of another site to return to at logout (validated by the caller, again when read). */
export function saveReturnSite(url: string): void {
  write(sessionStorage, RETURN_SITE_KEY, url);
}

export function readReturnSite(): string | null {
  return read(sessionStorage, RETURN_SITE_KEY);
}

export function clearReturnSite(): void {
  remove(sessionStorage, RETURN_SITE_KEY);
}
