import { pageByPath } from '../../lib/content/cached.ts';
import { getLogger } from '../../lib/log/index.ts';
import { ConfigurationError, invalidHomePageMessage, noNavigationItemMessage } from '../../site/config-errors.ts';
import type { RequestContext } from '../../site/request.ts';
import { loadChrome } from '../platform/chrome.server.ts';
import type { LoadContext } from '../platform/context.ts';
import { notFoundModel, type NotFoundModel } from '../platform/page-model.ts';
import { isPageAvailable, type ContentPageModel } from './model.ts';
import { withLocations } from '../locations/load.server.ts';
import { loadInjection } from '../catalogue/injection.server.ts';

const log = getLogger('content-page');

/**
 * The content page at the request's path with its chrome, or the 404 model when the site has no
 * such page or does not offer it here. The prerender builds its routes with this same function.
 * A site without a home page for the country is misconfigured: a {@link ConfigurationError}
 * (the error page), never a 404 on a site's front door.
 */
export async function loadContentPage(lc: LoadContext, req: RequestContext): Promise<ContentPageModel | NotFoundModel> {
  const [chrome, page] = await Promise.all([loadChrome(lc, req.site), pageByPath(lc.data, lc.content, req.site, req.page.pagePath)]);
  if (page && isPageAvailable(page, req)) {
    const [withEntries, injected] = await Promise.all([withLocations(lc, page), loadInjection(lc, req, page.id, page.injection)]);
    return { kind: 'content-page', ...chrome, page: withEntries, ...(injected ? { injected } : {}) };
  }
  if (req.page.pagePath === '') throw new ConfigurationError(invalidHomePageMessage(req.site, req.country.countryCode));
  // A visitor's mistyped address is no operator problem: info, not a warning.
  log.info(noNavigationItemMessage(req.page.slug));
  return notFoundModel(chrome);
}
