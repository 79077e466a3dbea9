/**
 * The embedded engine: MiniSearch indexes built by the prerender, one file per (site, language),
 * loaded into memory before the server listens and swapped by `reload()` after a revalidation.
 *
 * Each file holds two MiniSearch indexes over the same documents: `search` (title, and description
 * with body as one text field; BM25, title boosted) and `suggest` (titles only: prefix expansion over a small vocabulary
 * is what keeps search-as-you-type fast). Documents are stored once, beside the indexes, as compact
 * tuples; MiniSearch itself stores no fields, so building a result costs nothing per match.
 *
 * Matching, the same in both engines:
 *  - search: every analyzed query word (AND); when nothing matches, again with typo tolerance
 *    (1 edit from 4 letters, 2 from 8; the last word also as a prefix from 4 letters); when still
 *    nothing and there are several words, any word (OR).
 *  - suggest (from 2 characters): the last word as a prefix, the others whole (AND), over titles;
 *    when nothing matches, again with typo tolerance. At most PAGE_SIZE records.
 */
import { access, readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { writeAtomic } from '../fs/atomic.ts';
import MiniSearch, { type AsPlainObject, type Options, type Query, type SearchOptions, type SearchResult as HitList } from 'minisearch';
import { analyzerFor, segment, type Analyzer, type Language } from './analysis.ts';
import { groupDocuments, indexKey, localizeUrl, offeredIn, type PreparedDocument } from './documents.ts';
import { snippet, termMatcher } from './highlight.ts';
import { normalizeQuery, type NormalizedQuery } from './request.ts';
import {
  emptyResult, MIN_SUGGEST_CHARS, PAGE_SIZE, SearchError,
  type SearchBackend, type SearchDocument, type SearchHealth, type SearchQuery, type SearchRecord, type SearchResult, type SuggestQuery,
} from './types.ts';

/** Bump when the fields, the stored tuple or the analysis change: older files are then refused. */
export const INDEX_FORMAT = 'komax-search/1';
export const MANIFEST_FILE = 'manifest.json';

/** Field boosts of the search index. */
export const FIELD_BOOST = { title: 3, text: 1 } as const;
/** Characters of the body kept for snippets when the description has no match. */
export const BODY_EXCERPT_CHARS = 1000;

/** A stored document: [url, title, description, body excerpt, countries (omitted when empty)]. */
type StoredDoc = [string, string, string, string, string[]?];

interface IndexedDoc {
  id: number;
  title: string;
  /** Description and body: one field (fewer posting lists to walk per query than two). */
  text?: string;
}

interface IndexFile {
  format: typeof INDEX_FORMAT;
  site: string;
  language: Language;
  docs: StoredDoc[];
  search: AsPlainObject;
  suggest: AsPlainObject;
}

export interface Manifest {
  format: typeof INDEX_FORMAT;
  builtAt: string;
  /** `inputHash`: hash of the documents an index was built from (unchanged input → the file is kept). */
  indexes: { key: string; file: string; bytes: number; inputHash?: string }[];
}

const splitSpace = (s: string) => s.split(' ');
const identity = (t: string) => t;

function indexOptions(analyzer: Analyzer, fields: string[]): Options<IndexedDoc> {
  return {
    fields,
    storeFields: [],
    tokenize: (text) => analyzer.terms(text),
    processTerm: identity,
    // Queries arrive analyzed (space-separated terms): MiniSearch must not analyze them again.
    searchOptions: { tokenize: splitSpace, processTerm: identity },
  };
}
const searchIndexOptions = (a: Analyzer) => indexOptions(a, ['title', 'text']);
const suggestIndexOptions = (a: Analyzer) => indexOptions(a, ['title']);

const NO_SEGMENT_FUZZ: ReadonlySet<Language> = new Set<Language>(['ja', 'zh']);

/** Typo tolerance by word length: none below 4 letters (and for zh/ja words), 1 edit up to 7, 2 from 8. */
export function maxEdits(term: string, language: Language): number {
  if (NO_SEGMENT_FUZZ.has(language) || term.length < 4) return 0;
  return term.length < 8 ? 1 : 2;
}

// ---------------------------------------------------------------------------------------------
// Building

/** Builds the index file of one (site, language) from its documents (already grouped and prepared). */
export function buildIndex(site: string, language: Language, docs: readonly PreparedDocument[]): string {
  const analyzer = analyzerFor(language);
  const search = new MiniSearch<IndexedDoc>(searchIndexOptions(analyzer));
  const suggest = new MiniSearch<IndexedDoc>(suggestIndexOptions(analyzer));
  const stored: StoredDoc[] = [];
  docs.forEach((d, id) => {
    search.add({ id, title: d.title, text: d.description ? `${d.description}\n${d.body}` : d.body });
    suggest.add({ id, title: d.title });
    const excerpt = d.body.length > BODY_EXCERPT_CHARS ? d.body.slice(0, d.body.lastIndexOf(' ', BODY_EXCERPT_CHARS) + 1 || BODY_EXCERPT_CHARS).trimEnd() : d.body;
    stored.push(d.countries.length ? [d.url, d.title, d.description, excerpt, d.countries] : [d.url, d.title, d.description, excerpt]);
  });
  const file: IndexFile = { format: INDEX_FORMAT, site, language, docs: stored, search: search.toJSON(), suggest: suggest.toJSON() };
  return JSON.stringify(file);
}

/**
 * Builds every index from the documents of all prerendered pages: key (`_main/de`,
 * `brand-portal/en`) → serialized index. A page present under several locales of one language is
 * indexed once. Throws a SearchError (`build`) for an unusable document.
 */
export function buildIndexes(docs: Iterable<SearchDocument>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, group] of groupDocuments(docs)) {
    const first = group[0]!;
    out.set(key, buildIndex(first.site, first.language, group));
  }
  return out;
}

async function listJson(dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  for (const e of entries) if (e.isFile() && e.name.endsWith('.json')) out.push(join(e.parentPath, e.name));
  return out;
}

/**
 * Writes the indexes as `<dir>/<site or _main>/<language>.json`, each file atomically, then the
 * manifest (what `open`/`reload` load), then removes the index files no longer built. Throws a
 * SearchError (`build`) when the disk fails.
 */
export async function writeIndexes(
  dir: string,
  indexes: Map<string, string>,
  reuse: { kept?: Manifest['indexes']; inputHashes?: Map<string, string> } = {},
): Promise<Manifest> {
  try {
    const manifest: Manifest = { format: INDEX_FORMAT, builtAt: new Date().toISOString(), indexes: [...(reuse.kept ?? [])] };
    for (const [key, json] of indexes) {
      const file = `${key}.json`;
      await writeAtomic(join(dir, file), json);
      const inputHash = reuse.inputHashes?.get(key);
      manifest.indexes.push({ key, file, bytes: Buffer.byteLength(json), ...(inputHash ? { inputHash } : {}) });
    }
    await writeAtomic(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 1));
    const keep = new Set(manifest.indexes.map((i) => join(dir, i.file)));
    keep.add(join(dir, MANIFEST_FILE));
    for (const file of await listJson(dir)) {
      if (keep.has(file)) continue;
      await rm(file, { force: true });
      const folder = dirname(file);
      if (folder !== dir) {
        // Only when empty: another index of that site may still be there.
        await rmdir(folder).catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST' && err.code !== 'ENOENT') throw err;
        });
      }
    }
    return manifest;
  } catch (err) {
    throw new SearchError('build', `Writing the search indexes to ${dir} failed: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Builds and writes the indexes: what the prerender calls after it has rendered. An index whose
 * documents are the same as in the previous build (same input hash, file still there) is kept as
 * it is, so one changed page rebuilds only the indexes of its site and language.
 */
export async function buildIndexDirectory(dir: string, docs: Iterable<SearchDocument>, opts: { touched?: ReadonlySet<string> } = {}): Promise<Manifest> {
  let previous: Manifest['indexes'] = [];
  try {
    const old = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
    if (old.format === INDEX_FORMAT) previous = old.indexes;
  } catch {
    // No previous build: everything is built.
  }
  const byKey = new Map(previous.map((i) => [i.key, i]));
  const built = new Map<string, string>();
  const inputHashes = new Map<string, string>();
  const kept: Manifest['indexes'] = [];
  let input: Iterable<SearchDocument> = docs;
  if (opts.touched) {
    // Only the indexes of the touched keys are looked at: the others keep their file unhashed.
    const fileOf = new Map(await Promise.all(previous.map(async (i) => [i.key, await access(join(dir, i.file)).then(() => i, () => null)] as const)));
    const keys = new Set<string>();
    const rest: SearchDocument[] = [];
    for (const d of docs) {
      const key = indexKey(d.site, (d.locale.toLowerCase().split(/[-_]/)[0] ?? '') as Language);
      if (!keys.has(key)) {
        keys.add(key);
        const old = fileOf.get(key);
        if (old && !opts.touched.has(key)) kept.push(old);
      }
      if (opts.touched.has(key) || !fileOf.get(key)) rest.push(d);
    }
    input = rest;
  }
  for (const [key, group] of groupDocuments(input)) {
    const inputHash = createHash('sha256').update(JSON.stringify(group)).digest('base64url');
    const old = byKey.get(key);
    if (old?.inputHash === inputHash && (await access(join(dir, old.file)).then(() => true, () => false))) {
      kept.push(old);
      continue;
    }
    const first = group[0]!;
    built.set(key, buildIndex(first.site, first.language, group));
    inputHashes.set(key, inputHash);
  }
  // Before any index file is replaced, the manifest stops vouching for the ones about to change:
  // a run killed midway leaves files newer than the manifest's hashes, and the next run must
  // rebuild them, never keep them as "unchanged".
  if (previous.some((i) => built.has(i.key) && i.inputHash)) {
    const interim = previous.map((i) => (built.has(i.key) ? { key: i.key, file: i.file, bytes: i.bytes } : i));
    try {
      await writeAtomic(join(dir, MANIFEST_FILE), JSON.stringify({ format: INDEX_FORMAT, builtAt: new Date().toISOString(), indexes: interim } satisfies Manifest, null, 1));
    } catch (err) {
      throw new SearchError('build', `Writing the search indexes to ${dir} failed: ${(err as Error).message}`, { cause: err });
    }
  }
  return writeIndexes(dir, built, { kept, inputHashes });
}

// ---------------------------------------------------------------------------------------------
// Serving

interface QueryWord {
  term: string;
  alternatives: string[];
}

/** Shortest last word completed as a prefix when nothing matched ("kabelverarb" → "kabelverarbeitung"). */
const MIN_SEARCH_PREFIX = 4;

/**
 * The typo-tolerant MiniSearch query tree: the words combined with `combineWith`, each word OR its
 * typo stems; the last word (from 4 letters) also as a prefix, for a search sent while typing.
 */
function typoQuery(words: QueryWord[], combineWith: 'AND' | 'OR'): Query {
  return {
    combineWith,
    queries: words.map((w, i) => ({
      combineWith: 'OR',
      queries: [w.term, ...w.alternatives],
      prefix: i === words.length - 1 ? (t: string) => t.length >= MIN_SEARCH_PREFIX : false,
    })),
  };
}

interface LoadedIndex {
  site: string;
  language: Language;
  analyzer: Analyzer;
  docs: StoredDoc[];
  search: MiniSearch<IndexedDoc>;
  suggest: MiniSearch<IndexedDoc>;
  bytes: number;
}

function parseIndexFile(text: string, file: string): IndexFile {
  const parsed = JSON.parse(text) as IndexFile;
  if (parsed?.format !== INDEX_FORMAT) throw new Error(`${file}: not a ${INDEX_FORMAT} index (format ${String(parsed?.format)})`);
  return parsed;
}

async function loadIndex(dir: string, entry: Manifest['indexes'][number], background: boolean): Promise<LoadedIndex> {
  const file = join(dir, entry.file);
  const text = await readFile(file, 'utf8');
  const data = parseIndexFile(text, file);
  const analyzer = analyzerFor(data.language);
  const [search, suggest] = background
    ? await Promise.all([MiniSearch.loadJSAsync(data.search, searchIndexOptions(analyzer)), MiniSearch.loadJSAsync(data.suggest, suggestIndexOptions(analyzer))])
    : [MiniSearch.loadJS(data.search, searchIndexOptions(analyzer)), MiniSearch.loadJS(data.suggest, suggestIndexOptions(analyzer))];
  return { site: data.site, language: data.language, analyzer, docs: data.docs, search, suggest, bytes: text.length };
}

async function loadDirectory(dir: string, background: boolean): Promise<Map<string, LoadedIndex>> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
  } catch (err) {
    throw new SearchError('not-ready', `No search index in ${dir} (${(err as Error).message}): run the prerender first`, { cause: err });
  }
  if (manifest.format !== INDEX_FORMAT) throw new SearchError('not-ready', `${join(dir, MANIFEST_FILE)}: format ${manifest.format}, expected ${INDEX_FORMAT}`);
  const out = new Map<string, LoadedIndex>();
  for (const entry of manifest.indexes) {
    // Files come from the manifest, which we wrote: still, never read outside the folder.
    if (relative(dir, join(dir, entry.file)).split(sep)[0] === '..') throw new SearchError('not-ready', `Manifest entry outside ${dir}: ${entry.file}`);
    try {
      out.set(entry.key, await loadIndex(dir, entry, background));
    } catch (err) {
      throw new SearchError('not-ready', `Loading search index ${entry.file} failed: ${(err as Error).message}`, { cause: err });
    }
  }
  return out;
}

export interface EmbeddedStats {
  indexes: number;
  documents: number;
  /** Sum of the index file sizes (characters of JSON). */
  bytes: number;
  loadedAt: string | null;
}

/** The default engine: in-memory MiniSearch indexes read from `dir`. */
export class EmbeddedBackend implements SearchBackend {
  readonly dir: string;
  private indexes: Map<string, LoadedIndex> | null = null;
  private loadedAt: Date | null = null;
  private reloading: Promise<void> | null = null;
  private pendingReload: Promise<void> | null = null;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Loads every index (synchronously parsed: call it before the server listens). Throws `not-ready`. */
  async open(): Promise<void> {
    this.indexes = await loadDirectory(this.dir, false);
    this.loadedAt = new Date();
  }

  /**
   * Loads the indexes again (after a revalidation wrote new ones) without blocking requests for
   * long, and swaps them in at once. When loading fails the indexes in use stay and the
   * SearchError is thrown. A call during a reload gets one more reload after it (calls arriving
   * meanwhile share that one), so the files written last are always the ones loaded.
   */
  reload(): Promise<void> {
    if (this.reloading) {
      this.pendingReload ??= this.reloading.catch(() => undefined).then(() => {
        this.pendingReload = null;
        return this.reload();
      });
      return this.pendingReload;
    }
    this.reloading = (async () => {
      try {
        const next = await loadDirectory(this.dir, true);
        this.indexes = next;
        this.loadedAt = new Date();
      } finally {
        this.reloading = null;
      }
    })();
    return this.reloading;
  }

  stats(): EmbeddedStats {
    const all = [...(this.indexes?.values() ?? [])];
    return {
      indexes: all.length,
      documents: all.reduce((n, i) => n + i.docs.length, 0),
      bytes: all.reduce((n, i) => n + i.bytes, 0),
      loadedAt: this.loadedAt?.toISOString() ?? null,
    };
  }

  async health(): Promise<SearchHealth> {
    if (!this.indexes) return { ok: false, detail: 'Search index not loaded' };
    const s = this.stats();
    if (!s.indexes) return { ok: false, detail: `No search index in ${this.dir}` };
    return { ok: true, detail: `${s.indexes} indexes, ${s.documents} documents, loaded ${s.loadedAt}` };
  }

  private indexFor(n: NormalizedQuery): LoadedIndex | undefined {
    if (!this.indexes) throw new SearchError('not-ready', 'The search index is not loaded: await open() before serving');
    return this.indexes.get(indexKey(n.site, n.language));
  }

  async search(q: SearchQuery): Promise<SearchResult> {
    const n = normalizeQuery(q);
    const idx = this.indexFor(n);
    if (!idx || !n.query) return emptyResult(n.page);
    try {
      const words = this.queryWords(idx, n.query);
      if (!words.length) return emptyResult(n.page);
      const exact = words.map((w) => w.term).join(' ');
      const opts: SearchOptions = { boost: FIELD_BOOST, combineWith: 'AND' };
      let hits = this.filter(idx, n, idx.search.search(exact, opts));
      const fuzzy = words.some((w) => maxEdits(w.term, n.language) > 0);
      if (!hits.length && fuzzy) {
        opts.fuzzy = (t: string) => maxEdits(t, n.language);
        hits = this.filter(idx, n, idx.search.search(typoQuery(words, 'AND'), opts));
      }
      if (!hits.length && words.length > 1) {
        hits = this.filter(idx, n, idx.search.search(fuzzy ? typoQuery(words, 'OR') : exact, { ...opts, combineWith: 'OR' }));
      }
      const from = (n.page - 1) * PAGE_SIZE;
      return { records: hits.slice(from, from + PAGE_SIZE).map((h) => this.record(idx, n, h.id as number, h.terms)), total: hits.length, page: n.page };
    } catch (err) {
      throw new SearchError('backend', `Search failed: ${(err as Error).message}`, { cause: err });
    }
  }

  /** The analyzed words of a query (unique), each with the stems to try when it is misspelt. */
  private queryWords(idx: LoadedIndex, query: string): QueryWord[] {
    const out: QueryWord[] = [];
    for (const s of segment(query, idx.language)) {
      const term = idx.analyzer.term(s.surface);
      if (!term || out.some((w) => w.term === term)) continue;
      out.push({ term, alternatives: idx.analyzer.typoStems(s.surface) });
    }
    return out;
  }

  async suggest(q: SuggestQuery): Promise<SearchResult> {
    const n = normalizeQuery(q);
    const idx = this.indexFor(n);
    if (!idx || [...n.query].length < MIN_SUGGEST_CHARS) return emptyResult();
    try {
      const words = segment(n.query, n.language);
      const typing = !/\s$/.test(q.query ?? '');
      const terms: string[] = [];
      let lastIsPrefix = false;
      words.forEach((w, i) => {
        const last = typing && i === words.length - 1;
        const t = idx.analyzer.term(w.surface, { keepStopWords: last });
        if (!t) return;
        terms.push(t);
        lastIsPrefix = last;
      });
      if (!terms.length) return emptyResult();
      const query = terms.join(' ');
      const prefix = (_t: string, i: number, all: string[]) => lastIsPrefix && i === all.length - 1;
      const opts: SearchOptions = { combineWith: 'AND', prefix };
      let hits = this.filter(idx, n, idx.suggest.search(query, opts));
      if (!hits.length && terms.some((t) => maxEdits(t, n.language) > 0)) {
        opts.fuzzy = (t: string) => maxEdits(t, n.language);
        hits = this.filter(idx, n, idx.suggest.search(query, opts));
      }
      const prefixes = lastIsPrefix ? [terms.at(-1)!] : [];
      return { records: hits.slice(0, PAGE_SIZE).map((h) => this.record(idx, n, h.id as number, h.terms, prefixes)), total: hits.length, page: 1 };
    } catch (err) {
      throw new SearchError('backend', `Suggest failed: ${(err as Error).message}`, { cause: err });
    }
  }

  private filter(idx: LoadedIndex, n: NormalizedQuery, hits: HitList[]): HitList[] {
    if (!n.country) return hits;
    const country = n.country;
    return hits.filter((h) => offeredIn(idx.docs[h.id as number]![4], country));
  }

  private record(idx: LoadedIndex, n: NormalizedQuery, id: number, matched: string[], prefixes: string[] = []): SearchRecord {
    const [url, title, description, body] = idx.docs[id]!;
    return {
      title,
      description: snippet([description, body], idx.language, termMatcher(matched, prefixes)),
      url: localizeUrl(url, idx.language, n.localeCode),
    };
  }
}
