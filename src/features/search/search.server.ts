import * as v from 'valibot';
import { isSearchError, MAX_PAGE, MAX_QUERY_CHARS, PAGE_SIZE, parseSearchRequest, searchSiteKey, type SearchQuery, type SearchRecord, type SearchResult, type SuggestQuery } from '../../lib/search/index.ts';
import { getLogger } from '../../lib/log/index.ts';
import { resolveSite } from '../../site/resolve-site.ts';
import type { ApiContext } from '../platform/context.ts';

const log = getLogger('search');

/** What a search needs from the request context: the system data (sites) and the backend (API and page context alike). */
export type SearchAccess = Pick<ApiContext, 'search'> & { system?: ApiContext['system'] };

/**
 * The one search call of the API (`POST /api/search-proxy/…`) and the results page: scopes the
 * query to the index of the site on this host (sites on their own host and the main site all
 * have an empty slug, so the host decides), then asks the backend. Throws a SearchError.
 */
export async function searchOnHost(kind: 'search' | 'suggest', access: SearchAccess, host: string, query: SearchQuery | SuggestQuery): Promise<SearchResult> {
  const backend = await access.search();
  const site = access.system ? resolveSite(access.system.sites, host, query.siteSlug || undefined).site : null;
  const scoped = { ...query, siteSlug: site ? searchSiteKey(site) : query.siteSlug };
  return kind === 'search' ? backend.search(scoped) : backend.suggest(scoped);
}

/** What the results page shows. */
export type SearchPageState =
  /** No query: the form and a prompt. */
  | { kind: 'prompt' }
  /** The backend answered (`total` 0: the empty state). `page` may lie past `pages` (no records then). */
  | { kind: 'results'; query: string; page: number; pages: number; total: number; records: SearchRecord[] }
  /** The address is not a valid search (a malformed `page`). */
  | { kind: 'invalid'; query: string; message: string }
  /** The search backend failed or has no index. */
  | { kind: 'failed'; query: string };

/** The state with the status and headers to answer with. */
export interface SearchPageOutcome {
  state: SearchPageState;
  status: number;
  headers: Record<string, string>;
}

/** Search answers change only with a release: a short shared cache (spec: the page is `noindex`). */
export const SEARCH_CACHE = 'public, max-age=60';
const NO_STORE = 'no-store';

const PageParams = v.object({
  q: v.optional(v.string(), ''),
  page: v.optional(v.pipe(
    v.string(),
    v.regex(/^\d{0,4}$/, `page must be a whole number from 1 to ${MAX_PAGE}`),
    v.transform((s) => (s === '' ? 1 : Number(s))),
    v.minValue(1, `page must be a whole number from 1 to ${MAX_PAGE}`),
    v.maxValue(MAX_PAGE, `page must be a whole number from 1 to ${MAX_PAGE}`),
  ), '1'),
});

/** The query as searched and shown: trimmed, cut to MAX_QUERY_CHARS (as the backend does). */
const normalize = (q: string) => q.trim().slice(0, MAX_QUERY_CHARS);

/**
 * The results page's search (`/{locale}/search?q=…&page=…`), rendered on the server: validates the
 * address (valibot), asks {@link searchOnHost} with the request shape of the API, and says what to
 * render with which status and cache policy. Never throws for a search failure: 503 (no index)
 * or 502 (engine failed) with the error state; a malformed `page` is a 400.
 */
export async function searchForPage(access: SearchAccess, host: string, localeCode: string, params: URLSearchParams): Promise<SearchPageOutcome> {
  const parsed = v.safeParse(PageParams, { q: params.get('q') ?? undefined, page: params.get('page') ?? undefined });
  const rawQuery = params.get('q') ?? '';
  if (!parsed.success) {
    return { state: { kind: 'invalid', query: normalize(rawQuery), message: parsed.issues[0].message }, status: 400, headers: { 'Cache-Control': NO_STORE } };
  }
  const query = normalize(parsed.output.q);
  const page = parsed.output.page;
  if (!query) return { state: { kind: 'prompt' }, status: 200, headers: { 'Cache-Control': SEARCH_CACHE } };
  try {
    const request = parseSearchRequest({ localeCode, siteSlug: '', query, page });
    const result = await searchOnHost('search', access, host, request);
    const pages = Math.max(1, Math.ceil(result.total / PAGE_SIZE));
    return { state: { kind: 'results', query, page, pages, total: result.total, records: result.records }, status: 200, headers: { 'Cache-Control': SEARCH_CACHE } };
  } catch (err) {
    const status = isSearchError(err) ? err.status : 502;
    if (isSearchError(err) && status < 500) {
      return { state: { kind: 'invalid', query, message: err.message }, status, headers: { 'Cache-Control': NO_STORE } };
    }
    if (isSearchError(err)) log.error(`search page failed: ${err.message}`);
    else log.error({ err }, 'search page failed');
    return { state: { kind: 'failed', query }, status, headers: { 'Cache-Control': NO_STORE, ...(status === 503 ? { 'Retry-After': '60' } : {}) } };
  }
}

/** A result link's target, only when it is a path of this site (the index holds site paths; anything else is not linked). */
export const sitePath = (url: string): string | null => (/^\/(?![/\\])/.test(url) ? url : null);

/** The address of another page of the same search. */
export function searchPageHref(pathname: string, query: string, page: number): string {
  const params = new URLSearchParams({ q: query });
  if (page > 1) params.set('page', String(page));
  return `${pathname}?${params}`;
}
