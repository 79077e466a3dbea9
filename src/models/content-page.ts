import { getFooterNavigation, getHeaderNavigation, getPageByPath, type ContentContext, type Page } from '../lib/content/index.ts';
import type { FooterNavigation, HeaderNavigation } from '../site/navigation-types.ts';
import type { RequestContext } from '../site/request.ts';
import { cacheKey, type CacheMode, type DataCache } from '../server/data-cache.ts';

/** Site chrome every page renders: header and footer navigation. */
export interface ChromeModel {
  header: HeaderNavigation | null;
  footer: FooterNavigation | null;
}

/**
 * The data a content page is rendered from. The prerender writes it as `_payload.json` and
 * hashes it into the route's fingerprint, so it must hold every record the page shows.
 */
export interface ContentPageModel extends ChromeModel {
  kind: 'content-page';
  page: Page | null;
}

export interface Loaders {
  content: ContentContext;
  cache: DataCache;
  cacheMode: CacheMode;
  nextRelease: boolean;
}

const key = (l: Loaders, parts: string[]) => cacheKey([...parts, l.content.stage, l.content.locales.join('|')], l.nextRelease);

/** Header and footer of a site in the request's language, through the data cache. */
export async function loadChrome(l: Loaders, req: RequestContext): Promise<ChromeModel> {
  const [header, footer] = await Promise.all([
    l.cache.get(key(l, ['header', req.site.id]), () => getHeaderNavigation(l.content, req.site), l.cacheMode),
    l.cache.get(key(l, ['footer', req.site.id]), () => getFooterNavigation(l.content, req.site), l.cacheMode),
  ]);
  return { header, footer };
}

/**
 * A content page with its chrome. A page offered only on the main site is no page elsewhere.
 */
export async function loadContentPage(l: Loaders, req: RequestContext): Promise<ContentPageModel> {
  const [chrome, found] = await Promise.all([
    loadChrome(l, req),
    l.cache.get(key(l, ['page', req.site.id, req.page.pagePath]), () => getPageByPath(l.content, req.site, req.page.pagePath), l.cacheMode),
  ]);
  const page = found && isPageAvailable(found, req) ? found : null;
  return { kind: 'content-page', ...chrome, page };
}

/**
 * Main-site-only pages give a 404 on every other site; a page restricted to some countries is
 * offered in those countries and in the international (ALL) view.
 */
export function isPageAvailable(page: Pick<Page, 'mainSiteOnly' | 'countries'>, req: Pick<RequestContext, 'site' | 'country'>): boolean {
  if (page.mainSiteOnly && !req.site.isMain) return false;
  const cc = req.country.countryCode;
  return page.countries.length === 0 || cc === 'ALL' || page.countries.includes(cc);
}
