/**
 * Site search: the contract every engine implements (embedded MiniSearch, OpenSearch) and the
 * shapes the API routes `POST /api/search-proxy/search` and `/suggest` answer with (spec §7).
 */

/** Results per page of `search` and at most this many `suggest` records. */
export const PAGE_SIZE = 10;
/** Suggestions start from the second character of the query. */
export const MIN_SUGGEST_CHARS = 2;
/** Longer queries are cut to this many characters before analysis. */
export const MAX_QUERY_CHARS = 200;
/** Highest page number a search accepts (deep paging is not a site-search use case). */
export const MAX_PAGE = 100;

/** One indexable page: a prerendered, public page in one language of one site. */
export interface SearchDocument {
  /** Stable id, unique per (site, language): the content page id. */
  id: string;
  /** Site-relative URL path of the page, e.g. `/de/produkte/gamma-263`. */
  url: string;
  /** Page title as authored; a trailing ` | {brand}` is stripped when indexed. */
  title: string;
  description: string;
  /** Plain text of the page body (headings, paragraphs, list items, teaser texts…). */
  body: string;
  /** Site slug, `''` for the main site. */
  site: string;
  /** Language code (`de`, not `de-CH`): it decides the analysis. */
  locale: string;
  /**
   * Countries the page is offered in (`[]`: everywhere). A search from a locale with a country
   * (`de-CH`) leaves out pages not offered there. When absent, it is inferred from the locales
   * the page was prerendered under: pass one document per route (`/de/x`, `/de-ch/x`, …).
   */
  countries?: string[];
}

/** One hit as the API answers it. */
export interface SearchRecord {
  /** Plain text (not HTML): the page title without its ` | {brand}` suffix. Render it as text. */
  title: string;
  /** HTML: a snippet with the query words in `<mark>`, every other character escaped. */
  description: string;
  url: string;
}

export interface SearchResult {
  records: SearchRecord[];
  /** Number of matching pages (for `suggest`: all pages matching the prefix, of which ≤ 10 are returned). */
  total: number;
  page: number;
}

export interface SearchQuery {
  /** `de`, `de-CH`, `en-US`…: the language part picks the index, a country part filters restricted pages. */
  localeCode: string;
  /** `''` for the main site. */
  siteSlug: string;
  query: string;
  /** 1-based; defaults to 1. */
  page?: number;
}

export type SuggestQuery = Omit<SearchQuery, 'page'>;

export interface SearchHealth {
  ok: boolean;
  detail?: string;
}

/** What the API routes talk to; the engine is picked by `SEARCH_ENGINE`. */
export interface SearchBackend {
  /** Loads (embedded) or connects to (OpenSearch) the indexes. Await it before the server listens. */
  open(): Promise<void>;
  search(q: SearchQuery): Promise<SearchResult>;
  suggest(q: SuggestQuery): Promise<SearchResult>;
  health(): Promise<SearchHealth>;
}

/**
 * `invalid-request`: malformed query (answer 400). `unknown-locale`: language not supported (400).
 * `not-ready`: `open()` not done or failed (503). `backend`: the engine failed (502). `build`: an index
 * could not be built or written.
 */
export type SearchErrorCode = 'invalid-request' | 'unknown-locale' | 'not-ready' | 'backend' | 'build';

/** Every failure of the search module; never swallowed, always rethrown to the caller. */
export class SearchError extends Error {
  override name = 'SearchError';
  readonly code: SearchErrorCode;

  constructor(code: SearchErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }

  /** The HTTP status an API route should answer with. */
  get status(): number {
    switch (this.code) {
      case 'invalid-request':
      case 'unknown-locale':
        return 400;
      case 'not-ready':
        return 503;
      default:
        return 502;
    }
  }
}

/**
 * Whether an error is a SearchError, also one thrown by another copy of this module: the server
 * opens the backend with `src/`, while the built app that renders pages and API routes bundles
 * its own copy of the class, so `instanceof` alone misses the backend's errors.
 */
export function isSearchError(err: unknown): err is SearchError {
  if (err instanceof SearchError) return true;
  return err instanceof Error && err.name === 'SearchError' && typeof (err as { code?: unknown }).code === 'string' && typeof (err as { status?: unknown }).status === 'number';
}

export const emptyResult = (page = 1): SearchResult => ({ records: [], total: 0, page });
