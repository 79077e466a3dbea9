import type { Country, Locale, MeasurementSystem, Site, SystemData } from './types.ts';
import { allCountry, checkLocale, makeLocale, measurementSystem, parseLocaleSegment, preferredLocale, siteLanguages, ALL_COUNTRY } from './locale.ts';
import { isTechnicalArea, localizedPath, NON_PUBLIC_AREAS, pathParts, type PathParts } from './paths.ts';
import { localeRedirect, trailingSlashRedirect, type Redirect } from './redirects.ts';
import { resolveSite } from './resolve-site.ts';

export interface RequestFlags {
  /** `?testing=true`, remembered in a cookie. */
  testing: boolean;
  /** The next-release cookie. */
  nextRelease: boolean;
  /** Editor preview (shows hidden navigation items). */
  editorMode: boolean;
}

export type Area = 'page' | 'technical' | 'style-guide' | 'non-public';

/** Everything a page needs to know about its request, resolved once by the middleware. */
export interface RequestContext {
  system: SystemData;
  site: Site;
  locale: Locale;
  country: Country;
  measurement: MeasurementSystem;
  /** Languages this site offers. */
  languages: string[];
  /** The page path below locale and site slug. */
  page: PathParts;
  area: Area;
  flags: RequestFlags;
}

export type Resolution =
  | { kind: 'redirect'; redirect: Redirect }
  | { kind: 'page'; ctx: RequestContext }
  /** Rendered as the 404 page, in the site and locale that could be made out. */
  | { kind: 'not-found'; ctx: RequestContext }
  /** Not a site page (assets, api, downloads): no resolution needed. */
  | { kind: 'pass' };

export interface RequestInput {
  host: string;
  pathname: string;
  search: string;
  cookies: { locale?: string; measurement?: string };
  flags: RequestFlags;
}

const PASS_THROUGH = ['_astro', '_image', 'api', 'blank-callback', 'file', 'builds'];

/** Decodes a path segment; one that is not valid percent-encoding (Astro already decoded `%25` to `%`) is kept as it is. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The country of a locale (the international view for ALL or an unknown country). */
export function countryOf(system: SystemData, locale: Locale): Country {
  if (locale.country === ALL_COUNTRY) return allCountry(system.languages);
  return system.countries.find((c) => c.countryCode === locale.country) ?? allCountry(system.languages);
}

function context(system: SystemData, site: Site, locale: Locale, segments: string[], area: Area, input: RequestInput): RequestContext {
  const country = countryOf(system, locale);
  return {
    system,
    site,
    locale,
    country,
    measurement: measurementSystem(input.cookies.measurement, country),
    languages: siteLanguages(site, system.languages),
    page: pathParts(segments),
    area,
    flags: input.flags,
  };
}

/**
 * Resolves a request into a site, a locale and a page path (spec 2.2, 2.3), or a redirect:
 * trailing slash 301; no locale or a differently written locale 302; an unknown locale 404.
 */
export function resolveRequest(system: SystemData, input: RequestInput): Resolution {
  const slash = trailingSlashRedirect(input.pathname, input.search);
  if (slash) return { kind: 'redirect', redirect: slash };

  const segments = input.pathname.split('/').filter(Boolean).map(decodeSegment);
  const first = segments[0] ?? '';
  if (PASS_THROUGH.includes(first)) return { kind: 'pass' };

  if (first === 'style-guide') {
    const { site } = resolveSite(system.sites, input.host, undefined);
    return { kind: 'page', ctx: context(system, site, makeLocale('en', null), segments, 'style-guide', input) };
  }

  const parsed = parseLocaleSegment(first);
  if (!parsed) {
    // No locale in the URL: send the visitor to the remembered (or fallback) locale.
    const { site } = resolveSite(system.sites, input.host, first);
    const locale = preferredLocale(input.cookies.locale, site, system);
    const target = segments.length === 0 ? localizedPath(site, locale) : `/${locale.urlCode}${input.pathname}`;
    return { kind: 'redirect', redirect: { status: 302, location: `${target}${input.search}` } };
  }

  const { site, bySlug } = resolveSite(system.sites, input.host, segments[1]);
  const rest = segments.slice(bySlug ? 2 : 1);
  const check = checkLocale(parsed, site, system);
  if (!check.ok) {
    if (check.redirectTo) {
      const location = `/${check.redirectTo.urlCode}${segments.length > 1 ? `/${segments.slice(1).join('/')}` : ''}${input.search}`;
      return { kind: 'redirect', redirect: { status: 302, location } };
    }
    const fallback = preferredLocale(input.cookies.locale, site, system);
    return { kind: 'not-found', ctx: context(system, site, fallback, rest, 'page', input) };
  }
  const caseRedirect = localeRedirect(input.pathname, input.search, check.locale.urlCode);
  if (caseRedirect) return { kind: 'redirect', redirect: caseRedirect };

  const area: Area = isTechnicalArea(rest)
    ? 'technical'
    : site.isMain && (NON_PUBLIC_AREAS as readonly string[]).includes(rest[0] ?? '')
      ? 'non-public'
      : 'page';
  return { kind: 'page', ctx: context(system, site, check.locale, rest, area, input) };
}

/** Flags from the query and cookies: `testing=true` and the nextRelease toggle (spec §4). */
export function requestFlags(params: URLSearchParams, cookies: { testing?: string; nextRelease?: string }): RequestFlags {
  const nr = params.get('nextRelease');
  return {
    testing: params.get('testing') === 'true' || cookies.testing === 'true',
    nextRelease: nr !== null ? nr !== 'false' : !!cookies.nextRelease,
    editorMode: false,
  };
}
