import { pageContext } from '../platform/context.ts';
import { resolveRoute, type RouteResult } from '../platform/route.server.ts';
import { directTarget } from './direct.server.ts';
import { loadContentPage } from './load.server.ts';
import type { ContentPageModel } from './model.ts';

/**
 * The generic content route: `?direct` on a page id is a 302 to the page's real URL (on whichever
 * site it lives, spec 2.2); otherwise the content page, or the 404 page after the system redirects.
 */
export async function contentRoute(locals: App.Locals, url: URL): Promise<RouteResult<ContentPageModel>> {
  const ctx = pageContext(locals);
  if (url.searchParams.has('direct') && !ctx.notFound && !ctx.prerender) {
    const location = await directTarget(ctx.content, ctx.request, url);
    if (location) return { kind: 'redirect', location, status: 302 };
  }
  return resolveRoute<ContentPageModel>(locals, url, { kinds: ['content-page'], load: loadContentPage, systemRedirects: true });
}
