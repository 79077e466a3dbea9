import { readSignedIn, SIGNED_IN_EVENT, SIGNED_IN_KEY } from '../../lib/identity/storage.ts';
import { withReturn } from '../../site/return-target.ts';

/**
 * The header's user menu (plain script, on every page): signed out it offers log in and
 * register, signed in the initials and the customer-area entries. It reads only the non-secret
 * signed-in record the session code writes (names, initials); no sign-in code loads here.
 * On a site with its own host the links lead to the main site's customer area: they get this
 * page as the way back (`?return=`), added here so the prerendered menu is one for every page.
 */
export function initUserMenu(): void {
  const here = new URL(location.href);
  for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-user-menu] a[href]')) {
    link.href = withReturn(link.getAttribute('href')!, here);
  }
  const render = () => {
    const record = readSignedIn();
    for (const menu of document.querySelectorAll<HTMLElement>('[data-user-menu]')) {
      const q = <T extends HTMLElement>(sel: string) => menu.querySelector<T>(sel);
      q('[data-signed-out]')!.hidden = !!record;
      q('[data-signed-in]')!.hidden = !record;
      const initials = q('[data-user-menu-initials]')!;
      initials.hidden = !record;
      initials.textContent = record?.initials ?? '';
      const label = q('[data-user-menu-label]')!;
      label.textContent = record ? (label.dataset.labelSignedIn ?? '').replace('{name}', record.fullName) : (label.dataset.labelSignedOut ?? '');
      label.classList.toggle('visually-hidden', !!record);
    }
  };
  render();
  window.addEventListener(SIGNED_IN_EVENT, render);
  window.addEventListener('storage', (e) => { if (e.key === SIGNED_IN_KEY || e.key === null) render(); });
  // A page restored from the back/forward cache may show an outdated state.
  window.addEventListener('pageshow', (e) => { if (e.persisted) render(); });
}
