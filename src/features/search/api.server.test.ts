import { describe, expect, it } from 'vitest';
import type { APIContext } from 'astro';
import { handleSearch } from './api.server.ts';
import { SearchError, type SearchResult } from '../../lib/search/types.ts';
import { foreignSearchError } from '../../../tests/support/search-error.ts';

function context(body: string, search: unknown, contentType = 'application/json'): APIContext {
  return {
    request: new Request('http://localhost:4321/api/search-proxy/search', { method: 'POST', headers: { 'content-type': contentType }, body }),
    // No backend: what the API context answers while no index is open.
    locals: { api: { search: () => (search ? Promise.resolve(search) : Promise.reject(new SearchError('not-ready', 'Search is not available right now'))) } },
    url: new URL('http://localhost:4321/api/search-proxy/search'),
  } as unknown as APIContext;
}


const ok: SearchResult = { records: [{ title: 'T', description: 'd', url: '/de/t' }], total: 1, page: 1 };
const backend = (impl: () => Promise<SearchResult>) => ({ search: impl, suggest: impl, open: async () => {}, health: async () => ({ ok: true }), reload: async () => {} });

describe('search API', () => {
  it('answers the backend result', async () => {
    const res = await handleSearch('search', context(JSON.stringify({ localeCode: 'de', siteSlug: '', query: 'x' }), backend(async () => ok)));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(ok);
  });

  it('a body that is not JSON is a 400, not a 500', async () => {
    const res = await handleSearch('search', context('{', backend(async () => ok)));
    expect(res.status).toBe(400);
  });

  it('a failing backend passes its status on (502), and no backend is a 503 with Retry-After; the engine\'s words stay in the log', async () => {
    const failing = await handleSearch('search', context(JSON.stringify({ localeCode: 'de', query: 'x' }), backend(async () => { throw new SearchError('backend', 'OpenSearch search failed: 500 search_phase_execution_exception at 10.0.0.7:9200'); })));
    expect(failing.status).toBe(502);
    expect((await failing.json()).message).toBe('The search service failed. Please try again in a moment.');
    const missing = await handleSearch('suggest', context(JSON.stringify({ localeCode: 'de', query: 'xy' }), undefined));
    expect(missing.status).toBe(503);
    expect(missing.headers.get('retry-after')).toBe('60');
    expect((await missing.json()).message).toBe('The search is not available right now. Please try again in a moment.');
  });

  it('no index folder path in the answer', async () => {
    const res = await handleSearch('search', context(JSON.stringify({ localeCode: 'de', query: 'x' }), backend(async () => { throw new SearchError('not-ready', 'No search index in /srv/app/dist/search (ENOENT): run the prerender first'); })));
    expect(res.status).toBe(503);
    expect(await res.text()).not.toContain('/srv');
  });

  it('a SearchError from the server\'s copy of the search module keeps its status (503, not 502)', async () => {
    const res = await handleSearch('search', context(JSON.stringify({ localeCode: 'de', query: 'x' }), backend(async () => { throw foreignSearchError('not-ready', 503); })));
    expect(res.status).toBe(503);
    expect((await res.json()).message).toBe('The search is not available right now. Please try again in a moment.');
  });

  it('asks for JSON', async () => {
    const res = await handleSearch('search', context('q=x', backend(async () => ok), 'application/x-www-form-urlencoded'));
    expect(res.status).toBe(415);
  });
});

describe('search API body limit', () => {
  it('refuses a body over 16 KiB by its declared length (413) without reading it, and a chunked one as soon as it passes', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({ pull(c) { pulled++; c.enqueue(new Uint8Array(64 * 1024).fill(32)); } });
    const declared = new Request('http://localhost/api/search-proxy/search', { method: 'POST', body: endless, headers: { 'content-type': 'application/json', 'content-length': String(20 * 1024 * 1024) }, duplex: 'half' } as RequestInit);
    const res = await handleSearch('search', { request: declared, locals: {}, url: new URL(declared.url) } as unknown as APIContext);
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/too large: at most 16,384 bytes/);
    expect(pulled).toBeLessThanOrEqual(1);
    pulled = 0;
    const chunked = new Request('http://localhost/api/search-proxy/search', { method: 'POST', body: new ReadableStream<Uint8Array>({ pull(c) { pulled++; c.enqueue(new Uint8Array(4096).fill(32)); if (pulled > 10_000) c.close(); } }), headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit);
    const res2 = await handleSearch('suggest', { request: chunked, locals: {}, url: new URL(chunked.url) } as unknown as APIContext);
    expect(res2.status).toBe(413);
  });
});
