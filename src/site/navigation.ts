import { isOfferedIn } from './countries.ts';
import type { MarketingSection, NavItem } from './navigation-types.ts';
import { resolveLink, type LinkContext, type ResolvedLink } from './links.ts';

/**
 * The marketing section's background colours: the tone of what stands on it, then the colour.
 * The content hub's default is `Dark_White` (spec §3); an unknown name gets the default too.
 */
export const MARKETING_BACKGROUNDS = ['Dark_White', 'Dark_Gray', 'Light_Blue', 'Light_Black'] as const;
export type MarketingBackground = (typeof MARKETING_BACKGROUNDS)[number];
export const DEFAULT_MARKETING_BACKGROUND: MarketingBackground = 'Dark_White';

/** A known background colour by name, any case: `light_blue` → `Light_Blue`; unknown or empty → `Dark_White`. */
export function marketingBackground(name: string | null | undefined): MarketingBackground {
  return MARKETING_BACKGROUNDS.find((b) => b.toLowerCase() === (name ?? '').trim().toLowerCase()) ?? DEFAULT_MARKETING_BACKGROUND;
}

export interface VisibleMarketing {
  logo: { url: string; alt: string };
  background: MarketingBackground;
  /** Null when the section has no link, or one without a usable target: the logo shows unlinked. */
  link: ResolvedLink | null;
}

export interface VisibleNavItem {
  id: string;
  title: string;
  /** The language the title is written in, see `NavItem.titleLanguage`. */
  titleLanguage: string | null;
  link: ResolvedLink;
  items: VisibleNavItem[];
  breadcrumbOverride: string | null;
  /** A hidden item, shown only in editor mode (the draft preview), where it is marked as hidden. */
  hidden?: true;
  /** The marketing section of its mega menu, when it has one with a logo. */
  marketing?: VisibleMarketing;
}

export interface NavFilter extends LinkContext {
  country: string;
  editorMode: boolean;
  /** Called for an item whose link has no target at all (spec: a console warning only for a missing URL). */
  warn?: (message: string) => void;
}

/** A navigation item shows only if its countries list is empty or includes the current country; anything goes in the all-countries view. */
export function visibleInCountry(item: Pick<NavItem, 'countries'>, country: string): boolean {
  return isOfferedIn(item.countries, country);
}

/**
 * A marketing section as the mega menu shows it, or null without a logo (a colour and a link alone
 * show nothing). The logo's alternative text names it; without one, the link's text or the item's
 * title does.
 */
export function visibleMarketing(section: MarketingSection | null | undefined, title: string, ctx: LinkContext): VisibleMarketing | null {
  if (!section?.logo?.url) return null;
  const link = section.link ? resolveLink(section.link, ctx) : null;
  const alt = section.logo.alternativeText?.trim() || section.link?.text?.trim() || title;
  return { logo: { url: section.logo.url, alt }, background: marketingBackground(section.backgroundColor), link };
}

/**
 * Filters a navigation tree for the current request: country, hidden items (editor mode only),
 * items without a usable link are skipped. Sub items of an item flagged hideSubItems are dropped.
 */
export function filterNavigation(items: NavItem[], filter: NavFilter): VisibleNavItem[] {
  const out: VisibleNavItem[] = [];
  for (const item of items) {
    if (!visibleInCountry(item, filter.country)) continue;
    if (item.hidden && !filter.editorMode) continue;
    if (!item.link) continue;
    const link = resolveLink(item.link, filter);
    if (!link) {
      const l = item.link;
      if (!l.page && !l.path && !l.url && !l.productSlug && !l.serviceSlug) {
        filter.warn?.(`Navigation item "${item.title}" (${item.id}) has no URL`);
      }
      continue;
    }
    const marketing = visibleMarketing(item.marketingSection, item.title, filter);
    out.push({
      id: item.id,
      title: item.title,
      titleLanguage: item.titleLanguage,
      link,
      breadcrumbOverride: item.breadcrumbOverride,
      ...(item.hidden ? { hidden: true as const } : {}),
      ...(marketing ? { marketing } : {}),
      items: item.hideSubItems ? [] : filterNavigation(item.items, filter),
    });
  }
  return out;
}
