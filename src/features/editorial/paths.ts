import type { Breadcrumb } from '../../site/breadcrumbs.ts';
import { localizedPath } from '../../site/paths.ts';
import type { Locale, Site } from '../../site/types.ts';

/**
 * Site-relative paths of the editorial routes (below locale and site slug); turn them into URLs
 * with `localizedPath(site, locale, path)`.
 * @example storyPath('carpatia-doubles-crimping-output') // '/stories/carpatia-doubles-crimping-output'
 */
export const STORIES_PATH = '/stories';
export const STORY_CONTACTS_PATH = '/stories/contacts';
export const MEDIA_RELEASES_PATH = '/media-releases';

const segment = (slug: string) => encodeURIComponent(slug);

export function storyPath(slug: string): string {
  return `${STORIES_PATH}/${segment(slug)}`;
}

export function storyContactPath(slug: string): string {
  return `${STORY_CONTACTS_PATH}/${segment(slug)}`;
}

export function mediaReleasePath(slug: string): string {
  return `${MEDIA_RELEASES_PATH}/${segment(slug)}`;
}

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
