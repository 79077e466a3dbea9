/**
 * The answer of the navigation APIs (spec §7): `site.headerNavigation` (homeItems, topItems,
 * theme, hidden) and `site.footerNavigation` (navigationSections, theme, contactLink), each item
 * with its link resolved to an address. Pure.
 */
import { resolveLink, type LinkContext } from '../../site/links.ts';
import type { FooterNavigation, HeaderNavigation, Link, NavItem } from '../../site/navigation-types.ts';
import type { Stage } from '../../lib/content/content-service.ts';

export interface NavigationLink {
  text: string | null;
  /** Where the link goes: a path on this host, an absolute URL, or `action:<name>` (spec 2.6). */
  href: string;
  newTab: boolean;
}

export interface NavigationItem {
  id: string;
  title: string;
  /** The language the title is written in (a fallback may differ from the asked language). */
  titleLanguage: string | null;
  link: NavigationLink;
  /** Countries the item is offered in (empty: everywhere); a client filters by its country. */
  countries: string[];
  /** Shown only in editor mode (spec §5); the public answer never has such items. */
  hidden: boolean;
  breadcrumbOverride: string | null;
  items: NavigationItem[];
}

export interface SiteNavigationAnswer {
  site: {
    id: string;
    name: string;
    language: string;
    stage: Stage;
    headerNavigation: { homeItems: NavigationItem[]; topItems: NavigationItem[]; theme: string; hidden: boolean } | null;
    footerNavigation: {
      navigationSections: { id: string; title: string; titleLanguage: string | null; items: NavigationItem[] }[];
      theme: string;
      contactLink: NavigationLink | null;
    } | null;
  };
}

function linkOf(link: Link | null, ctx: LinkContext): NavigationLink | null {
  const resolved = resolveLink(link, ctx);
  if (!resolved) return null;
  if (resolved.kind === 'action') return { text: link!.text, href: `action:${resolved.action}`, newTab: false };
  return { text: link!.text, href: resolved.href, newTab: resolved.newTab };
}

/**
 * Items as the answer lists them: an item without a usable link target is skipped (spec §5, also
 * for editors: a link to a page missing from the stage has no target); hidden items stay only
 * when `editorMode` (they are marked `hidden`).
 */
export function navigationItems(items: readonly NavItem[], ctx: LinkContext, editorMode: boolean): NavigationItem[] {
  const out: NavigationItem[] = [];
  for (const item of items) {
    if (item.hidden && !editorMode) continue;
    const link = linkOf(item.link, ctx);
    if (!link) continue;
    out.push({
      id: item.id, title: item.title, titleLanguage: item.titleLanguage, link, countries: item.countries, hidden: item.hidden,
      breadcrumbOverride: item.breadcrumbOverride, items: item.hideSubItems ? [] : navigationItems(item.items, ctx, editorMode),
    });
  }
  return out;
}

/** The whole answer for a site, language and stage. */
export function siteNavigationAnswer(
  site: { id: string; name: string },
  language: string,
  stage: Stage,
  header: HeaderNavigation | null,
  footer: FooterNavigation | null,
  ctx: LinkContext,
  editorMode: boolean,
): SiteNavigationAnswer {
  return {
    site: {
      id: site.id,
      name: site.name,
      language,
      stage,
      headerNavigation: header && {
        homeItems: navigationItems(header.homeItems, ctx, editorMode),
        topItems: navigationItems(header.topItems, ctx, editorMode),
        theme: header.theme,
        hidden: header.hidden,
      },
      footerNavigation: footer && {
        navigationSections: footer.navigationSections.map((s) => ({ id: s.id, title: s.title, titleLanguage: s.titleLanguage, items: navigationItems(s.items, ctx, editorMode) })),
        theme: footer.theme,
        contactLink: linkOf(footer.contactLink, ctx),
      },
    },
  };
}
