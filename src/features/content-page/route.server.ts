import { pageContext, type PageContext } from '../platform/context.ts';
import { resolveRoute, type RedirectTo } from '../platform/route.server.ts';
import type { NotFoundModel } from '../platform/page-model.ts';
import { pageGate, type PageGate } from '../protected-pages/gate.server.ts';
import { sitePageLocation } from '../platform/direct.server.ts';
import { catalogueWithin } from '../../lib/catalogue/routes.ts';
import { loadContentPage } from './load.server.ts';
import type { ContentPageModel } from './model.ts';
import { mainSite } from '../../site/main-site.ts';

/** What the content route answers: a redirect, or a page (or the 404 page) behind its protection gate. */
export type ContentRouteResult = RedirectTo | { kind: 'page'; model: ContentPageModel | NotFoundModel; gate: PageGate };

/** The parts of the Astro context the content route reads. */
export interface ContentRouteContext {
  locals: App.Locals;
  url: URL;
  request: Request;
  clientAddress?: string;
}

/**
 * A path no content page answers that names the catalogue (spec 2.1: under a path ending /products
 * or /services the final slug is a classification or a product): the main site's catalogue route
 * for it, whose own canonical redirect then leads to the classification or product. On a site
 * other than the main one a path starting with /products counts too (the catalogue lives on the
 * main site only).
 */
function catalogueLocation(ctx: PageContext, url: URL): string | null {
  const req = ctx.request;
  if (ctx.notFound || req.area !== 'page') return null;
  const main = mainSite(req.system);
  const within = main ? catalogueWithin(req.page.segments, req.site.isMain ? 1 : 0) : null;
  return main && within ? sitePageLocation(req, url, main, within.path, url.search) : null;
}

/**
 * The generic content route: `?direct` on a page id is a 302 to the page's real URL (on whichever
 * site it lives, spec 2.2: resolveRoute); otherwise the content page, a path naming the catalogue
 * redirected there, or the 404 page after the system redirects.
 * A protected page (or one below it) passes the protected-pages gate: its content renders only
 * for a visitor holding the grant; otherwise the gate says what to show instead.
 */
export async function contentRoute(context: ContentRouteContext): Promise<ContentRouteResult> {
  const { locals, url } = context;
  const result = await resolveRoute<ContentPageModel>(locals, url, { kinds: ['content-page'], load: loadContentPage, systemRedirects: true });
  if (result.kind === 'redirect') return result;
  const catalogue = result.model.kind === 'not-found' ? catalogueLocation(pageContext(locals), url) : null;
  if (catalogue) return { kind: 'redirect', location: catalogue, status: 302 };
  const gate: PageGate = result.model.kind === 'content-page' ? await pageGate(context, result.model.page) : { kind: 'public' };
  return { kind: 'page', model: result.model, gate };
}
