import { defineMiddleware } from 'astro:middleware';
import type { APIContext, MiddlewareNext } from 'astro';
import { systemData } from './lib/content/cached.ts';
import { requestFlags, resolveRequest } from './site/request.ts';
import { cachedSource, cacheModeFor, DataCache } from './lib/cache/data-cache.ts';
import { distDirOf, serverEnv, servicesFromEnv } from './server/boot/env.ts';
import { fallbackSearch } from './server/delivery/search-fallback.ts';
import { hasRevalidateSecret } from './server/revalidate/secret.ts';
import { isLocalHostname } from './server/http/host.ts';
import { fixedT, uiLanguage } from './i18n/index.ts';
import { contentContextFor, type PageContext } from './features/platform/context.ts';
import { errorPageStatus } from './site/error-page.ts';
import { getLogger } from './lib/log/index.ts';
import { json } from './lib/http/json.ts';
import { SITE_NOT_FOUND_PATH } from './features/sign-in/area.ts';
import { FEATURE_MIDDLEWARE, type RenderMode } from './server/prerender/request-hooks.ts';
import { SharedRenders, sharedRenderKey } from './server/render-pool/shared-renders.ts';
import { isCustomerAreaPagePath } from './features/customer-area/paths.ts';

const log = getLogger('render');

/** One data cache per server process (spec §9), shared by pages and API routes. */
const cache = new DataCache();
/** The customer-area shells and 404 pages of the live release, the same for every visitor (one per render thread). */
const sharedRenders = new SharedRenders();
/** The services, configured once from the environment (the only place below src/server/ that reads it). */
const env = serverEnv();
const services = servicesFromEnv(env);

/**
 * Resolves every request once (see `resolve`); any error thrown here or in the page is answered
 * with the error page: 503 with Retry-After when an upstream service is down, else 500.
 */
/** The generic content route (src/pages/[...path].astro): it renders only requests the middleware resolved to a page. */
const CONTENT_ROUTE = '/[...path]';

/**
 * A path of a pass-through namespace (`/api/…`, `/file/…`, `/blank-callback/…`) that no route of
 * its own matches lands on the content route's catch-all, which needs a resolved page: a plain 404
 * instead (JSON under /api, like every API answer).
 */
function passThroughNotFound(pathname: string): Response {
  if (pathname.startsWith('/api/')) return json({ error: 'not-found', message: 'No API endpoint at this path.' }, 404);
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}

/** The page's render mode when no feature decides it: published data, the response untouched. */
const PUBLISHED: RenderMode = { redirect: null, stage: 'PUBLISHED', source: (d) => d, finish: (r) => r };

export const onRequest = defineMiddleware(async (context, next) => {
  // The error page renders without the content hub (it may be why the request failed).
  if (context.routePattern === '/500') return next();
  // A feature that claims the path (the sign-in pages) wraps the whole handling.
  const claimant = FEATURE_MIDDLEWARE.find((m) => m.around && m.claims?.(context.url.pathname));
  try {
    return claimant ? await claimant.around!(context, services, () => resolve(context, next)) : await resolve(context, next);
  } catch (err) {
    return errorPage(context, err);
  }
});

/**
 * The error page (src/pages/500.astro) with the status the error calls for. Astro would render
 * it too, but always with 500.
 */
async function errorPage(context: APIContext, err: unknown): Promise<Response> {
  const { status, retryAfter } = errorPageStatus(err);
  const what = `${context.request.method} ${context.url.pathname} failed with ${status}`;
  if (status === 503) log.error(`${what}: ${(err as Error).message}`);
  else log.error({ err }, what);
  context.locals.error = err;
  const page = await context.rewrite('/500');
  const headers = new Headers(page.headers);
  if (retryAfter) headers.set('Retry-After', String(retryAfter));
  headers.set('Cache-Control', 'no-store');
  return new Response(page.body, { status, headers });
}

/**
 * Resolves every request once: site, locale, country, flags, a `t` fixed to the page's language,
 * the data source and the services go into `Astro.locals.page` (read with `pageContext`); API
 * routes get `Astro.locals.api` (`apiContext`). Redirects of spec 2.3 are answered here.
 */
async function resolve(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const { url, cookies, locals } = context;
  // The cache parameters (spec §9) are for operators: only a request with the revalidation secret may use them.
  const cacheMode = cacheModeFor(url.searchParams, hasRevalidateSecret(context.request.headers, services.revalidateSecret));
  const flags = requestFlags(url.searchParams, { testing: cookies.get('testing')?.value, nextRelease: cookies.get('nextRelease')?.value });
  const preset = locals.prerender;
  const data = cachedSource(cache, cacheMode, flags.nextRelease);
  const system = preset?.system ?? await systemData(data, { config: services.content, locales: ['en'], stage: 'PUBLISHED' });

  const resolution = resolveRequest(system, {
    host: url.host,
    pathname: url.pathname,
    search: url.search,
    cookies: { locale: cookies.get('locale')?.value, measurement: cookies.get('measurement')?.value },
    flags,
  });
  // The next-release toggle: ?nextRelease=false clears the cookie, any other value sets it.
  const nextReleaseParam = url.searchParams.get('nextRelease');
  // HttpOnly, SameSite=Lax, Secure outside the developer's machine (like every cookie the server sets).
  const nextReleaseCookie = { path: '/', sameSite: 'lax', httpOnly: true, secure: !isLocalHostname(url.hostname) } as const;
  if (nextReleaseParam === 'false') cookies.delete('nextRelease', nextReleaseCookie);
  else if (nextReleaseParam !== null) cookies.set('nextRelease', nextReleaseParam || 'true', { ...nextReleaseCookie, maxAge: 60 * 60 * 24 * 30 });
  const given = locals.search;
  locals.api = { system, data, services, search: given ? () => Promise.resolve(given) : () => fallbackSearch(env, distDirOf(env, process.cwd())) };
  if (resolution.kind === 'pass') return context.routePattern === CONTENT_ROUTE ? passThroughNotFound(url.pathname) : next();
  if (resolution.kind === 'redirect') {
    return new Response(null, { status: resolution.redirect.status, headers: { Location: resolution.redirect.location } });
  }
  const req = resolution.ctx;
  // The features' own answers (the editor's handoff), in the registry's order.
  for (const m of FEATURE_MIDDLEWARE) {
    const answer = await m.answer?.(context, services);
    if (answer) return answer;
  }
  // The render mode (the editor's draft preview: stage, fresh draft data, no-store + noindex).
  const decider = FEATURE_MIDDLEWARE.find((m) => m.render);
  const preview = decider ? await decider.render!(context, services) : PUBLISHED;
  if (preview.redirect) return preview.redirect;
  // A path a feature's own route file would render although this site does not have it (the
  // customer area on a sub-site): that site's 404, never stored.
  const pagePath = resolution.kind === 'page' ? req.page.pagePath : null;
  const misplaced = FEATURE_MIDDLEWARE.some((m) => m.misplaced?.(req.site, pagePath, url.pathname));
  const ui = uiLanguage(req.locale.language);
  locals.page = {
    request: preview.stage === 'DRAFT' ? { ...req, flags: { ...req.flags, editorMode: true } } : req,
    notFound: resolution.kind === 'not-found' || misplaced,
    uiLanguage: ui,
    t: fixedT(ui),
    data: preview.source(data),
    content: contentContextFor(services.content, system, req.site, req.locale, preview.stage),
    services,
    ...(preset ? { prerender: preset } : {}),
    releaseId: preset?.releaseId ?? locals.releaseId ?? '',
    system,
    search: locals.api.search,
  } satisfies PageContext;
  // What is the same for every visitor of this release is rendered once (server/render-pool/shared-renders.ts).
  const releaseId = locals.releaseId ?? '';
  const shared = releaseId && !preset && !misplaced ? sharedRenderKey({
    method: context.request.method, url, headers: context.request.headers, releaseId,
    pagePath, siteId: req.site.id, localeSegment: req.locale.urlCode,
    customerShell: resolution.kind === 'page' && isCustomerAreaPagePath(req.page.pagePath),
    plain: preview.stage === 'PUBLISHED' && cacheMode === 'use' && !req.flags.testing && !req.flags.nextRelease,
    route: context.routePattern,
  }) : null;
  if (shared) {
    const acceptEncoding = context.request.headers.get('accept-encoding');
    // Only a GET's render is offered (a HEAD's body proves nothing).
    const offer = (res: Response) => (context.request.method === 'GET' ? sharedRenders.offer(releaseId, shared, res) : res);
    if (shared.kind === 'shell') return sharedRenders.get(releaseId, shared, acceptEncoding) ?? offer(preview.finish(await next()));
    // A route finds out while it runs that its path has no page (a content page, a product, a
    // story …): it asks for the kept 404 page then (notFoundAnswer), and a fresh 404 it renders is offered.
    let keptGiven = false;
    locals.page.keptNotFound = () => {
      const kept = sharedRenders.get(releaseId, shared, acceptEncoding);
      keptGiven = kept !== null;
      return kept;
    };
    const res = preview.finish(await next());
    return keptGiven || res.status !== 404 ? res : offer(res);
  }
  if (misplaced) {
    const res = await next(SITE_NOT_FOUND_PATH);
    const headers = new Headers(res.headers);
    headers.set('Cache-Control', 'no-store');
    return preview.finish(new Response(res.body, { status: res.status, statusText: res.statusText, headers }));
  }
  return preview.finish(await next());
}
