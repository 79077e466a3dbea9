import type { Breadcrumb } from '../../site/breadcrumbs.ts';
import { localizedPath } from '../../site/paths.ts';
import type { Locale, Site } from '../../site/types.ts';

/**
 * Breadcrumbs of an editorial page: home, then the trail (site-relative paths), the last item
 * not clickable (spec 2.6).
 * @example editorialBreadcrumbs(main, en, 'Home', [{ title: 'Stories', path: '/stories' }, { title: 'Carpatia' }])
 */
export function editorialBreadcrumbs(
  site: Pick<Site, 'slug'>, locale: Pick<Locale, 'urlCode'>, homeTitle: string, trail: { title: string; path?: string }[],
): Breadcrumb[] {
  return [
    { title: homeTitle, route: localizedPath(site, locale) },
    ...trail.map((item, i) => ({ title: item.title, route: i === trail.length - 1 || !item.path ? null : localizedPath(site, locale, item.path) })),
  ];
}
