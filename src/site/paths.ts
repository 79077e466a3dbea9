import type { Locale, Site } from './types.ts';

/** Areas that are not content pages: they switch off consent, monitoring and tag-manager scripts. */
export const TECHNICAL_AREAS = ['style-guide', 'callback'] as const;
/** Paths of the main site that are not public. */
export const NON_PUBLIC_AREAS = ['mykomax', 'editor'] as const;

export interface PathParts {
  /** Segments after the locale and, for a site with a slug, after the site slug. */
  segments: string[];
  /** Last segment, `home` when there is none. */
  slug: string;
  /** Segment before the slug, `home` when there is none. */
  parentSlug: string;
  /** `/a/b` (site-relative), empty for the home page. */
  pagePath: string;
}

/** Splits the path of a page below the locale and site prefix into slug and parent slug. */
export function pathParts(segments: string[]): PathParts {
  const clean = segments.filter(Boolean);
  return {
    segments: clean,
    slug: clean.at(-1) ?? 'home',
    parentSlug: clean.at(-2) ?? 'home',
    pagePath: clean.length ? `/${clean.join('/')}` : '',
  };
}

/** The home path of a site below the locale: '/' for the main site or a site on its own domain, else '/{siteSlug}'. */
export function homePath(site: Pick<Site, 'slug'>): string {
  return site.slug ? `/${site.slug}` : '/';
}

/**
 * The URL path of a site page for a locale.
 * @example localizedPath(brandPortal, de, '/logos') // '/de/brand-portal/logos'
 */
export function localizedPath(site: Pick<Site, 'slug'>, locale: Pick<Locale, 'urlCode'>, pagePath = ''): string {
  const home = homePath(site);
  const base = `/${locale.urlCode}${home === '/' ? '' : home}`;
  const rest = pagePath === '/' ? '' : pagePath;
  return `${base}${rest && !rest.startsWith('/') ? '/' : ''}${rest}`;
}

/*
 * Site-relative routes (below the locale and the site slug) of the pages that are not content-hub
 * pages, and their builders: every URL of a story, contact, media release, product link, search,
 * comparison or file download is made here. Turn a site-relative path into a URL with
 * `localizedPath(site, locale, path)`; islands get `localizedPath(site, locale)` as `prefix` and
 * append the path. Catalogue pages take their routes from the catalogue (`route` fields).
 */
export const STORIES_PATH = '/stories';
export const STORY_CONTACTS_PATH = '/stories/contacts';
export const MEDIA_RELEASES_PATH = '/media-releases';
export const SEARCH_PATH = '/search';
export const COMPARISON_PATH = '/comparison';
/** The catalogue bases (spec 2.1). */
export const PRODUCTS_PATH = '/products';
export const SERVICES_PATH = '/services';

const segment = (slug: string) => encodeURIComponent(slug);

/** @example storyPath('carpatia-doubles-crimping-output') // '/stories/carpatia-doubles-crimping-output' */
export function storyPath(slug: string): string {
  return `${STORIES_PATH}/${segment(slug)}`;
}

/** @example storyContactPath('jonas-baumann') // '/stories/contacts/jonas-baumann' */
export function storyContactPath(slug: string): string {
  return `${STORY_CONTACTS_PATH}/${segment(slug)}`;
}

/** @example mediaReleasePath('new-plant') // '/media-releases/new-plant' */
export function mediaReleasePath(slug: string): string {
  return `${MEDIA_RELEASES_PATH}/${segment(slug)}`;
}

/**
 * A product or service by its slug alone, for links that do not know the classification: the
 * catalogue route redirects it to the canonical route.
 * @example productPath('kappa-310') // '/products/kappa-310'
 */
export function productPath(slug: string): string {
  return `${PRODUCTS_PATH}/${segment(slug)}`;
}

export function servicePath(slug: string): string {
  return `${SERVICES_PATH}/${segment(slug)}`;
}

/**
 * The download URL of a content-hub file (root-relative, the same for every site and locale);
 * `?l=` names the file's language unless it is English.
 * @example fileUrl('brochure', 'de') // '/file/brochure?l=de'
 */
export function fileUrl(slug: string, language?: string): string {
  return `/file/${segment(slug)}${language && language !== 'en' ? `?l=${encodeURIComponent(language)}` : ''}`;
}

/** True when the first segment after the locale names a technical area. */
export function isTechnicalArea(segments: string[]): boolean {
  return (TECHNICAL_AREAS as readonly string[]).includes(segments[0] ?? '');
}
