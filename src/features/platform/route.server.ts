import { findSystemRedirect } from '../../lib/content/index.ts';
import { getLogger } from '../../lib/log/index.ts';
import { pageNotFoundMessage } from '../../site/config-errors.ts';
import type { RequestContext } from '../../site/request.ts';
import { loadNotFound } from './chrome.server.ts';
import { directTarget } from './direct.server.ts';
import { pageContext, type LoadContext } from './context.ts';
import { presetModel, type NotFoundModel, type PageModelBase } from './page-model.ts';

/** A redirect a loader decided on (e.g. the catalogue's canonical route). */
export interface RedirectTo {
  kind: 'redirect';
  location: string;
  status: 301 | 302;
}

/** What a route file renders: a model (its own kind or the 404 model), or a redirect to answer. */
export type RouteResult<M extends PageModelBase> = { kind: 'page'; model: M | NotFoundModel } | RedirectTo;

export interface RouteSpec<M extends PageModelBase> {
  /** The model kinds this route renders; a prerendered model of one of them is rendered as is. */
  kinds: readonly M['kind'][];
  /** Whether the route exists on this request's site (default: every site). */
  offered?: (req: RequestContext) => boolean;
  /** The on-demand loader, the same the feature's prerender source builds with. */
  load: (lc: LoadContext, req: RequestContext) => Promise<M | NotFoundModel | RedirectTo>;
  /** Whether a 404 first looks for a system redirect of the content hub (moved pages keep working). */
  systemRedirects?: boolean;
}

const log = getLogger('route');

/**
 * The one flow of every page route: the prerendered model when the prerender hands one over,
 * else `?direct`'s redirect when the slug is a page id, else the loader (or the 404 model when the request resolved to no page, or the route is not
 * offered on this site), then the content hub's system redirects for a 404.
 */
export async function resolveRoute<M extends PageModelBase>(locals: App.Locals, url: URL, spec: RouteSpec<M>): Promise<RouteResult<M>> {
  const ctx = pageContext(locals);
  const preset = presetModel<M>(ctx.prerender, spec.kinds);
  if (preset) return { kind: 'page', model: preset };
  const req = ctx.request;
  // `?direct` on a page id, whichever route its path matched (spec 2.2): `/en/{id}`, `/en/stories/{id}` …
  if (url.searchParams.has('direct') && !ctx.notFound && !ctx.prerender) {
    const location = await directTarget(ctx.content, req, url);
    if (location) return { kind: 'redirect', location, status: 302 };
  }
  const offered = !ctx.notFound && req.area === 'page' && (spec.offered?.(req) ?? true);
  const loaded = offered ? await spec.load(ctx, req) : await loadNotFound(ctx, req.site);
  if (loaded.kind === 'redirect') return loaded as RedirectTo;
  const model = loaded as M | NotFoundModel;
  if (model.kind === 'not-found' && spec.systemRedirects) {
    const redirect = await findSystemRedirect(ctx.content, url.pathname, url.search);
    if (redirect) return { kind: 'redirect', location: redirect.target, status: 301 };
  }
  // Info, not a warning: a mistyped or stale address is the visitor's, not the operator's.
  if (model.kind === 'not-found') log.info(pageNotFoundMessage(`${url.pathname}${url.search}`));
  return { kind: 'page', model };
}

/** Whether a route result is the 404 page (the route file then sets the status). */
export const isNotFound = (result: RouteResult<PageModelBase>): boolean => result.kind === 'page' && result.model.kind === 'not-found';
