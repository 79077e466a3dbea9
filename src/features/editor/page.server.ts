/**
 * The page /{locale}/editor (spec §4 Editor): the sign-in form, or once signed in the editor area.
 * Rendered on demand only, never stored, main site only. Forms post to the page itself and work
 * without JavaScript (post, then redirect); a small script enhances the translation buttons.
 */
import { publicReason } from '../../lib/http/errors.ts';
import type { Stage } from '../../lib/content/content-service.ts';
import { getPageTranslations, listEditorPages, resetTranslation, startTranslation } from '../../lib/content/translation/index.ts';
import { clientKey } from '../../lib/http/rate-limit.ts';
import { getLogger } from '../../lib/log/index.ts';
import { fallbackLanguage, makeLocale, siteLanguages } from '../../site/locale.ts';
import type { Site } from '../../site/types.ts';
import { contentContextFor, type PageContext } from '../platform/context.ts';
import { translationAnswer, type TranslationAnswer } from './api.server.ts';
import { checkEditorPassword, readFormBody, SIGN_IN_BODY_LIMIT } from './auth.server.ts';
import { previewHref } from './links.ts';
import { loadSiteNavigation } from './navigation.server.ts';
import type { SiteNavigationAnswer } from './navigation.ts';
import { checkParam, IdSchema, LanguageSchema, stageParam } from './params.ts';
import { editorCookieHeader, isEditorRequest } from './session.server.ts';
import { mainSite } from '../../site/main-site.ts';

const log = getLogger('editor');

export type SignInState = 'idle' | 'empty' | 'wrong' | 'limited' | 'closed';

export interface EditorPageRow {
  id: string;
  title: string;
  path: string;
  isPublished: boolean;
  protection: number;
  previewHref: string;
  translation: TranslationAnswer | null;
}

export interface EditorAreaModel {
  sites: { id: string; name: string }[];
  choice: { siteId: string; language: string; stage: Stage };
  /** The chosen site's languages (the language menu). */
  languages: string[];
  navigation: SiteNavigationAnswer | null;
  pages: EditorPageRow[];
  /** What failed while loading (the content hub's message), shown above the area. */
  error: string | null;
}

export type EditorPageOutcome =
  | { kind: 'not-found' }
  | { kind: 'sign-in'; status: number; state: SignInState; retryAfterSeconds?: number }
  | { kind: 'redirect'; location: string; setCookie?: string }
  | { kind: 'area'; model: EditorAreaModel };

/** What the editor chose in the query (site, language, stage); anything unknown falls back to the defaults. */
export function editorChoice(ctx: PageContext, params: URLSearchParams): { site: Site; language: string; stage: Stage } {
  const { system } = ctx;
  const main = mainSite(system) ?? ctx.request.site;
  const siteId = checkParam('site', IdSchema, params.get('site') ?? '');
  const site = (siteId.ok && system.sites.find((s) => s.id === siteId.value)) || main;
  const languages = siteLanguages(site, system.languages);
  const lang = checkParam('lang', LanguageSchema, params.get('lang') ?? '');
  const language = lang.ok && languages.includes(lang.value)
    ? lang.value
    : languages.includes(ctx.request.locale.language) ? ctx.request.locale.language : fallbackLanguage(site, system.languages);
  const stage = stageParam(params.get('stage'));
  return { site, language, stage: stage.ok ? stage.value : 'PUBLISHED' };
}

/** Loads the editor area for the chosen site, language and stage (navigation, pages, translation states). */
export async function loadEditorArea(ctx: PageContext, url: URL): Promise<EditorAreaModel> {
  const { system, services } = ctx;
  const { site, language, stage } = editorChoice(ctx, url.searchParams);
  const main = mainSite(system) ?? ctx.request.site;
  const model: EditorAreaModel = {
    sites: system.sites.map((s) => ({ id: s.id, name: s.name })),
    choice: { siteId: site.id, language, stage },
    languages: siteLanguages(site, system.languages),
    navigation: null,
    pages: [],
    error: null,
  };
  const locale = makeLocale(language, null);
  const content = contentContextFor(services.content, system, site, locale, stage);
  try {
    const [navigation, pages] = await Promise.all([
      loadSiteNavigation({ system, data: ctx.data, services }, site, language, stage, 'editor', url),
      listEditorPages(content, site.id, stage),
    ]);
    const translations = await getPageTranslations(content, pages.map((p) => p.id));
    model.navigation = navigation;
    model.pages = pages.map((p) => {
      const t = translations.get(p.id);
      return {
        id: p.id, title: p.title, path: p.path, isPublished: p.isPublished, protection: p.protection,
        previewHref: previewHref({ id: p.id, path: p.path, siteId: p.siteId }, stage, { site, main, locale, sites: system.sites, here: url }),
        translation: t ? translationAnswer(t) : null,
      };
    });
  } catch (err) {
    log.error({ err }, 'editor area failed to load');
    // The reason without an address, a path or a stack (the full error is logged above).
    model.error = publicReason(err);
  }
  return model;
}

/**
 * Decides what /{locale}/editor answers: GET shows the sign-in form or the area; POST handles the
 * sign-in form (`intent=sign-in`, `password`) and the no-script translation buttons
 * (`intent=start|reset`, `pageId`), each followed by a redirect to the same address (303).
 */
export async function editorPage(ctx: PageContext, astro: { request: Request; url: URL; clientAddress?: string }): Promise<EditorPageOutcome> {
  if (!ctx.request.site.isMain) return { kind: 'not-found' };
  const hash = ctx.services.editorPasswordHash;
  if (!hash) return { kind: 'sign-in', status: 503, state: 'closed' };
  // Re-checked on every request, POSTs included (signature, expiry, revocation).
  const signedIn = await isEditorRequest(astro.request, hash, ctx.services.sharedState);
  const self = `${astro.url.pathname}${astro.url.search}`;
  if (astro.request.method === 'POST') {
    const form = await readFormBody(astro.request, SIGN_IN_BODY_LIMIT);
    const intent = form?.get('intent');
    if (intent === 'start' || intent === 'reset') {
      if (!signedIn) return { kind: 'sign-in', status: 401, state: 'idle' };
      const pageId = checkParam('pageId', IdSchema, form?.get('pageId') ?? '');
      if (pageId.ok) {
        const content = { config: ctx.services.content, locales: ['en'], stage: 'PUBLISHED' as const };
        try {
          await (intent === 'start' ? startTranslation : resetTranslation)(content, pageId.value);
        } catch (err) {
          log.error({ err }, `translation ${intent} failed`);
        }
      }
      return { kind: 'redirect', location: `${self}${pageId.ok ? `#page-${pageId.value}` : ''}` };
    }
    const outcome = await checkEditorPassword(form?.get('password') ?? '', hash, clientKey(astro));
    switch (outcome.kind) {
      case 'ok': return { kind: 'redirect', location: self, setCookie: editorCookieHeader(outcome.sessionValue, astro.url) };
      case 'empty': return { kind: 'sign-in', status: 400, state: 'empty' };
      case 'wrong': return { kind: 'sign-in', status: 401, state: 'wrong' };
      case 'limited': return { kind: 'sign-in', status: 429, state: 'limited', retryAfterSeconds: outcome.retryAfterSeconds };
      case 'closed': return { kind: 'sign-in', status: 503, state: 'closed' };
    }
  }
  if (!signedIn) return { kind: 'sign-in', status: 200, state: 'idle' };
  return { kind: 'area', model: await loadEditorArea(ctx, astro.url) };
}
