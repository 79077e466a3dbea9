import { pageContext } from '../platform/context.ts';
import { resolveRoute, type RedirectTo } from '../platform/route.server.ts';
import type { NotFoundModel } from '../platform/page-model.ts';
import { pageGate, type PageGate } from '../protected-pages/gate.server.ts';
import { directTarget } from './direct.server.ts';
import { loadContentPage } from './load.server.ts';
import type { ContentPageModel } from './model.ts';

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
 * The generic content route: `?direct` on a page id is a 302 to the page's real URL (on whichever
 * site it lives, spec 2.2); otherwise the content page, or the 404 page after the system redirects.
 * A protected page (or one below it) passes the protected-pages gate: its content renders only
 * for a visitor holding the grant; otherwise the gate says what to show instead.
 */
export async function contentRoute(context: ContentRouteContext): Promise<ContentRouteResult> {
  const { locals, url } = context;
  const ctx = pageContext(locals);
  if (url.searchParams.has('direct') && !ctx.notFound && !ctx.prerender) {
    const location = await directTarget(ctx.content, ctx.request, url);
    if (location) return { kind: 'redirect', location, status: 302 };
  }
  const result = await resolveRoute<ContentPageModel>(locals, url, { kinds: ['content-page'], load: loadContentPage, systemRedirects: true });
  if (result.kind === 'redirect') return result;
  const gate: PageGate = result.model.kind === 'content-page' ? await pageGate(context, result.model.page) : { kind: 'public' };
  return { kind: 'page', model: result.model, gate };
}
