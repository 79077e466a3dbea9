import { isOfferedIn } from './countries.ts';
import type { NavItem } from './navigation-types.ts';
import { resolveLink, type LinkContext, type ResolvedLink } from './links.ts';

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
    out.push({
      id: item.id,
      title: item.title,
      titleLanguage: item.titleLanguage,
      link,
      breadcrumbOverride: item.breadcrumbOverride,
      ...(item.hidden ? { hidden: true as const } : {}),
      items: item.hideSubItems ? [] : filterNavigation(item.items, filter),
    });
  }
  return out;
}
