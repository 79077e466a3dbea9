import { initActions } from './actions.ts';
import { loadThirdPartyScripts } from './third-party.ts';
import { watchReleases } from './release-watch.ts';
import { reloadOnChunkError } from './chunk-reload.ts';

const TEN_YEARS = 60 * 60 * 24 * 365 * 10;

declare global {
  interface Window {
    dataLayer: Record<string, unknown>[];
  }
}

function setCookie(name: string, value: string, maxAge: number): void {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure}`;
}

export function readCookie(name: string): string | undefined {
  const hit = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : undefined;
}

/**
 * Runs on every page load (pages are documents, not SPA routes): remembers the locale and the
 * testing flag, wires `action:` links, pushes the page-view event and loads third-party scripts
 * unless testing mode or a technical area says no.
 */
export function boot(): void {
  const body = document.body;
  const locale = body.dataset.locale;
  if (locale && body.dataset.technical !== 'true') setCookie('locale', locale, TEN_YEARS);
  const params = new URLSearchParams(location.search);
  if (params.get('testing') === 'true') setCookie('testing', 'true', TEN_YEARS);
  const testing = params.get('testing') === 'true' || readCookie('testing') === 'true';

  initActions();
  reloadOnChunkError();
  watchReleases(document.querySelector<HTMLMetaElement>('meta[name="release-id"]')?.content ?? '');

  window.dataLayer = window.dataLayer || [];
  window.dataLayer.push({
    event: 'page_view',
    page_path: location.pathname,
    page_title: document.title,
    page_locale: locale ?? null,
    page_site: body.dataset.site ?? null,
    page_type: body.dataset.pageType ?? null,
  });

  if (!testing && body.dataset.technical !== 'true') loadThirdPartyScripts(body.dataset);
}
