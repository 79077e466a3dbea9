import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { APIContext } from 'astro';
import { handleSearch } from './api.ts';
import { buildIndexDirectory } from '../../lib/search/embedded.ts';
import { SearchError, type SearchResult } from '../../lib/search/types.ts';

function context(body: string, search: unknown, contentType = 'application/json'): APIContext {
  return {
    request: new Request('http://localhost:4321/api/search-proxy/search', { method: 'POST', headers: { 'content-type': contentType }, body }),
    locals: { search },
    url: new URL('http://localhost:4321/api/search-proxy/search'),
  } as unknown as APIContext;
}

const ok: SearchResult = { records: [{ title: 'T', description: 'd', url: '/de/t' }], total: 1, page: 1 };
const backend = (impl: () => Promise<SearchResult>) => ({ search: impl, suggest: impl, open: async () => {}, health: async () => ({ ok: true }), reload: async () => {} });

// Without locals.search (astro dev) the API opens the indexes in SEARCH_INDEX_DIR: an empty folder by default here.
let indexDir: string;
beforeEach(async () => {
  indexDir = await mkdtemp(join(tmpdir(), 'search-api-'));
  vi.stubEnv('SEARCH_INDEX_DIR', indexDir);
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(indexDir, { recursive: true, force: true });
});

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

  it('a failing backend passes its error on (502), and no backend is a 503', async () => {
    const failing = await handleSearch('search', context(JSON.stringify({ localeCode: 'de', query: 'x' }), backend(async () => { throw new SearchError('backend', 'engine down'); })));
    expect(failing.status).toBe(502);
    expect((await failing.json()).error).toBe('engine down');
    const missing = await handleSearch('suggest', context(JSON.stringify({ localeCode: 'de', query: 'xy' }), undefined));
    expect(missing.status).toBe(503);
    expect((await missing.json()).error).toBe('Search is not available right now');
  });

  it('without a backend from the server (astro dev), opens the indexes from the environment once they exist', async () => {
    const body = JSON.stringify({ localeCode: 'de', siteSlug: '', query: 'kabel' });
    expect((await handleSearch('search', context(body, undefined))).status).toBe(503);
    await buildIndexDirectory(indexDir, [{ id: 'p1', url: '/de/kabel', title: 'Kabel | Komax', description: 'Kabel schneiden.', body: 'Kabel', site: '', locale: 'de' }]);
    const res = await handleSearch('search', context(body, undefined));
    expect(res.status).toBe(200);
    expect((await res.json()).records.map((r: { url: string }) => r.url)).toEqual(['/de/kabel']);
  });

  it('asks for JSON', async () => {
    const res = await handleSearch('search', context('q=x', backend(async () => ok), 'application/x-www-form-urlencoded'));
    expect(res.status).toBe(415);
  });
});
