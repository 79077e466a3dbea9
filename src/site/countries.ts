import { ALL_COUNTRY, localizedName } from './locale.ts';
import type { Country, Locale } from './types.ts';

/**
 * Whether something offered in `countries` shows in a country: an empty list means everywhere,
 * and the international view (ALL) shows everything. The one rule for pages, navigation items,
 * catalogue entries and search documents.
 * @example isOfferedIn([], 'CH') // true
 * @example isOfferedIn(['DE'], 'CH') // false
 */
export function isOfferedIn(countries: readonly string[], countryCode: string): boolean {
  return countryCode === ALL_COUNTRY || countries.length === 0 || countries.includes(countryCode);
}

/**
 * The countries a visitor can pick in a form (not hidden, not the international ALL), named in
 * the page's locale and sorted for its language (`collatorLocale`, e.g. `de-CH`).
 */
export function countryChoices(countries: readonly Country[], locale: Locale, collatorLocale: string): { code: string; name: string }[] {
  const collator = new Intl.Collator(collatorLocale);
  return countries
    .filter((c) => !c.hidden && c.countryCode !== ALL_COUNTRY)
    .map((c) => ({ code: c.countryCode, name: localizedName(c.localizations, locale, c.countryCode) }))
    .sort((a, b) => collator.compare(a.name, b.name));
}
