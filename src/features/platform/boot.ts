import { initActions } from './actions.ts';
import { loadThirdPartyScripts } from './third-party.ts';
import { watchReleases } from './release-watch.ts';
import { reloadOnChunkError } from './chunk-reload.ts';
import { readCookie, writeCookie } from './cookies.ts';

const TEN_YEARS = 60 * 60 * 24 * 365 * 10;

declare global {
  interface Window {
    dataLayer: Record<string, unknown>[];
  }
}

/**
 * Runs on every page load (pages are documents, not SPA routes): remembers the locale and the
 * testing flag, wires `action:` links, pushes the page-view event and loads third-party scripts
 * unless testing mode or a technical area says no.
 */
export function boot(): void {
  const body = document.body;
  const locale = body.dataset.locale;
  if (locale && body.dataset.technical !== 'true') writeCookie('locale', locale, TEN_YEARS);
  const params = new URLSearchParams(location.search);
  if (params.get('testing') === 'true') writeCookie('testing', 'true', TEN_YEARS);
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
    page_branch: body.dataset.pageBranch ?? null,
    page_cms_type: body.dataset.cmsType ?? null,
  });

  if (!testing && body.dataset.technical !== 'true') loadThirdPartyScripts(body.dataset);
}
