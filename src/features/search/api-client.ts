import type { SearchResult } from '../../lib/search/types.ts';

export class SearchRequestError extends Error {
  override name = 'SearchRequestError';
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

/** Calls the search API from the browser; a failed answer becomes a SearchRequestError (never swallowed). */
export async function callSearch(kind: 'search' | 'suggest', body: { localeCode: string; siteSlug: string; query: string; page?: number }, signal?: AbortSignal): Promise<SearchResult> {
  const res = await fetch(`/api/search-proxy/${kind}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  if (!res.ok) {
    let message = `Search failed (${res.status})`;
    try {
      message = ((await res.json()) as { message?: string }).message ?? message;
    } catch {
      // keep the generic message
    }
    throw new SearchRequestError(message, res.status);
  }
  return (await res.json()) as SearchResult;
}
