import * as v from 'valibot';

/** Stories per overview page. */
export const STORY_PAGE_SIZE = 12;
/** Media releases per list page. */
export const MEDIA_RELEASE_PAGE_SIZE = 20;
/**
 * Query parameters that change what the story overview and the media release list render. The
 * static file of a list is its unfiltered first page, so requests with these must be rendered on demand
 * (policy.ts declares them to the server).
 */
export const LIST_QUERY_PARAMS = ['category', 'page'] as const;

const Page = v.optional(v.pipe(v.string(), v.regex(/^[1-9]\d{0,3}$/), v.transform(Number)), '1');
const Category = v.optional(v.union([v.literal(''), v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,80}$/))]), '');

const ListQuery = v.object({ page: Page, category: Category });

export interface ListQuery {
  /** Category slug, null for all. */
  category: string | null;
  /** 1-based. */
  page: number;
}

/**
 * Reads `?category=…&page=…` of a list page; null when a value is malformed (the page answers 404).
 * An empty category means all categories; other parameters are ignored.
 * @example parseListQuery(new URLSearchParams('category=technology&page=2')) // { category: 'technology', page: 2 }
 */
export function parseListQuery(params: URLSearchParams): ListQuery | null {
  const parsed = v.safeParse(ListQuery, { page: params.get('page') ?? undefined, category: params.get('category') ?? undefined });
  if (!parsed.success) return null;
  return { page: parsed.output.page, category: parsed.output.category || null };
}

/**
 * The URL of a list page; the first page and "all categories" are left out of the query.
 * @example listHref('/en/stories', { category: 'technology', page: 1 }) // '/en/stories?category=technology'
 */
export function listHref(base: string, query: ListQuery): string {
  const params = new URLSearchParams();
  if (query.category) params.set('category', query.category);
  if (query.page > 1) params.set('page', String(query.page));
  const qs = params.toString();
  return qs ? `${base}?${qs}` : base;
}

/** Number of pages for `total` items (at least 1, so an empty list still has its first page). */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** Items to skip for a 1-based page. */
export function skipFor(page: number, size: number): number {
  return (page - 1) * size;
}

/**
 * The page numbers a pager shows: first, last, and the neighbours of the current page, with
 * null where pages are left out.
 * @example pageWindow(6, 10) // [1, null, 5, 6, 7, null, 10]
 */
export function pageWindow(current: number, count: number): (number | null)[] {
  const wanted = new Set([1, count, current - 1, current, current + 1].filter((p) => p >= 1 && p <= count));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((p, i) => {
    const prev = sorted[i - 1];
    if (prev !== undefined && p - prev === 2) out.push(prev + 1);
    else if (prev !== undefined && p - prev > 2) out.push(null);
    out.push(p);
  });
  return out;
}
