/** How often the latest release is checked while the tab is open. */
export const RELEASE_POLL_MS = 5 * 60 * 1000;
export const RELEASE_PARAM = '_release';

/** Adds the cache-busting release parameter, so a navigation cannot be served from a prefetch. */
export function freshUrl(href: string, releaseId: string, base: string): string {
  const url = new URL(href, base);
  url.searchParams.set(RELEASE_PARAM, releaseId);
  return url.toString();
}

/** True for a click that the browser would turn into a plain same-tab, same-origin navigation. */
function isPlainNavigation(e: MouseEvent, a: HTMLAnchorElement): boolean {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey && !e.defaultPrevented
    && !a.target && !a.hasAttribute('download') && a.origin === location.origin;
}

/**
 * Release detection (spec §4): polls `builds/latest.json` (with a timestamp query) every few
 * minutes and whenever the tab becomes visible. When its id differs from the release the page
 * came from, prefetched documents are dropped and the next navigation loads fresh from the server.
 */
export function watchReleases(pageRelease: string): void {
  // A fresh load arrives with the cache-busting parameter: take it out of the address bar.
  const here = new URL(location.href);
  if (here.searchParams.has(RELEASE_PARAM)) {
    here.searchParams.delete(RELEASE_PARAM);
    history.replaceState(history.state, '', here.toString());
  }
  if (!pageRelease) return;
  let latest = pageRelease;

  const check = async () => {
    try {
      const res = await fetch(`/builds/latest.json?t=${Date.now()}`, { cache: 'no-store' });
      if (!res.ok) return;
      const body = (await res.json()) as { id?: unknown };
      if (typeof body.id === 'string' && body.id !== pageRelease && body.id !== latest) {
        latest = body.id;
        document.documentElement.dataset.release = 'stale';
        for (const link of document.querySelectorAll('link[rel="prefetch"]')) link.remove();
      }
    } catch {
      // Offline or the file is missing: try again on the next tick.
    }
  };

  document.addEventListener('click', (e) => {
    if (latest === pageRelease) return;
    const a = (e.target as Element).closest?.('a');
    if (!a || !isPlainNavigation(e, a)) return;
    e.preventDefault();
    location.assign(freshUrl(a.href, latest, location.href));
  }, true);
  document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') void check(); });
  setInterval(() => void check(), RELEASE_POLL_MS);
}
