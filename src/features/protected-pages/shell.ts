import { apiFetch, ensureSession } from '../../lib/identity/session.ts';
import { readSignedIn, readTokens } from '../../lib/identity/storage.ts';

/**
 * The sign-in shell of a CIAM-role page (browser): the server answered without content because
 * the request carried no grant. Signed in, the shell sends the access token to
 * `POST /api/protected-pages/grant`, which checks the role on the server and sets the grant
 * cookie; the page then reloads with its content. Signed out, it offers "Log in", which starts the
 * customer area's sign-in and comes back here. All token handling is the sign-in feature's.
 */
type State = 'checking' | 'login' | 'denied' | 'failed';

function signedIn(): boolean {
  try {
    return !!readSignedIn() || !!readTokens();
  } catch {
    return false;
  }
}

export function initProtectedShell(): void {
  const root = document.querySelector<HTMLElement>('[data-protected-shell]');
  if (!root) return;
  const pageId = root.dataset.pageId ?? '';
  const grantPath = root.dataset.grantPath ?? '';
  const returnTo = location.pathname;
  const show = (state: State) => {
    for (const el of root.querySelectorAll<HTMLElement>('[data-state]')) el.hidden = el.dataset.state !== state;
    const focus = root.querySelector<HTMLElement>(`[data-state="${state}"] [data-focus]`);
    if (state !== 'checking') focus?.focus();
  };

  const requestGrant = async () => {
    show('checking');
    try {
      await ensureSession({ returnTo });
      const res = await apiFetch('/api/protected-pages/grant', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ pageId, path: grantPath }),
      });
      if (res.status === 204) {
        location.reload();
        return;
      }
      show(res.status === 403 ? 'denied' : res.status === 401 ? 'login' : 'failed');
    } catch {
      show('failed');
    }
  };

  for (const b of root.querySelectorAll<HTMLButtonElement>('[data-protected-login]')) b.addEventListener('click', () => void requestGrant());
  if (signedIn()) void requestGrant();
  else show('login');
}
