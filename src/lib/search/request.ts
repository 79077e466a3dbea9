/**
 * Validation of search and suggest requests, shared by both engines and by the API routes.
 */
import { parseLocale, type Language } from './analysis.ts';
import { isSiteSlug } from './documents.ts';
import { MAX_PAGE, MAX_QUERY_CHARS, SearchError, type SearchQuery, type SuggestQuery } from './types.ts';

/** A request after validation: what an engine works with. */
export interface NormalizedQuery {
  localeCode: string;
  language: Language;
  /** Upper-case country of the locale (`CH` for `de-CH`), absent for an international locale. */
  country?: string;
  site: string;
  /** Trimmed, at most MAX_QUERY_CHARS characters; may be empty. */
  query: string;
  page: number;
}

function pageNumber(page: unknown): number {
  if (page === undefined || page === null) return 1;
  const n = typeof page === 'string' && /^\d{1,4}$/.test(page) ? Number(page) : page;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_PAGE) {
    throw new SearchError('invalid-request', `page must be a whole number from 1 to ${MAX_PAGE}`);
  }
  return n;
}

/** Checks a search request; throws a SearchError (`invalid-request` or `unknown-locale`). */
export function normalizeQuery(q: SearchQuery | SuggestQuery): NormalizedQuery {
  if (!q || typeof q !== 'object') throw new SearchError('invalid-request', 'The request must be a JSON object');
  const { language, country } = parseLocale(q.localeCode);
  const site = q.siteSlug ?? '';
  if (!isSiteSlug(site)) throw new SearchError('invalid-request', 'siteSlug must be a lowercase slug or empty');
  if (q.query !== undefined && q.query !== null && typeof q.query !== 'string') throw new SearchError('invalid-request', 'query must be a string');
  const query = (q.query ?? '').trim().slice(0, MAX_QUERY_CHARS);
  const page = pageNumber((q as SearchQuery).page);
  return { localeCode: q.localeCode.trim(), language, ...(country ? { country } : {}), site, query, page };
}

/**
 * The body of `POST /api/search-proxy/search` as a SearchQuery (throws `invalid-request`).
 * Unknown properties are ignored.
 */
export function parseSearchRequest(body: unknown): SearchQuery {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new SearchError('invalid-request', 'The request must be a JSON object');
  const b = body as Record<string, unknown>;
  const q: SearchQuery = {
    localeCode: b.localeCode as string,
    siteSlug: (b.siteSlug ?? '') as string,
    query: (b.query ?? '') as string,
    page: pageNumber(b.page),
  };
  normalizeQuery(q);
  return q;
}

/** The body of `POST /api/search-proxy/suggest` as a SuggestQuery (throws `invalid-request`). */
export function parseSuggestRequest(body: unknown): SuggestQuery {
  const { page: _page, ...q } = parseSearchRequest(body && typeof body === 'object' ? { ...body, page: undefined } : body);
  return q;
}
