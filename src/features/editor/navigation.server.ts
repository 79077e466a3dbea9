/**
 * Loads a site's navigation for the navigation APIs and the editor area (one loader for both):
 * the public answer comes through the data cache (PUBLISHED, hidden items already left out by the
 * content client); the editor's is read fresh in the chosen stage with hidden items kept.
 */
import { footerNavigation, headerNavigation } from '../../lib/content/cached.ts';
import { getFooterNavigation, getHeaderNavigation } from '../../lib/content/index.ts';
import type { Stage } from '../../lib/content/content-service.ts';
import { fallbackLanguage, makeLocale, siteLanguages } from '../../site/locale.ts';
import type { Site, SystemData } from '../../site/types.ts';
import { contentContextFor, type ApiContext } from '../platform/context.ts';
import { siteNavigationAnswer, type SiteNavigationAnswer } from './navigation.ts';

export type SiteChoice =
  | { ok: true; site: Site; language: string }
  | { ok: false; status: 400 | 404; error: string; message: string };

/** The site and language a request names: an unknown site is a 404, a language the site does not have a 400; no language means the site's fallback. */
export function chooseSite(system: SystemData, siteId: string, lang: string | null): SiteChoice {
  const site = system.sites.find((s) => s.id === siteId);
  if (!site) return { ok: false, status: 404, error: 'unknown-site', message: `No site with id ${siteId}.` };
  const languages = siteLanguages(site, system.languages);
  const language = lang ?? fallbackLanguage(site, system.languages);
  if (!languages.includes(language)) {
    return { ok: false, status: 400, error: 'invalid-lang', message: `lang ${language} is not a language of site ${site.id} (${languages.join(', ')}).` };
  }
  return { ok: true, site, language };
}

/** The navigation answer of a site in a language and stage; `here` makes links to other hosts absolute. */
export async function loadSiteNavigation(
  api: Pick<ApiContext, 'system' | 'data' | 'services'>,
  site: Site,
  language: string,
  stage: Stage,
  mode: 'public' | 'editor',
  here: URL,
): Promise<SiteNavigationAnswer> {
  const locale = makeLocale(language, null);
  const ctx = contentContextFor(api.services.content, api.system, site, locale, mode === 'public' ? 'PUBLISHED' : stage);
  const [header, footer] = mode === 'public'
    ? await Promise.all([headerNavigation(api.data, ctx, site), footerNavigation(api.data, ctx, site)])
    : await Promise.all([getHeaderNavigation(ctx, site, { includeHidden: true }), getFooterNavigation(ctx, site, { includeHidden: true })]);
  const linkCtx = { site, locale, sites: api.system.sites, here };
  return siteNavigationAnswer(site, language, mode === 'public' ? 'PUBLISHED' : stage, header, footer, linkCtx, mode === 'editor');
}
