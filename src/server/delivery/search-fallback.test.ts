import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIndexDirectory } from '../../lib/search/embedded.ts';
import { SearchError } from '../../lib/search/index.ts';
import { parseServerEnv } from '../boot/env.ts';
import { fallbackSearch } from './search-fallback.ts';

let indexDir: string;
beforeEach(async () => { indexDir = await mkdtemp(join(tmpdir(), 'search-fallback-')); });
afterEach(async () => { await rm(indexDir, { recursive: true, force: true }); });

describe('fallbackSearch (astro dev: no backend from the server)', () => {
  it('answers not-ready without a path while there is no index, then opens the indexes once they exist', async () => {
    const env = parseServerEnv({ SEARCH_INDEX_DIR: indexDir });
    const err = await fallbackSearch(env, '/unused').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SearchError);
    expect((err as SearchError).message).toBe('Search is not available right now');
    await buildIndexDirectory(indexDir, [{ id: 'p1', url: '/de/kabel', title: 'Kabel | Komax', description: 'Kabel schneiden.', body: 'Kabel', site: '', locale: 'de' }]);
    const backend = await fallbackSearch(env, '/unused');
    expect((await backend.search({ localeCode: 'de', siteSlug: '', query: 'kabel' })).records.map((r) => r.url)).toEqual(['/de/kabel']);
    expect(await fallbackSearch(env, '/unused')).toBe(backend);
  });
});
