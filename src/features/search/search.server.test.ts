import { describe, expect, it } from 'vitest';
import { SearchError, type SearchQuery, type SearchResult, type ServerSearchBackend } from '../../lib/search/index.ts';
import type { Site, SystemData } from '../../site/types.ts';
import { SEARCH_CACHE, searchForPage, searchOnHost, searchPageHref, sitePath, type SearchAccess } from './search.server.ts';
import { foreignSearchError } from '../../../tests/support/search-error.ts';

const site = (id: string, extra: Partial<Site>): Site => ({
  id, name: id, technicalName: id, slug: '', isMain: false, internationalOnly: false, hideSideButtons: false,
  enableCutFont: false, theme: 'Default', mainSiteOnly: false, headerNavigationId: 'h', footerNavigationId: 'f',
  domains: [], addLanguages: [], dropLanguages: [], ...extra,
});
const system = {
  sites: [
    site('main', { isMain: true, domains: [{ host: 'localhost', slug: null }] }),
    site('events', { technicalName: 'komax_events', domains: [{ host: 'events.localhost', slug: null }] }),
  ],
} as unknown as SystemData;

/** A backend that records what it was asked and answers `answer` (or throws it). */
function access(answer: SearchResult | Error, withSystem = true): SearchAccess & { asked: SearchQuery[] } {
  const asked: SearchQuery[] = [];
  const run = async (q: SearchQuery) => {
    asked.push(q);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  const backend = { search: run, suggest: run, open: async () => {}, health: async () => ({ ok: true }), reload: async () => {} } as ServerSearchBackend;
  return { asked, search: () => Promise.resolve(backend), ...(withSystem ? { system } : {}) };
}

const hits = (n: number, total: number, page = 1): SearchResult => ({
  records: Array.from({ length: n }, (_, i) => ({ title: `T${i}`, description: `a <mark>x</mark> ${i}`, url: `/en/t${i}` })), total, page,
});
const params = (s: string) => new URLSearchParams(s);


describe('searchOnHost: one scoping for the API and the page', () => {
  it('searches the index of the site on the request host', async () => {
    const a = access(hits(1, 1));
    await searchOnHost('search', a, 'events.localhost:4321', { localeCode: 'en', siteSlug: '', query: 'x', page: 2 });
    await searchOnHost('suggest', a, 'localhost', { localeCode: 'de', siteSlug: '', query: 'xy' });
    expect(a.asked).toEqual([
      { localeCode: 'en', siteSlug: 'komax_events', query: 'x', page: 2 },
      { localeCode: 'de', siteSlug: '', query: 'xy' },
    ]);
  });
});

describe('searchForPage', () => {
  it('without a query shows the prompt and asks nothing', async () => {
    const a = access(hits(1, 1));
    for (const q of ['', '?q=', '?q=%20%20', '?page=2']) {
      expect(await searchForPage(a, 'localhost', 'en', params(q))).toEqual({ state: { kind: 'prompt' }, status: 200, headers: { 'Cache-Control': SEARCH_CACHE } });
    }
    expect(a.asked).toEqual([]);
  });

  it('asks the backend with the API request shape, scoped by host, and answers the results with a short shared cache', async () => {
    const a = access(hits(10, 25, 2));
    const out = await searchForPage(a, 'events.localhost', 'de-CH', params('q=%20Kabel%20&page=2'));
    expect(a.asked).toEqual([{ localeCode: 'de-CH', siteSlug: 'komax_events', query: 'Kabel', page: 2 }]);
    expect(out.status).toBe(200);
    expect(out.headers).toEqual({ 'Cache-Control': 'public, max-age=60' });
    expect(out.state).toMatchObject({ kind: 'results', query: 'Kabel', page: 2, pages: 3, total: 25 });
    expect(out.state.kind === 'results' && out.state.records).toHaveLength(10);
  });

  it('an empty result is a 200 with the empty state', async () => {
    const out = await searchForPage(access(hits(0, 0)), 'localhost', 'en', params('q=zzqxwv'));
    expect(out).toMatchObject({ status: 200, state: { kind: 'results', total: 0, pages: 1, records: [] } });
  });

  it('a malformed page is a 400 (valibot message), not cached, and the backend is not asked', async () => {
    for (const page of ['abc', '0', '-1', '101', '1.5', '99999']) {
      const a = access(hits(1, 1));
      const out = await searchForPage(a, 'localhost', 'en', params(`q=x&page=${page}`));
      expect(out, page).toEqual({ state: { kind: 'invalid', query: 'x', message: 'page must be a whole number from 1 to 100' }, status: 400, headers: { 'Cache-Control': 'no-store' } });
      expect(a.asked).toEqual([]);
    }
    // An empty page field (a form) is the first page.
    expect((await searchForPage(access(hits(1, 1)), 'localhost', 'en', params('q=x&page='))).state).toMatchObject({ kind: 'results', page: 1 });
  });

  it('no index is a 503 with Retry-After, an engine failure a 502; both show the error state and are not cached', async () => {
    const missing = await searchForPage(access(new SearchError('not-ready', 'Search is not available right now')), 'localhost', 'en', params('q=machine'));
    expect(missing).toEqual({ state: { kind: 'failed', query: 'machine' }, status: 503, headers: { 'Cache-Control': 'no-store', 'Retry-After': '60' } });
    const failing = await searchForPage(access(new SearchError('backend', 'engine down')), 'localhost', 'en', params('q=machine'));
    expect(failing).toEqual({ state: { kind: 'failed', query: 'machine' }, status: 502, headers: { 'Cache-Control': 'no-store' } });
    // The server opens the backend with its own copy of the search module (another SearchError class).
    const foreign = await searchForPage(access(foreignSearchError('not-ready', 503)), 'localhost', 'en', params('q=machine'));
    expect(foreign.status).toBe(503);
    const crashed = await searchForPage(access(new TypeError('boom')), 'localhost', 'en', params('q=machine'));
    expect(crashed.status).toBe(502);
  });

  it('cuts a long query to what the backend searches', async () => {
    const a = access(hits(0, 0));
    const out = await searchForPage(a, 'localhost', 'en', params(`q=${'a'.repeat(500)}`));
    expect(a.asked[0]!.query).toHaveLength(200);
    expect(out.state.kind === 'results' && out.state.query).toHaveLength(200);
  });
});

describe('links of the results page', () => {
  it('paging links keep the query, encoded', () => {
    expect(searchPageHref('/de/search', 'a&b <script>', 2)).toBe('/de/search?q=a%26b+%3Cscript%3E&page=2');
    expect(searchPageHref('/de/search', 'x', 1)).toBe('/de/search?q=x');
  });

  it('links only site paths', () => {
    expect(sitePath('/de/produkte/x')).toBe('/de/produkte/x');
    for (const bad of ['javascript:alert(1)', '//evil.example/x', '/\\evil.example', 'https://evil.example']) expect(sitePath(bad), bad).toBeNull();
  });
});
