import { signOut } from '../../lib/identity/session.ts';
import { showSignInFailure } from './failure.ts';

/** /{locale}/mykomax/logout: revokes, ends the provider's session, clears token and user, home. */
export function bootLogout(): void {
  signOut().catch((err: unknown) => showSignInFailure(err));
}
