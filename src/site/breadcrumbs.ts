import type { VisibleNavItem } from './navigation.ts';

export interface Breadcrumb {
  title: string;
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
}): Breadcrumb[] {
  const trail = findTrail(opts.nav, opts.currentHref) ?? [];
  const crumbs: Breadcrumb[] = [{ title: opts.home.title, route: opts.home.route }];
  if (opts.currentHref === opts.home.route) return [{ title: opts.home.title, route: null }];
  for (const item of trail.slice(0, -1)) {
    if (item.link.kind === 'action') continue;
    crumbs.push({ title: item.breadcrumbOverride ?? item.title, route: item.link.href });
  }
  const last = trail.at(-1);
  crumbs.push({ title: last?.breadcrumbOverride ?? opts.currentTitle, route: null });
  return crumbs;
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
