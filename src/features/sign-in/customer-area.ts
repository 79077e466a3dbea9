import { ensureSession, rememberReturnSite } from '../../lib/identity/session.ts';
import { showSignInFailure } from './failure.ts';

/** Fired on `document` when the customer area's session is ready (`detail.user`). */
export const SESSION_READY_EVENT = 'kmx:session-ready';

/**
 * Every customer-area page (src/layouts/CustomerArea.astro): shows "signing in…" over the
 * invisible page until the session is ready, then the page and the portal navigation, which
 * `keepNavItem` (the layout's rule: the pages the user's roles open) has trimmed first; a failed
 * sign-in shows the error with its countdown instead. A visitor coming from another site's page
 * (`?return=`) goes back there at logout.
 */
export function bootCustomerArea(keepNavItem: (item: string, roles: readonly string[]) => boolean): void {
  rememberReturnSite();
  const content = document.querySelector<HTMLElement>('[data-customer-area-content]');
  const nav = document.querySelector<HTMLElement>('[data-portal-nav]');
  ensureSession().then(({ user }) => {
    for (const item of nav?.querySelectorAll<HTMLElement>('[data-portal-item]') ?? []) {
      if (!keepNavItem(item.dataset.portalItem ?? '', user.roles)) item.remove();
    }
    document.querySelector('[data-sign-in-status]')?.setAttribute('hidden', '');
    nav?.removeAttribute('data-pending');
    content?.removeAttribute('data-pending');
    document.dispatchEvent(new CustomEvent(SESSION_READY_EVENT, { detail: { user } }));
  }, (err: unknown) => {
    if (nav) nav.hidden = true;
    if (content) content.hidden = true;
    showSignInFailure(err);
  });
}
