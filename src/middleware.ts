import { defineMiddleware } from 'astro:middleware';
import { getSystemData, type ContentContext } from './lib/content/index.ts';
import { contentLocaleChain, fallbackLanguage } from './site/locale.ts';
import { requestFlags, resolveRequest, type RequestContext } from './site/request.ts';
import { cacheKey, cacheModeFromQuery, DataCache } from './server/data-cache.ts';
import { serverEnv } from './server/env.ts';
import { fixedT, uiLanguage } from './i18n/index.ts';
import type { Loaders } from './models/content-page.ts';

/** One data cache per server process (spec §9). */
const cache = new DataCache();

/**
 * Resolves every request once: site, locale, country, flags and a `t` fixed to the page's
 * language go into `Astro.locals`; redirects of spec 2.3 are answered here.
 */
export const onRequest = defineMiddleware(async (context, next) => {
  const { url, cookies, locals } = context;
  const env = serverEnv();
  const cacheMode = cacheModeFromQuery(url.searchParams);
  const flags = requestFlags(url.searchParams, { testing: cookies.get('testing')?.value, nextRelease: cookies.get('nextRelease')?.value });
  const preset = locals.prerender;
  const stage = 'PUBLISHED' as const;
  const base: ContentContext = { config: { endpoint: env.CONTENT_ENDPOINT }, locales: ['en'], stage };

  const system = preset?.system
    ?? await cache.get(cacheKey(['systemData'], flags.nextRelease), () => getSystemData(base), cacheMode);

  const resolution = resolveRequest(system, {
    host: url.host,
    pathname: url.pathname,
    search: url.search,
    cookies: { locale: cookies.get('locale')?.value, measurement: cookies.get('measurement')?.value },
    flags,
  });
  // The next-release toggle: ?nextRelease=false clears the cookie, any other value sets it.
  const nextReleaseParam = url.searchParams.get('nextRelease');
  if (nextReleaseParam === 'false') cookies.delete('nextRelease', { path: '/' });
  else if (nextReleaseParam !== null) cookies.set('nextRelease', nextReleaseParam || 'true', { path: '/', sameSite: 'lax', httpOnly: true, maxAge: 60 * 60 * 24 * 30 });
  locals.system = system;
  if (resolution.kind === 'pass') return next();
  if (resolution.kind === 'redirect') {
    return new Response(null, { status: resolution.redirect.status, headers: { Location: resolution.redirect.location } });
  }
  const req: RequestContext = resolution.ctx;
  const ui = uiLanguage(req.locale.language);
  locals.request = req;
  locals.notFound = resolution.kind === 'not-found';
  locals.uiLanguage = ui;
  locals.t = fixedT(ui);
  locals.loaders = {
    content: { ...base, locales: contentLocaleChain(req.locale, fallbackLanguage(req.site, system.languages)) },
    cache,
    cacheMode,
    nextRelease: flags.nextRelease,
  } satisfies Loaders;
  return next();
});
