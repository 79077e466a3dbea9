import { ALL_COUNTRY } from './locale.ts';
import type { Country, Site } from './types.ts';

/*
 * The configuration errors of spec public-site §8, with the spec's texts. They are raised where
 * the content hub's data makes a request impossible to answer as configured, and logged by whoever
 * catches them (the error page, or the 404 path for a missing page).
 */

/** Content-hub data that cannot serve a request as configured (an operator must fix the data). */
export class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

/** 'Invalid home page configuration for site …': the site has no home page for this country. */
export function invalidHomePageMessage(site: Pick<Site, 'name'>, countryCode: string): string {
  return `Invalid home page configuration for site ${site.name}: no universal page configured and no page configured for country ${countryCode}`;
}

/** '… does not have countries supporting its content language': no country of the page speaks its language. */
export function noCountryForLanguageMessage(page: { id: string }, language: string): string {
  return `Page ${page.id} does not have countries supporting its content language ${language}`;
}

/** '[siteData] no navigation item with slug … exists': a path that names no page of the site. */
export function noNavigationItemMessage(slug: string): string {
  return `[siteData] no navigation item with slug ${slug} exists`;
}

/** 'Page Not Found: {fullPath}': the invalid route (path and query) the 404 page answers. */
export function pageNotFoundMessage(fullPath: string): string {
  return `Page Not Found: ${fullPath}`;
}

/**
 * The country a page restricted to some countries is shown in for a language: the first of its
 * countries (in the page's order) that supports the language; null for a page offered everywhere
 * (any locale of the language shows it). A restricted page none of whose countries speaks the
 * language cannot be linked in it: a {@link ConfigurationError}.
 * @example pageCountryFor({ id: 'p', countries: ['DE', 'CH'] }, 'fr', countries) // 'CH'
 */
export function pageCountryFor(page: { id: string; countries: readonly string[] }, language: string, countries: readonly Pick<Country, 'countryCode' | 'supportedLanguages'>[]): string | null {
  const restricted = page.countries.filter((c) => c !== ALL_COUNTRY);
  if (restricted.length === 0) return null;
  const match = restricted.find((code) => countries.find((c) => c.countryCode === code)?.supportedLanguages.includes(language));
  if (!match) throw new ConfigurationError(noCountryForLanguageMessage(page, language));
  return match;
}
