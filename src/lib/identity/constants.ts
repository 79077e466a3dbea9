/**
 * The sign-in constants of spec customer-area §9, named once. Every other module imports them
 * from here.
 */

/** A stored token is reused only while it has more than this left (spec §4 step 1: 180 s). */
export const RENEW_THRESHOLD_MS = 180_000;
/** How long the hidden-frame (silent) authorization may take ("sign-in server timeout"). */
export const SIGN_IN_TIMEOUT_MS = 3000;
/** How long one request to the identity provider (discovery, token, user info, revoke) may take. */
export const IDENTITY_REQUEST_TIMEOUT_MS = 5000;
/**
 * The OAuth threshold: the latest a renewal runs before expiry. A page left open renews its token
 * {@link RENEW_THRESHOLD_MS} before expiry, or this long before when the token lives shorter
 * (a 120 s token is renewed after 90 s).
 */
export const OAUTH_THRESHOLD_MS = 30_000;
/** After a failed sign-in the visitor waits this long, then lands on the error page. */
export const ERROR_PAGE_WAIT_MS = 30_000;
/** PKCE: random bytes of the state and of the code verifier. */
export const PKCE_STATE_BYTES = 16;
export const PKCE_VERIFIER_BYTES = 32;

/** The scope the app asks for (spec §7: openid, profile, email plus the identity-management scope). */
export const SCOPE = 'openid profile email fr:idm:*';
/** Path of the empty page the hidden frame returns to. */
export const BLANK_CALLBACK_PATH = '/blank-callback';
