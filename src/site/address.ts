/**
 * Countries whose postal addresses name a state, province, prefecture or emirate, so an address
 * form requires one there and nowhere else (Switzerland, Germany, Austria … have none in an
 * address). Taken from Google's address metadata (libaddressinput, chromium-i18n `ssl-address`
 * data), the countries whose `require` field includes `S`. ISO 3166-1 alpha-2 codes.
 */
export const COUNTRIES_WITH_STATES: ReadonlySet<string> = new Set([
  'AE', 'AU', 'BR', 'CA', 'CN', 'ES', 'HK', 'ID', 'IN', 'IT', 'JP', 'KR', 'MX', 'MY', 'US',
]);

/**
 * Whether an address in this country needs its state (province, prefecture); false for no country.
 * @example countryHasStates('us') // true
 * @example countryHasStates('CH') // false
 */
export function countryHasStates(countryCode: string | null | undefined): boolean {
  return !!countryCode && COUNTRIES_WITH_STATES.has(countryCode.trim().toUpperCase());
}
