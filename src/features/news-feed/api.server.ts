import type { APIContext } from 'astro';
import * as v from 'valibot';
import { newsFeedPage } from '../../lib/content/cached.ts';
import { ContentInputError, NEWS_FEED_PAGE_SIZE } from '../../lib/content/index.ts';
import { json } from '../../lib/http/json.ts';
import { endpoint, READ_ONLY } from '../../lib/http/endpoint.ts';
import { getLogger } from '../../lib/log/index.ts';
import { fixedT, uiLanguage } from '../../i18n/index.ts';
import { apiContext } from '../platform/context.ts';
import { apiContentContext, localeOf, LocaleParam } from '../platform/api.server.ts';
import { mainSiteOrigin, toNewsFeedResponse } from './response.ts';
import { mainSite } from '../../site/main-site.ts';

const Query = v.object({
  lang: LocaleParam,
  after: v.optional(v.pipe(v.string(), v.maxLength(200, 'after is too long'), v.regex(/^[A-Za-z0-9+/=_-]+$/, 'after must be a cursor of a previous page'))),
});

/** GET /api/news-feed?lang={locale}&after={cursor}: one page (10 items) of the news feed, newest first. */
export const getNewsFeed = endpoint(READ_ONLY, async ({ url, locals }: APIContext) => {
  const api = apiContext(locals);
  const parsed = v.safeParse(Query, { lang: url.searchParams.get('lang') ?? undefined, after: url.searchParams.get('after') || undefined });
  if (!parsed.success) return json({ error: parsed.issues[0].message }, 400);
  const locale = localeOf(parsed.output.lang);
  const ctx = apiContentContext(api, locale);
  const after = parsed.output.after ?? null;
  try {
    const system = api.system;
    const page = await newsFeedPage(api.data, ctx, NEWS_FEED_PAGE_SIZE, after);
    const main = mainSite(system) ?? system.sites[0];
    if (!main) return json({ error: 'unavailable', message: 'No site configured' }, 503);
    const body = toNewsFeedResponse(page, {
      links: { site: main, locale, sites: system.sites },
      origin: mainSiteOrigin(url, system.sites),
      fallbackLinkText: fixedT(uiLanguage(locale.language))('module.readMore'),
    });
    return json(body, 200, 'public, max-age=60');
  } catch (err) {
    if (err instanceof ContentInputError) return json({ error: 'bad-request', message: err.message }, 400);
    getLogger('news-feed').error((err as Error).message);
    return json({ error: 'bad-gateway', message: 'The news feed is not available right now.' }, 502);
  }
});
