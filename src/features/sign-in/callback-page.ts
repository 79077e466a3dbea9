import { completeSignIn } from '../../lib/identity/session.ts';
import { showSignInFailure } from './failure.ts';

/** The callback page: finishes the sign-in and goes to the localized /mykomax, or shows why it failed. */
export function bootCallback(): void {
  completeSignIn().then((target) => location.replace(target), (err: unknown) => showSignInFailure(err));
}
