import { ensureSession, rememberReturnSite } from '../../lib/identity/session.ts';
import { showSignInFailure } from './failure.ts';

/** Fired on `document` when the customer area's session is ready (`detail.user`). */
export const SESSION_READY_EVENT = 'kmx:session-ready';

/**
 * Every customer-area page (src/layouts/CustomerArea.astro): shows "signing in…" until the session
 * is ready, then the page's content; a failed sign-in shows the error with its countdown. A
 * visitor coming from another site's page (`?return=`) goes back there at logout.
 */
export function bootCustomerArea(): void {
  rememberReturnSite();
  const content = document.querySelector<HTMLElement>('[data-customer-area-content]');
  ensureSession().then(({ user }) => {
    document.querySelector('[data-sign-in-status]')?.setAttribute('hidden', '');
    if (content) content.hidden = false;
    document.dispatchEvent(new CustomEvent(SESSION_READY_EVENT, { detail: { user } }));
  }, (err: unknown) => showSignInFailure(err));
}
