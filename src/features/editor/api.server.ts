/**
 * The editor's and the public navigation APIs (spec §7). Route files in src/pages/api/ only
 * re-export these handlers.
 *
 * - GET /api/site-navigation/public/{siteId}?lang=   PUBLISHED, hidden items removed, cached (data cache + a short public Cache-Control)
 * - GET /api/site-navigation/editor/{siteId}?lang=&stage=   editor cookie; hidden items kept and marked; no-store
 * - GET /api/translation/state/{pageId}   editor cookie; no-store
 * - POST /api/translation/start/{pageId}, POST /api/translation/reset/{pageId}   editor cookie; no-store.
 *   The spec lists them among its GET calls; they change state, so they take POST only (GET: 405
 *   with `Allow: POST`), which also keeps a link or a prefetch from starting a translation, and
 *   only from the site's own pages (a cross-site request: 403, see crossSiteRefusal).
 */
import type { APIContext, APIRoute } from 'astro';
import { json } from '../../lib/http/json.ts';
import { IGNORED_JSON_BODY } from '../../lib/http/body.ts';
import { endpoint, READ_ONLY, type EndpointLimits } from '../../lib/http/endpoint.ts';
import { getLogger } from '../../lib/log/index.ts';
import { getPageTranslation, resetTranslation, startTranslation, type PageTranslation } from '../../lib/content/translation/index.ts';
import type { ContentContext } from '../../lib/content/content-service.ts';
import { apiContext } from '../platform/context.ts';
import { requireEditor, requireEditorSameSite } from './auth.server.ts';
import { chooseSite, loadSiteNavigation } from './navigation.server.ts';
import { checkParam, IdSchema, LanguageSchema, stageParam } from './params.ts';
import { pageTranslationState, type TranslationState } from './translation-state.ts';

const log = getLogger('editor');

/** The public navigation may be kept briefly by browsers and CDNs (the data cache behind it lives 30 minutes). */
export const PUBLIC_NAVIGATION_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

const bad = (message: string) => json({ error: 'invalid-parameter', message }, 400);

function contentFailure(err: unknown, what: string): Response {
  log.error({ err }, `${what} failed`);
  // The upstream's own error text stays in the log: an answer never carries it.
  return json({ error: 'content-hub', message: 'The content hub did not answer. Please try again later.' }, 502);
}

/** Site and language from the path and query, validated (400 / 404), or the answer to send. */
function siteParams(context: APIContext) {
  const id = checkParam('siteId', IdSchema, context.params.siteId ?? '');
  if (!id.ok) return bad(id.message);
  const rawLang = context.url.searchParams.get('lang');
  const lang = rawLang === null || rawLang === '' ? { ok: true as const, value: null } : checkParam('lang', LanguageSchema, rawLang);
  if (!lang.ok) return bad(lang.message);
  const choice = chooseSite(apiContext(context.locals).system, id.value, lang.value);
  if (!choice.ok) return json({ error: choice.error, message: choice.message }, choice.status);
  return choice;
}

/** GET /api/site-navigation/public/{siteId}?lang= */
export const publicNavigation = endpoint(READ_ONLY, async (context: APIContext) => {
  const choice = siteParams(context);
  if (choice instanceof Response) return choice;
  try {
    const answer = await loadSiteNavigation(apiContext(context.locals), choice.site, choice.language, 'PUBLISHED', 'public', context.url);
    return json(answer, 200, PUBLIC_NAVIGATION_CACHE_CONTROL);
  } catch (err) {
    return contentFailure(err, 'public navigation');
  }
});

/** GET /api/site-navigation/editor/{siteId}?lang=&stage= */
export const editorNavigation = endpoint(READ_ONLY, { auth: requireEditor }, async ({ context }: { context: APIContext }) => {
  const choice = siteParams(context);
  if (choice instanceof Response) return choice;
  const stage = stageParam(context.url.searchParams.get('stage'));
  if (!stage.ok) return bad(stage.message);
  try {
    return json(await loadSiteNavigation(apiContext(context.locals), choice.site, choice.language, stage.value, 'editor', context.url));
  } catch (err) {
    return contentFailure(err, 'editor navigation');
  }
});

/** The translation answer: the spec's fields plus the page's overall state. */
export interface TranslationAnswer extends PageTranslation {
  translationState: TranslationState;
}

export function translationAnswer(t: PageTranslation): TranslationAnswer {
  return { ...t, translationState: pageTranslationState(t.targetLanguages) };
}

/** An editor's call on a page's translation (the page id from the path): the translation answer, 404 for no such page. */
function translationRoute(run: (ctx: ContentContext, pageId: string) => Promise<PageTranslation | null>, what: string) {
  return async ({ context }: { context: APIContext }): Promise<Response> => {
    const id = checkParam('pageId', IdSchema, context.params.pageId ?? '');
    if (!id.ok) return bad(id.message);
    const { services } = apiContext(context.locals);
    try {
      const t = await run({ config: services.content, locales: ['en'], stage: 'PUBLISHED' }, id.value);
      return t ? json(translationAnswer(t)) : json({ error: 'unknown-page', message: `No page with id ${id.value}.` }, 404);
    } catch (err) {
      return contentFailure(err, what);
    }
  };
}

/**
 * Starting or resetting a translation: nothing is read from the body (the page id is in the path),
 * but a client's empty JSON object is taken (1 KiB at most); an editor clicks a few times a minute,
 * 30 per client and minute.
 */
export const TRANSLATION_WRITE_LIMITS: EndpointLimits = { body: IGNORED_JSON_BODY, rateLimit: { limit: 30, windowMs: 60_000 } };

/** GET /api/translation/state/{pageId} */
export const translationState = endpoint(READ_ONLY, { auth: requireEditor }, translationRoute(getPageTranslation, 'translation state'));
/** POST /api/translation/start/{pageId} */
export const translationStart = endpoint(TRANSLATION_WRITE_LIMITS, { auth: requireEditorSameSite }, translationRoute(startTranslation, 'translation start'));
/** POST /api/translation/reset/{pageId} */
export const translationReset = endpoint(TRANSLATION_WRITE_LIMITS, { auth: requireEditorSameSite }, translationRoute(resetTranslation, 'translation reset'));

/** GET (or any other method) on start/reset: 405 naming the method to use. */
export const postOnly: APIRoute = () => {
  const res = json({ error: 'method-not-allowed', message: 'Use POST: starting or resetting a translation changes it.' }, 405);
  res.headers.set('Allow', 'POST');
  return res;
};
