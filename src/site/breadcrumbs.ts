import type { VisibleNavItem } from './navigation.ts';

export interface Breadcrumb {
  title: string;
  /** The language the title is written in, when known (a fallback may differ from the page's). */
  titleLanguage?: string | null;
  /** Null for the last item: it is not clickable and marked current. */
  route: string | null;
}

/**
 * Breadcrumbs for a page (spec 2.6): home first, then the navigation path to the page, the page
 * itself last (not clickable). When the navigation does not contain the page, its URL segments
 * give the trail.
 */
export function breadcrumbs(opts: {
  home: { title: string; route: string };
  nav: VisibleNavItem[];
  currentHref: string;
  currentTitle: string;
  /** The language of `currentTitle` (the page's content language). */
  currentLanguage?: string | null;
}): Breadcrumb[] {
  const trail = findTrail(opts.nav, opts.currentHref) ?? [];
  const crumbs: Breadcrumb[] = [{ title: opts.home.title, route: opts.home.route }];
  if (opts.currentHref === opts.home.route) return [{ title: opts.home.title, route: null }];
  for (const item of trail.slice(0, -1)) {
    if (item.link.kind === 'action') continue;
    crumbs.push(crumb(item.breadcrumbOverride ?? item.title, item.link.href, item.titleLanguage));
  }
  const last = trail.at(-1);
  crumbs.push(last?.breadcrumbOverride ? crumb(last.breadcrumbOverride, null, last.titleLanguage) : crumb(opts.currentTitle, null, opts.currentLanguage));
  return crumbs;
}

/** A crumb, with the language of its title only when known. */
function crumb(title: string, route: string | null, language: string | null | undefined): Breadcrumb {
  return language ? { title, route, titleLanguage: language } : { title, route };
}

/** Home plus '404' pointing to '/', for an unknown page. */
export function notFoundBreadcrumbs(homeTitle: string): Breadcrumb[] {
  return [{ title: homeTitle, route: '/' }, { title: '404', route: null }];
}

function findTrail(items: VisibleNavItem[], href: string): VisibleNavItem[] | null {
  for (const item of items) {
    if (item.link.kind !== 'action' && item.link.href.split('?')[0] === href) return [item];
    const sub = findTrail(item.items, href);
    if (sub) return [item, ...sub];
  }
  return null;
}
