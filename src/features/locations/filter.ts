import { LOCATION_TYPES, type LocationType } from '../../lib/content/locations/types.ts';

/**
 * The directory's filters (pure; the server's render and the browser's in-place update share
 * them): country, type, brand and a search over name and city. The query parameters are those of
 * the page's plain GET form: `?country=DE&type=service&brand=brand-lumeca&q=…`.
 */

/** Query parameters that change what the directory shows (they bypass the prerendered file). */
export const FILTER_PARAMS = ['country', 'type', 'brand', 'q'] as const;
/** The country value that shows every country (`?country=all`: also on a page that preselects one). */
export const ALL_COUNTRIES = 'all';
/** The search's length bound: what a visitor may type is cut, never rejected. */
export const QUERY_MAX = 100;
/** Shared caches keep a filtered render for a short time (it changes only with the directory). */
export const FILTERED_CACHE_CONTROL = 'public, max-age=60';

export interface LocationFilter {
  /** Country code, or null for every country. */
  country: string | null;
  type: LocationType | null;
  /** Brand id, or null for every brand. */
  brand: string | null;
  /** The search as typed (trimmed); '' for none. */
  q: string;
}

/** What a filter looks at of an entry (a card's data attributes carry the same in the browser). */
export interface FilterableLocation {
  name: string;
  type: string;
  city: string;
  countryCode: string;
  brandIds: readonly string[];
}

/** Lower case without accents (and ß as ss), so "zurich" finds "Zürich" and "GYOR" finds "Győr". */
export function normalizeText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss').toLowerCase().replace(/\s+/g, ' ').trim();
}

const isType = (value: string): value is LocationType => (LOCATION_TYPES as readonly string[]).includes(value);

/**
 * The filter a request asks for. Without a `country` parameter the page's preselected country
 * applies (`defaultCountry`, null for all); `country=all` (or empty) shows every country. Values
 * that are not of the expected shape are ignored (the directory shows instead of an error).
 */
export function parseFilter(params: URLSearchParams, defaultCountry: string | null): LocationFilter {
  const country = params.get('country');
  const code = country?.trim().toUpperCase() ?? '';
  const type = params.get('type')?.trim().toLowerCase() ?? '';
  const brand = params.get('brand')?.trim() ?? '';
  return {
    country: country === null ? defaultCountry : /^[A-Z]{2}$/.test(code) ? code : null,
    type: isType(type) ? type : null,
    brand: /^[\w-]{1,60}$/.test(brand) ? brand : null,
    q: (params.get('q') ?? '').trim().slice(0, QUERY_MAX),
  };
}

/** Whether a request carries any filter parameter (then it is rendered on demand). */
export function hasFilterParams(params: URLSearchParams): boolean {
  return FILTER_PARAMS.some((p) => params.has(p));
}

/** Whether an entry passes every filter; the search matches name or city, case- and accent-insensitive. */
export function matchesFilter(entry: FilterableLocation, filter: LocationFilter): boolean {
  if (filter.country && entry.countryCode.toUpperCase() !== filter.country) return false;
  if (filter.type && entry.type !== filter.type) return false;
  if (filter.brand && !entry.brandIds.includes(filter.brand)) return false;
  const q = normalizeText(filter.q);
  if (q && !normalizeText(entry.name).includes(q) && !normalizeText(entry.city).includes(q)) return false;
  return true;
}

/** The entries that pass the filter, in their order. */
export function filterLocations<T extends FilterableLocation>(entries: readonly T[], filter: LocationFilter): T[] {
  return entries.filter((e) => matchesFilter(e, filter));
}

/**
 * The query string that reproduces a filter on a page whose preselected country is
 * `defaultCountry`: only what differs from the page's default ('' for the default view).
 */
export function filterQuery(filter: LocationFilter, defaultCountry: string | null): string {
  const params = new URLSearchParams();
  if (filter.country !== defaultCountry) params.set('country', filter.country ?? ALL_COUNTRIES);
  if (filter.type) params.set('type', filter.type);
  if (filter.brand) params.set('brand', filter.brand);
  if (filter.q) params.set('q', filter.q);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * The Cache-Control of an on-demand render of a page with a locations directory asked with filter
 * parameters (a short shared cache, like the search results page); null for any other render.
 */
export function filteredCacheControl(modules: readonly { type: string }[], params: URLSearchParams): string | null {
  return hasFilterParams(params) && modules.some((m) => m.type === 'locationsDirectory') ? FILTERED_CACHE_CONTROL : null;
}
