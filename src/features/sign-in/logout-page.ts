import { rememberReturnSite, signOut } from '../../lib/identity/session.ts';
import { showSignInFailure } from './failure.ts';

/**
 * /{locale}/mykomax/logout: revokes, ends the provider's session, clears token and user, then home,
 * or back to the site the visitor came from (`?return=` here or on an earlier customer-area page).
 */
export function bootLogout(): void {
  rememberReturnSite();
  signOut().catch((err: unknown) => showSignInFailure(err));
}
