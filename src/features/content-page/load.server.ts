import { pageByPath } from '../../lib/content/cached.ts';
import type { RequestContext } from '../../site/request.ts';
import { loadChrome } from '../platform/chrome.server.ts';
import type { LoadContext } from '../platform/context.ts';
import { notFoundModel, type NotFoundModel } from '../platform/page-model.ts';
import { isPageAvailable, type ContentPageModel } from './model.ts';
import { withLocations } from '../locations/load.server.ts';
import { loadInjection } from '../catalogue/injection.server.ts';

/**
 * The content page at the request's path with its chrome, or the 404 model when the site has no
 * such page or does not offer it here. The prerender builds its routes with this same function.
 */
export async function loadContentPage(lc: LoadContext, req: RequestContext): Promise<ContentPageModel | NotFoundModel> {
  const [chrome, page] = await Promise.all([loadChrome(lc, req.site), pageByPath(lc.data, lc.content, req.site, req.page.pagePath)]);
  if (!page || !isPageAvailable(page, req)) return notFoundModel(chrome);
  const [withEntries, injected] = await Promise.all([withLocations(lc, page), loadInjection(lc, req, page.id, page.injection)]);
  return { kind: 'content-page', ...chrome, page: withEntries, ...(injected ? { injected } : {}) };
}
