/**
 * The checks of the sign-in callback (spec customer-area §2, §5, §8), pure: both code and state
 * are required ('missing params', with error and error_description when the provider sent
 * them); the state must equal the saved one ('State mismatch'); the code must exist and be a
 * single value ('Failed to acquire authorization code').
 */

/** What the app kept in session storage when it sent the visitor to sign in. */
export interface SavedSignIn {
  state: string;
  verifier: string;
  /** The redirect_uri of the authorization request (the token request must repeat it). */
  redirectUri: string;
  /** The full locale (`de-ch`) the visitor returns to. */
  locale: string;
  /** The same-origin page path to return to instead of the localized /mykomax (a protected page that asked to sign in). */
  returnTo?: string;
}

/** A same-origin absolute path (`/en/service-bulletins`), never `//host` or a scheme. */
const RETURN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~%/]{0,512}$/;

/** Whether a path may be returned to after signing in. */
export const isReturnPath = (path: string): boolean => RETURN_PATH.test(path);

/** The `missing params` message, with the provider's error and description when present. */
export function missingParamsMessage(params: URLSearchParams): string {
  const error = params.get('error');
  const description = params.get('error_description');
  const details = [error && `error: ${error}`, description && `error_description: ${description}`].filter(Boolean);
  return details.length ? `missing params (${details.join(', ')})` : 'missing params';
}

/** The authorization code of a valid callback; throws the spec's error otherwise. */
export function validateCallback(params: URLSearchParams, saved: SavedSignIn | null): { code: string; saved: SavedSignIn } {
  const codes = params.getAll('code');
  const states = params.getAll('state');
  if (codes.length === 0 || states.length === 0 || !states[0]) throw new Error(missingParamsMessage(params));
  if (!saved || states.length !== 1 || states[0] !== saved.state) throw new Error('State mismatch');
  if (codes.length !== 1 || !codes[0]) throw new Error('Failed to acquire authorization code');
  return { code: codes[0], saved };
}

const LOCALE_SEGMENT = /^[a-z]{2}(?:-[a-z]{2})?$/;

/** Reads the saved sign-in parameters; anything unreadable is null (the callback then reports a state mismatch). */
export function parseSavedSignIn(raw: string | null): SavedSignIn | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<SavedSignIn> | null;
    if (!v || typeof v.state !== 'string' || typeof v.verifier !== 'string' || typeof v.redirectUri !== 'string' || typeof v.locale !== 'string') return null;
    // The locale becomes a path segment of the page the callback goes to: never anything else.
    if (!LOCALE_SEGMENT.test(v.locale)) return null;
    const returnTo = typeof v.returnTo === 'string' && isReturnPath(v.returnTo) ? v.returnTo : undefined;
    return { state: v.state, verifier: v.verifier, redirectUri: v.redirectUri, locale: v.locale, ...(returnTo ? { returnTo } : {}) };
  } catch {
    return null;
  }
}
