import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildIndexDirectory, buildIndexes, buildIndexesInThreads, EmbeddedBackend, MANIFEST_FILE } from './embedded.ts';
import { SearchError, type SearchDocument } from './types.ts';
import { readHeader } from './compact.ts';
import { createSearchBackend, reloadSearch } from './index.ts';

const doc = (id: string, over: Partial<SearchDocument> = {}): SearchDocument => ({
  id, url: `/de/${id}`, title: `Seite ${id} | Komax`, description: 'Kabelverarbeitung mit Maschinen.', body: 'Text', site: '', locale: 'de', ...over,
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'search-embedded-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('embedded index files', () => {
  it('writes <dir>/<site or _main>/<language>.kxs and a manifest', async () => {
    const manifest = await buildIndexDirectory(dir, [doc('a'), doc('b', { site: 'brand-portal' }), doc('c', { locale: 'en', url: '/en/c' })]);
    expect(manifest.indexes.map((i) => i.file).sort()).toEqual(['_main/de.kxs', '_main/en.kxs', 'brand-portal/de.kxs']);
    expect(existsSync(join(dir, '_main/de.kxs'))).toBe(true);
    expect(JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')).indexes).toHaveLength(3);
  });

  it('removes the files of indexes no longer built', async () => {
    await buildIndexDirectory(dir, [doc('a'), doc('b', { site: 'brand-portal' })]);
    await buildIndexDirectory(dir, [doc('a')]);
    expect(existsSync(join(dir, 'brand-portal'))).toBe(false);
    expect((await readdir(dir)).sort()).toEqual(['_main', MANIFEST_FILE]);
  });

  it('rebuilds only the indexes whose documents changed', async () => {
    await buildIndexDirectory(dir, [doc('a'), doc('c', { locale: 'en', url: '/en/c' })]);
    // Mark both files: a rebuilt file loses the mark, a kept one keeps it.
    for (const f of ['_main/de.kxs', '_main/en.kxs']) await writeFile(join(dir, f), Buffer.concat([await readFile(join(dir, f)), Buffer.from('\n')]));
    const manifest = await buildIndexDirectory(dir, [doc('a'), doc('c', { locale: 'en', url: '/en/c', title: 'Changed' })]);
    expect((await readFile(join(dir, '_main/de.kxs'), 'latin1')).endsWith('\n')).toBe(true);
    expect((await readFile(join(dir, '_main/en.kxs'), 'latin1')).endsWith('\n')).toBe(false);
    expect(manifest.indexes.map((i) => i.key).sort()).toEqual(['_main/de', '_main/en']);
    const backend = new EmbeddedBackend(dir);
    await backend.open();
    expect((await backend.search({ localeCode: 'en', siteSlug: '', query: 'changed', page: 1 })).total).toBe(1);
  });

  it('with the touched keys given, looks only at those indexes (and at new ones): the others keep their file without being hashed', async () => {
    await buildIndexDirectory(dir, [doc('a'), doc('c', { locale: 'en', url: '/en/c' }), doc('b', { site: 'brand-portal' })]);
    for (const f of ['_main/de.kxs', '_main/en.kxs']) await writeFile(join(dir, f), Buffer.concat([await readFile(join(dir, f)), Buffer.from('\n')]));
    const manifest = await buildIndexDirectory(dir, [
      // Untouched (the caller knows nothing there changed): kept as it is.
      doc('a', { title: 'Not looked at' }),
      doc('c', { locale: 'en', url: '/en/c', title: 'Changed' }),
      doc('n', { locale: 'fr', url: '/fr/n' }),
    ], { touched: new Set(['_main/en']) });
    expect((await readFile(join(dir, '_main/de.kxs'), 'latin1')).endsWith('\n')).toBe(true);
    expect((await readFile(join(dir, '_main/en.kxs'), 'latin1')).endsWith('\n')).toBe(false);
    // A new index is built although not named; one without documents any more is dropped.
    expect(manifest.indexes.map((i) => i.key).sort()).toEqual(['_main/de', '_main/en', '_main/fr']);
    expect(existsSync(join(dir, 'brand-portal'))).toBe(false);
    const backend = new EmbeddedBackend(dir);
    await backend.open();
    expect((await backend.search({ localeCode: 'en', siteSlug: '', query: 'changed', page: 1 })).total).toBe(1);
  });

  it('never keeps an index file that a build killed midway may have replaced', async () => {
    await buildIndexDirectory(dir, [doc('a')]);
    // A build of other documents fails while replacing the file (a folder stands in its way)…
    await rm(join(dir, '_main/de.kxs'));
    await mkdir(join(dir, '_main/de.kxs/x'), { recursive: true });
    await expect(buildIndexDirectory(dir, [doc('a', { title: 'Other' })])).rejects.toThrow(SearchError);
    // …or was killed right after replacing it: the file holds other documents than before.
    await rm(join(dir, '_main/de.kxs'), { recursive: true });
    await writeFile(join(dir, '_main/de.kxs'), buildIndexes([doc('a', { title: 'Other' })]).get('_main/de')!);
    // The next build of the first documents must not take that file as unchanged.
    await buildIndexDirectory(dir, [doc('a')]);
    const b = new EmbeddedBackend(dir);
    await b.open();
    expect((await b.search({ localeCode: 'de', siteSlug: '', query: 'Kabelverarbeitung' })).records.map((r) => r.title)).toEqual(['Seite a']);
  });

  it('builds serialized indexes keyed by site and language', () => {
    const built = buildIndexes([doc('a'), doc('a', { url: '/de-ch/a' })]);
    expect([...built.keys()]).toEqual(['_main/de']);
    expect(readHeader(built.get('_main/de')!).header.documentCount).toBe(1);
  });

  it('builds on worker threads the same files as on one thread (issue 32)', async () => {
    const docs = ['de', 'en', 'fr', 'ja'].flatMap((locale) => Array.from({ length: 30 }, (_, i) => doc(`${locale}${i}`, {
      locale, url: `/${locale}/p${i}`, site: i % 3 ? '' : 'brand-portal', title: `Maschine ${i} 機械 | Komax`, body: `Kabel ${'Crimpen Lösungen '.repeat(i)} ケーブル加工`,
    })));
    // The file id is random per build: compare the files without it.
    const withoutId = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1').replace(/"id":"[0-9a-f-]{36}"/, '');
    const one = buildIndexes(docs);
    const threaded = await buildIndexesInThreads(docs, { threads: 3 });
    expect([...threaded.keys()]).toEqual([...one.keys()]);
    expect(one.size).toBe(8);
    for (const [key, bytes] of one) expect(withoutId(threaded.get(key)!)).toBe(withoutId(bytes));
    const manifest = await buildIndexDirectory(dir, docs, { threads: 2 });
    expect(manifest.indexes).toHaveLength(8);
    const b = new EmbeddedBackend(dir);
    await b.open();
    expect((await b.search({ localeCode: 'ja', siteSlug: 'brand-portal', query: 'ケーブル' })).total).toBe(10);
    await expect(buildIndexesInThreads([doc('a', { locale: 'it' })], { threads: 2 })).rejects.toThrow(SearchError);
  });

  it('rejects documents it cannot index', () => {
    expect(() => buildIndexes([doc('a', { locale: 'it' })])).toThrow(SearchError);
  });
});

describe('EmbeddedBackend', () => {
  it('refuses to serve before open() and when there is no index', async () => {
    const b = new EmbeddedBackend(dir);
    await expect(b.search({ localeCode: 'de', siteSlug: '', query: 'Kabel' })).rejects.toMatchObject({ code: 'not-ready' });
    await expect(b.open()).rejects.toMatchObject({ code: 'not-ready' });
    expect((await b.health()).ok).toBe(false);
  });

  it('reload() picks up a new build', async () => {
    await buildIndexDirectory(dir, [doc('a')]);
    const b = new EmbeddedBackend(dir);
    await b.open();
    expect((await b.search({ localeCode: 'de', siteSlug: '', query: 'Bremsen' })).total).toBe(0);
    await buildIndexDirectory(dir, [doc('a'), doc('b', { description: 'Bremsen und Kupplungen' })]);
    await b.reload();
    const r = await b.search({ localeCode: 'de', siteSlug: '', query: 'Bremsen' });
    expect(r.records.map((x) => x.url)).toEqual(['/de/b']);
    expect(b.stats()).toMatchObject({ indexes: 1, documents: 2 });
  });

  it('reloads once more when asked during a reload (later calls share it)', async () => {
    await buildIndexDirectory(dir, [doc('a')]);
    const b = new EmbeddedBackend(dir);
    await b.open();
    await buildIndexDirectory(dir, [doc('a'), doc('b'), doc('c')]);
    const first = b.reload();
    const second = b.reload();
    const third = b.reload();
    expect(second).not.toBe(first);
    expect(third).toBe(second);
    await Promise.all([first, second]);
    expect(b.stats().documents).toBe(3);
  });

  it('keeps the loaded indexes when a reload fails, and says why', async () => {
    await buildIndexDirectory(dir, [doc('a')]);
    const b = new EmbeddedBackend(dir);
    await b.open();
    expect((await b.search({ localeCode: 'de', siteSlug: '', query: 'Kabelverarbeitung' })).total).toBe(1);
    await writeFile(join(dir, MANIFEST_FILE), '{"format":"something-else"}');
    await expect(b.reload()).rejects.toMatchObject({ code: 'not-ready', message: expect.stringContaining(MANIFEST_FILE) });
    expect((await b.search({ localeCode: 'de', siteSlug: '', query: 'Kabelverarbeitung' })).total).toBe(1);
  });

  it('suggests by prefix, the last word still being typed', async () => {
    await buildIndexDirectory(dir, [
      doc('a', { title: 'Crimpautomat Alpha | Komax' }), doc('b', { title: 'Abisolierautomat Beta | Komax' }),
      doc('c', { title: 'Die Crimpzange | Komax' }), doc('d', { title: 'Dieselpumpen | Komax' }),
    ]);
    const b = new EmbeddedBackend(dir);
    await b.open();
    const r = await b.suggest({ localeCode: 'de', siteSlug: '', query: 'crimp' });
    expect(r.records.map((x) => x.title).sort()).toEqual(['Crimpautomat Alpha', 'Die Crimpzange']);
    // A stop word as the word being typed is a prefix like any other ("die" → "Dieselpumpen").
    expect((await b.suggest({ localeCode: 'de', siteSlug: '', query: 'die' })).records.map((x) => x.title)).toEqual(['Dieselpumpen']);
    // A finished word (trailing space) is matched whole.
    expect((await b.suggest({ localeCode: 'de', siteSlug: '', query: 'crimp ' })).total).toBe(0);
    expect((await b.suggest({ localeCode: 'de', siteSlug: '', query: 'crimpautomat al' })).records.map((x) => x.title)).toEqual(['Crimpautomat Alpha']);
  });
});

describe('EmbeddedBackend memory budget and builds', () => {
  const many = (locale: string, n: number, word: string) => Array.from({ length: n }, (_, i) =>
    doc(`${locale}${i}`, { locale, url: `/${locale}/${locale}${i}`, title: `${word} ${i} | Komax`, body: `${word} ${'Kabelverarbeitung Maschine '.repeat(20)}` }));
  const q = (localeCode: string, query: string) => ({ localeCode, siteSlug: '', query });

  it('keeps the indexes used last within the budget, drops the least recently used one, and loads it again when it is searched', async () => {
    await buildIndexDirectory(dir, [...many('de', 30, 'Alpha'), ...many('en', 30, 'Alpha'), ...many('fr', 30, 'Alpha')]);
    const probe = new EmbeddedBackend(dir);
    await probe.open();
    await probe.search(q('de', 'alpha'));
    const one = probe.stats().bytes;
    // Room for two of the three (they are about the same size).
    const b = new EmbeddedBackend(dir, { memoryBudget: Math.floor(one * 2.5) });
    await b.open();
    expect((await b.search(q('de', 'alpha'))).total).toBe(30);
    expect((await b.search(q('en', 'alpha'))).total).toBe(30);
    expect(b.stats().loaded).toBe(2);
    await b.search(q('de', 'alpha')); // de is now the most recently used: en goes next
    expect((await b.search(q('fr', 'alpha'))).total).toBe(30);
    expect(b.stats()).toMatchObject({ loaded: 2 });
    expect(b.stats().bytes).toBeLessThanOrEqual(b.stats().budget);
    // What is in memory answers without its file; what was dropped needs it.
    await rm(join(dir, '_main/de.kxs'));
    await rm(join(dir, '_main/fr.kxs'));
    expect((await b.search(q('de', 'alpha'))).total).toBe(30);
    expect((await b.search(q('fr', 'alpha'))).total).toBe(30);
    await expect(b.search(q('en', 'alpha'))).resolves.toMatchObject({ total: 30 });
  });

  it('loads an index bigger than the whole budget for the search that needs it', async () => {
    await buildIndexDirectory(dir, many('de', 20, 'Alpha'));
    const b = new EmbeddedBackend(dir, { memoryBudget: 1 });
    await b.open();
    expect((await b.search(q('de', 'alpha'))).total).toBe(20);
    expect((await b.search(q('de', 'alpha'))).total).toBe(20);
  });

  it('never answers from two builds: an index written after the manifest was read brings the new manifest, for every index', async () => {
    await buildIndexDirectory(dir, [...many('de', 3, 'Alt'), ...many('en', 3, 'Old')]);
    const b = new EmbeddedBackend(dir);
    await b.open();
    expect((await b.search(q('de', 'alt'))).total).toBe(3);
    // A new build (another release) replaces both indexes; this instance has not been told yet.
    await buildIndexDirectory(dir, [...many('de', 4, 'Neu'), ...many('en', 4, 'New')]);
    // The English index is loaded now: its file is of the new build, so the new manifest is read…
    expect((await b.search(q('en', 'new'))).total).toBe(4);
    // …and the German one, loaded from the old build, is not served beside it.
    expect((await b.search(q('de', 'alt'))).total).toBe(0);
    expect((await b.search(q('de', 'neu'))).total).toBe(4);
  });

  it('keeps an unchanged index loaded across a reload, and drops a changed one', async () => {
    await buildIndexDirectory(dir, [...many('de', 3, 'Alt'), ...many('en', 3, 'Same')]);
    const b = new EmbeddedBackend(dir);
    await b.open();
    await b.search(q('de', 'alt'));
    await b.search(q('en', 'same'));
    await buildIndexDirectory(dir, [...many('de', 4, 'Neu'), ...many('en', 3, 'Same')]);
    await b.reload();
    expect(b.stats().loaded).toBe(1);
    expect((await b.search(q('de', 'neu'))).total).toBe(4);
  });

  it('switches to the indexes of another folder (a release of its own) with reloadSearch', async () => {
    const other = await mkdtemp(join(tmpdir(), 'search-release-'));
    try {
      await buildIndexDirectory(dir, many('de', 2, 'Alt'));
      await buildIndexDirectory(other, many('de', 5, 'Neu'));
      const b = createSearchBackend({ engine: 'embedded', indexDir: dir });
      await b.open();
      expect((await b.search(q('de', 'alt'))).total).toBe(2);
      await reloadSearch(b, other);
      expect((await b.search(q('de', 'neu'))).total).toBe(5);
      expect((await b.search(q('de', 'alt'))).total).toBe(0);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('watch() serves a build written by another process as soon as its manifest changes', async () => {
    await buildIndexDirectory(dir, many('de', 2, 'Alt'));
    const b = new EmbeddedBackend(dir);
    await b.open();
    const stop = b.watch(20);
    try {
      expect((await b.search(q('de', 'alt'))).total).toBe(2);
      await buildIndexDirectory(dir, many('de', 3, 'Neu'));
      await vi.waitFor(async () => expect((await b.search(q('de', 'neu'))).total).toBe(3), { timeout: 5000, interval: 20 });
    } finally {
      stop();
    }
  });
});
