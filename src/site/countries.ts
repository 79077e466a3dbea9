import { ALL_COUNTRY } from './locale.ts';

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
