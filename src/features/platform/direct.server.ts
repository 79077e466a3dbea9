import { getPageLocationsById, type ContentContext } from '../../lib/content/index.ts';
import { pageCountryFor } from '../../site/config-errors.ts';
import { isOfferedIn } from '../../site/countries.ts';
import { checkLocale, makeLocale, preferredLocale } from '../../site/locale.ts';
import { localizedPath } from '../../site/paths.ts';
import { withoutDirect } from '../../site/redirects.ts';
import { isLocalHost, siteHost } from '../../site/resolve-site.ts';
import type { RequestContext } from '../../site/request.ts';
import type { Site } from '../../site/types.ts';
import { mainSite } from '../../site/main-site.ts';

/**
 * Where `?direct` on a page id leads (spec 2.2): the page's real URL on whichever site it lives,
 * in the current locale when that site offers it; the id may name a page of any of the four page
 * types (a content page, story, media release or story contact: the editorial ones live on the
 * main site). A site on another host gets an absolute URL — its external domain, unless we run on
 * localhost, where its local host is used. A page for some countries only, asked for in a country
 * it is not offered in, goes to the first of its countries that speaks the language (none: the
 * spec's configuration error).
 */
export async function directTarget(content: ContentContext, req: RequestContext, url: URL): Promise<string | null> {
  const [page] = await getPageLocationsById(content, [req.page.slug]);
  if (!page) return null;
  const home = page.pageType === 'Content' ? req.site : (mainSite(req.system) ?? req.site);
  const site = (page.siteId && req.system.sites.find((s) => s.id === page.siteId)) || home;
  return sitePageLocation(req, url, site, page.path, withoutDirect(url.search), page);
}

/**
 * The URL of a page of a site (its site-relative path, and a query) for a request on any site:
 * in the request's locale when that site offers it; root-relative on the same host, else
 * absolute — the site's external domain, unless we run on localhost, where its local host is used.
 */
export function sitePageLocation(req: RequestContext, url: URL, site: Site, pagePath: string, search = '', page?: { id: string; countries: readonly string[] }): string {
  const check = checkLocale({ language: req.locale.language, country: req.locale.isInternational ? null : req.locale.country }, site, req.system);
  let locale = check.ok ? check.locale : (check.redirectTo ?? preferredLocale(undefined, site, req.system));
  if (page && !locale.isInternational && !isOfferedIn(page.countries, locale.country)) {
    locale = makeLocale(locale.language, pageCountryFor(page, locale.language, req.system.countries));
  }
  const path = `${localizedPath(site, locale, pagePath)}${search}`;
  const host = siteHost(site, url.hostname);
  if (host === url.hostname) return path;
  const port = isLocalHost(host) && url.port ? `:${url.port}` : '';
  return `${url.protocol}//${host}${port}${path}`;
}
