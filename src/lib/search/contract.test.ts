/**
 * One contract, two engines: the embedded MiniSearch backend and the OpenSearch adapter talking to
 * a loopback stub that answers the calls it makes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndexDirectory, EmbeddedBackend } from './embedded.ts';
import { OpenSearchBackend } from './opensearch.ts';
import { startOpenSearchStub } from '../../../emulators/search/opensearch-stub.ts';
import { PAGE_SIZE, SearchError, type SearchBackend, type SearchDocument } from './types.ts';

const de = (i: number, over: Partial<SearchDocument> = {}): SearchDocument => ({
  id: `de-${i}`,
  url: `/de/produkte/maschine-${i}`,
  title: `Crimpautomat Alpha ${i} | Komax`,
  description: `Die Alpha ${i} verarbeitet Kabel und Leitungen. Unsere Maschinen arbeiten präzise.`,
  body: `Modell ${i}. Die Maschine crimpt, isoliert ab und prüft jede Leitung. Service weltweit.`,
  site: '',
  locale: 'de',
  ...over,
});

const FIXTURES: SearchDocument[] = [
  // 13 German pages about "Maschine(n)": two pages of results.
  ...Array.from({ length: 13 }, (_, i) => de(i + 1)),
  // The same page under a country locale: indexed once.
  de(1, { url: '/de-ch/produkte/maschine-1' }),
  {
    id: 'de-harness', url: '/de/loesungen/kabelbaum', title: 'Kabelbaumfertigung | Komax Group',
    description: 'Vollautomatische Kabelbaumfertigung für die Automobilindustrie.', body: 'Kabelbaum, Stecker, Tüllen.', site: '', locale: 'de',
  },
  {
    id: 'de-xss', url: '/de/sicherheit', title: 'Sicherheit <b>zuerst</b> | Komax',
    description: 'Hinweis: <script>alert("x")</script> wird nie ausgeführt & bleibt Text. Sicherheit geht vor.', body: 'Sicherheitsdatenblätter', site: '', locale: 'de',
  },
  {
    id: 'de-only-de', url: '/de/aktion', title: 'Aktion Deutschland', description: 'Förderprogramm Elektromobilität nur in Deutschland.',
    body: 'Förderprogramm', site: '', locale: 'de', countries: ['DE'],
  },
  {
    id: 'en-1', url: '/en/products/alpha', title: 'Alpha crimping machine | Komax', description: 'Fully automatic crimping machines for wire processing.',
    body: 'The machine strips and crimps.', site: '', locale: 'en',
  },
  {
    id: 'bp-1', url: '/de/brand-portal/logos', title: 'Logos und Maschinenbilder | Komax', description: 'Logos für Partner.', body: 'Logo Downloads',
    site: 'brand-portal', locale: 'de',
  },
  {
    id: 'zh-1', url: '/zh/products/alpha', title: '全自动线缆加工设备 | Komax', description: '全自动线缆加工机器，适用于汽车行业。', body: '我们提供线缆加工解决方案。',
    site: '', locale: 'zh',
  },
];

interface Engine {
  backend: SearchBackend;
  close(): Promise<void>;
}

const engines: [string, () => Promise<Engine>][] = [
  ['embedded', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'search-contract-'));
    await buildIndexDirectory(dir, FIXTURES);
    const backend = new EmbeddedBackend(dir);
    await backend.open();
    return { backend, close: () => rm(dir, { recursive: true, force: true }) };
  }],
  ['opensearch (loopback stub)', async () => {
    const stub = await startOpenSearchStub();
    const backend = new OpenSearchBackend(stub.url, { replicas: 0 });
    await backend.indexDocuments(FIXTURES);
    await backend.open();
    return { backend, close: async () => { await backend.close(); await stub.close(); } };
  }],
];

describe.each(engines)('search contract: %s', (_name, start) => {
  let engine: Engine;
  let b: SearchBackend;
  beforeAll(async () => {
    engine = await start();
    b = engine.backend;
  });
  afterAll(async () => engine?.close());

  it('is healthy once open', async () => {
    expect((await b.health()).ok).toBe(true);
  });

  it('finds a German page by a word under /de, highlighting the inflected form', async () => {
    const r = await b.search({ localeCode: 'de', siteSlug: '', query: 'Maschine' });
    expect(r.page).toBe(1);
    expect(r.total).toBe(13);
    expect(r.records).toHaveLength(PAGE_SIZE);
    for (const rec of r.records) {
      expect(rec.url).toMatch(/^\/de\/produkte\/maschine-\d+$/);
      expect(rec.description).toMatch(/<mark>Maschinen?<\/mark>/);
    }
  });

  it('answers with URLs of the searching locale and indexes a page once per language', async () => {
    const r = await b.search({ localeCode: 'de-CH', siteSlug: '', query: 'Alpha 1' });
    const urls = r.records.map((x) => x.url);
    expect(urls).toContain('/de-ch/produkte/maschine-1');
    expect(new Set(urls).size).toBe(urls.length);
  });

  it('still finds it with a one-letter typo', async () => {
    const r = await b.search({ localeCode: 'de', siteSlug: '', query: 'Kabelbaumfertigunk' });
    expect(r.records[0]?.url).toBe('/de/loesungen/kabelbaum');
    const r2 = await b.search({ localeCode: 'de', siteSlug: '', query: 'Maschime' });
    expect(r2.total).toBeGreaterThan(0);
    expect(r2.records[0]?.description).toContain('<mark>');
  });

  it('completes the last word of a search sent while typing', async () => {
    // 4 letters short of "vollautomat", out of typo reach: found as a prefix.
    const r = await b.search({ localeCode: 'de', siteSlug: '', query: 'Vollaut' });
    expect(r.records.map((x) => x.url)).toEqual(['/de/loesungen/kabelbaum']);
    expect(r.records[0]?.description).toContain('<mark>Vollautomatische</mark>');
  });

  it('escapes HTML around the marks', async () => {
    const r = await b.search({ localeCode: 'de', siteSlug: '', query: 'Sicherheit' });
    const rec = r.records.find((x) => x.url === '/de/sicherheit');
    expect(rec).toBeDefined();
    expect(rec!.description).toContain('&lt;script&gt;');
    expect(rec!.description).not.toContain('<script>');
    expect(rec!.description).toContain('&amp;');
    expect(rec!.description).toContain('<mark>Sicherheit</mark>');
    expect(rec!.description.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    // Titles are plain text (rendered as text by the UI), brand stripped.
    expect(rec!.title).toBe('Sicherheit <b>zuerst</b>');
  });

  it("strips ' | {brand}' from titles", async () => {
    const r = await b.search({ localeCode: 'de', siteSlug: '', query: 'Kabelbaumfertigung' });
    expect(r.records[0]?.title).toBe('Kabelbaumfertigung');
    const all = await b.search({ localeCode: 'de', siteSlug: '', query: 'Maschine' });
    for (const rec of all.records) expect(rec.title).not.toContain(' | ');
  });

  it('pages: page 2 holds the rest, total stays the same', async () => {
    const p1 = await b.search({ localeCode: 'de', siteSlug: '', query: 'Maschine', page: 1 });
    const p2 = await b.search({ localeCode: 'de', siteSlug: '', query: 'Maschine', page: 2 });
    const p3 = await b.search({ localeCode: 'de', siteSlug: '', query: 'Maschine', page: 3 });
    expect(p2.page).toBe(2);
    expect(p2.total).toBe(p1.total);
    expect(p2.records).toHaveLength(3);
    const first = new Set(p1.records.map((r) => r.url));
    for (const r of p2.records) expect(first.has(r.url)).toBe(false);
    expect(p3).toEqual({ records: [], total: 13, page: 3 });
  });

  it('suggests from the second character', async () => {
    expect((await b.suggest({ localeCode: 'de', siteSlug: '', query: 'K' })).records).toEqual([]);
    const r = await b.suggest({ localeCode: 'de', siteSlug: '', query: 'Ka' });
    expect(r.records.map((x) => x.url)).toContain('/de/loesungen/kabelbaum');
    const r2 = await b.suggest({ localeCode: 'de', siteSlug: '', query: 'crimpaut' });
    expect(r2.records.length).toBe(PAGE_SIZE);
    expect(r2.total).toBe(13);
    expect(r2.page).toBe(1);
  });

  it('suggests with a typo in a finished word', async () => {
    const r = await b.suggest({ localeCode: 'de', siteSlug: '', query: 'Crimpautomet Al' });
    expect(r.total).toBeGreaterThan(0);
  });

  it('answers an empty query with an empty result', async () => {
    expect(await b.search({ localeCode: 'de', siteSlug: '', query: '' })).toEqual({ records: [], total: 0, page: 1 });
    expect(await b.search({ localeCode: 'de', siteSlug: '', query: '   ', page: 2 })).toEqual({ records: [], total: 0, page: 2 });
    expect(await b.suggest({ localeCode: 'de', siteSlug: '', query: '' })).toEqual({ records: [], total: 0, page: 1 });
  });

  it('rejects an unknown locale with a SearchError', async () => {
    await expect(b.search({ localeCode: 'xx', siteSlug: '', query: 'Maschine' })).rejects.toBeInstanceOf(SearchError);
    await expect(b.suggest({ localeCode: 'it-IT', siteSlug: '', query: 'macchina' })).rejects.toMatchObject({ code: 'unknown-locale' });
    await expect(b.search({ localeCode: 'de', siteSlug: '', query: 'x', page: 0 })).rejects.toMatchObject({ code: 'invalid-request' });
  });

  it('keeps sites apart and finds nothing for a site without pages in the language', async () => {
    const main = await b.search({ localeCode: 'de', siteSlug: '', query: 'Logos' });
    expect(main.total).toBe(0);
    const portal = await b.search({ localeCode: 'de', siteSlug: 'brand-portal', query: 'Logos' });
    expect(portal.records.map((r) => r.url)).toEqual(['/de/brand-portal/logos']);
    expect(await b.search({ localeCode: 'hu', siteSlug: 'brand-portal', query: 'logo' })).toEqual({ records: [], total: 0, page: 1 });
  });

  it('leaves out pages restricted to other countries', async () => {
    expect((await b.search({ localeCode: 'de', siteSlug: '', query: 'Förderprogramm' })).total).toBe(1);
    expect((await b.search({ localeCode: 'de-DE', siteSlug: '', query: 'Förderprogramm' })).total).toBe(1);
    expect((await b.search({ localeCode: 'de-CH', siteSlug: '', query: 'Förderprogramm' })).total).toBe(0);
  });

  it('folds diacritics: a query without umlauts finds the page with them', async () => {
    const r = await b.search({ localeCode: 'de', siteSlug: '', query: 'forderprogramm' });
    expect(r.total).toBe(1);
    expect(r.records[0]?.description).toContain('<mark>Förderprogramm</mark>');
  });

  it('searches Chinese', async () => {
    const r = await b.search({ localeCode: 'zh', siteSlug: '', query: '线缆加工' });
    expect(r.records[0]?.url).toBe('/zh/products/alpha');
    expect(r.records[0]?.description).toContain('<mark>');
  });
});
