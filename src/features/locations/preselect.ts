import type { Locale } from '../../site/types.ts';

/**
 * The country the directory preselects on a page: the locale's country (`/de-ch` → CH, `/en-us`
 * → US) when the directory has entries there; every country (null) for the international locale
 * (`/en`) or a country without entries (an empty list is no help).
 */
export function preselectedCountry(locale: Pick<Locale, 'country' | 'isInternational'>, countries: Iterable<string>): string | null {
  if (locale.isInternational) return null;
  const code = locale.country.toUpperCase();
  for (const c of countries) if (c.toUpperCase() === code) return code;
  return null;
}
