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


/** True when the first segment after the locale names a technical area. */
export function isTechnicalArea(segments: string[]): boolean {
  return (TECHNICAL_AREAS as readonly string[]).includes(segments[0] ?? '');
}
