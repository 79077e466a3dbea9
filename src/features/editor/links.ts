/**
 * URLs of the editor area. Pure.
 */
import type { Stage } from '../../lib/content/content-service.ts';
import { resolveLink } from '../../site/links.ts';
import { localizedPath } from '../../site/paths.ts';
import type { Locale, Site } from '../../site/types.ts';

/** The editor area below the locale (main site only, spec 2.1). */
export const EDITOR_PATH = '/editor';
/** The query parameter that asks for a page in a stage (the draft preview reads it). */
export const PREVIEW_PARAM = 'preview';

/** The endpoint that carries an editor's session to a site on another host (`handoff.server.ts`). */
export const HANDOFF_PATH = '/api/editor/preview-handoff';

/** The preview link of a page on another host: through the handoff endpoint of this host. */
export const handoffHref = (target: string): string => `${HANDOFF_PATH}?${new URLSearchParams({ to: target }).toString()}`;

type SiteRef = Pick<Site, 'id' | 'slug' | 'domains'>;

/**
 * The preview link of a page: its URL on its own site with `?preview=DRAFT` or `?preview=PUBLISHED`.
 * A page of a site on another host than `here` is reached through the handoff endpoint, which
 * carries the editor's session there. A global page (no site) is previewed on the chosen site.
 * @example previewHref({ path: '/sustainability', siteId: 'site-main' }, 'DRAFT', { site: main, locale: en, sites, here }) // '/en/sustainability?preview=DRAFT'
 */
export function previewHref(
  page: { id: string; path: string; siteId: string | null },
  stage: Stage,
  ctx: { site: SiteRef; main: SiteRef; locale: Pick<Locale, 'urlCode'>; sites: SiteRef[]; here: URL },
): string {
  const owner = page.siteId ?? ctx.site.id;
  const resolved = resolveLink(
    { text: null, page: { id: page.id, path: page.path, siteId: owner, title: null }, path: null, url: null, productSlug: null, serviceSlug: null, pageParameters: { [PREVIEW_PARAM]: stage }, openInNewTab: false },
    { site: ctx.main, locale: ctx.locale, sites: ctx.sites, here: ctx.here },
  );
  if (!resolved || resolved.kind === 'action') return `${localizedPath(ctx.site, ctx.locale, page.path)}?${PREVIEW_PARAM}=${stage}`;
  return /^https?:\/\//.test(resolved.href) ? handoffHref(resolved.href) : resolved.href;
}

/** The editor area of a locale, with a chosen site, language and stage. */
export function editorHref(main: Pick<Site, 'slug'>, locale: Pick<Locale, 'urlCode'>, choice?: { site: string; lang: string; stage: Stage }): string {
  const base = localizedPath(main, locale, EDITOR_PATH);
  return choice ? `${base}?${new URLSearchParams({ site: choice.site, lang: choice.lang, stage: choice.stage }).toString()}` : base;
}
