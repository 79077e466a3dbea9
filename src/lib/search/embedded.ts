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
import { access, readdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { writeAtomic } from '../fs/atomic.ts';
import MiniSearch, { type Options, type Query, type SearchOptions } from 'minisearch';
import { buildFields, COMPACT_FORMAT, CompactIndex, readHeader, searchCompact, toMiniSearch, writeCompact, type CompactFields, type CompactQuery, type CompactSearchOptions } from './compact.ts';
import { analyzerFor, eachWord, segment, type Analyzer, type Language } from './analysis.ts';
import { groupDocuments, indexKey, localizeUrl, offeredIn, type PreparedDocument } from './documents.ts';
import { NO_MATCH, snippet, termMatcher } from './highlight.ts';
import { normalizeQuery, type NormalizedQuery } from './request.ts';
import {
  emptyResult, MIN_SUGGEST_CHARS, PAGE_SIZE, SearchError,
  type SearchBackend, type SearchDocument, type SearchHealth, type SearchQuery, type SearchRecord, type SearchResult, type SuggestQuery,
} from './types.ts';

/** Bump when the fields, the stored tuple or the analysis change: older files are then refused. */
export const INDEX_FORMAT = COMPACT_FORMAT;
export const MANIFEST_FILE = 'manifest.json';
/** Extension of an index file (binary, see compact.ts). */
export const INDEX_EXTENSION = '.kxs';

/** Field boosts of the search index. */
export const FIELD_BOOST = { title: 3, text: 1 } as const;
/** Characters of the body kept for snippets when the description has no match. */
export const BODY_EXCERPT_CHARS = 1000;
/** What the loaded indexes of one instance may hold (bytes) when SEARCH_MEMORY_BUDGET does not say. */
export const DEFAULT_MEMORY_BUDGET = 256 * 1024 * 1024;

/** A stored document: [url, title, description, body excerpt]. */
type StoredDoc = [string, string, string, string];

interface IndexedDoc {
  id: number;
  title: string;
  /** Description and body: one field (fewer posting lists to walk per query than two). */
  text?: string;
}

export interface Manifest {
  format: typeof INDEX_FORMAT;
  builtAt: string;
  /**
   * `id`: the id written in the file's header (a reader checks it, so it never serves a file of
   * another build under this manifest). `inputHash`: hash of the documents an index was built
   * from (unchanged input → the file is kept).
   */
  indexes: { key: string; file: string; bytes: number; documents?: number; id?: string; inputHash?: string }[];
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

const excerptOf = (body: string) => (body.length > BODY_EXCERPT_CHARS ? body.slice(0, body.lastIndexOf(' ', BODY_EXCERPT_CHARS) + 1 || BODY_EXCERPT_CHARS).trimEnd() : body);

/**
 * Builds the index file of one (site, language) from its documents (already grouped and prepared):
 * a `search` index (title, text) and a `suggest` index (title) over the same document numbers.
 */
export function buildIndex(site: string, language: Language, docs: readonly PreparedDocument[], analyze: (word: string) => string | null = wordAnalysis(language)): Uint8Array {
  const words = (text: string, fn: (w: string) => void) => eachWord(text, language, fn);
  const search = buildFields(docs.length, ['title', 'text'], (n, f) => {
    const d = docs[n]!;
    if (f === 0) return d.title;
    return d.description ? `${d.description}\n${d.body}` : d.body;
  }, words, analyze);
  const suggest = buildFields(docs.length, ['title'], (n) => docs[n]!.title, words, analyze);
  const countries: Record<string, string[]> = {};
  docs.forEach((d, n) => {
    if (d.countries.length) countries[n] = d.countries;
  });
  const documents = docs.map((d) => JSON.stringify([d.url, d.title, d.description, excerptOf(d.body)] satisfies StoredDoc));
  return writeCompact({ site, language, documents, countries }, { search, suggest });
}

/**
 * The analysis of the words of one build in one language, each word analyzed once for all the
 * indexes of that language (the analyzer's own memo is bounded and would stem the same words
 * again for every site).
 */
export function wordAnalysis(language: Language): (word: string) => string | null {
  const analyzer = analyzerFor(language);
  const seen = new Map<string, string | null>();
  return (w) => {
    let t = seen.get(w);
    if (t === undefined) seen.set(w, (t = analyzer.term(w)));
    return t;
  };
}

/** One word analysis per language for the indexes of one build. */
function buildAnalyses(): (language: Language) => (word: string) => string | null {
  const byLanguage = new Map<Language, (word: string) => string | null>();
  return (language) => {
    let a = byLanguage.get(language);
    if (!a) byLanguage.set(language, (a = wordAnalysis(language)));
    return a;
  };
}

/**
 * Builds every index from the documents of all prerendered pages: key (`_main/de`,
 * `brand-portal/en`) → index file bytes. A page present under several locales of one language is
 * indexed once. Throws a SearchError (`build`) for an unusable document.
 */
export function buildIndexes(docs: Iterable<SearchDocument>): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const analysis = buildAnalyses();
  for (const [key, group] of groupDocuments(docs)) {
    const first = group[0]!;
    out.set(key, buildIndex(first.site, first.language, group, analysis(first.language)));
  }
  return out;
}

/** One (site, language) index for a build thread. */
export interface BuildJob { key: string; site: string; language: Language; docs: PreparedDocument[] }
/** What a build thread posts: one file, or why it stopped. */
export type BuildReply = { key: string; bytes: Uint8Array; error?: undefined } | { error: string };

/** What analyzing the vocabulary of a language once more on another thread costs, in documents built. */
const LANGUAGE_COST = 2000;
/** Below this many documents a build thread costs more (starting it, copying the documents over) than it saves. */
const THREAD_THRESHOLD = 2000;

/**
 * Builds the index files of the groups (key → prepared documents), on this thread and on
 * `threads - 1` worker threads (default: one per core for large builds, none for small ones). The
 * groups are shared out before the build, largest first to the thread where it ends soonest (the
 * groups of one language together where that balances), so each thread copies only its own
 * documents. Throws a SearchError (`build`).
 */
export async function buildIndexFiles(groups: Map<string, PreparedDocument[]>, opts: { threads?: number } = {}): Promise<Map<string, Uint8Array>> {
  const jobs: BuildJob[] = [];
  let documents = 0;
  for (const [key, docs] of groups) {
    documents += docs.length;
    jobs.push({ key, site: docs[0]!.site, language: docs[0]!.language, docs });
  }
  const threads = Math.max(1, Math.min(jobs.length, Math.floor(opts.threads ?? (documents < THREAD_THRESHOLD ? 1 : availableParallelism()))));
  const shares: BuildJob[][] = Array.from({ length: threads }, () => []);
  const load = new Array<number>(threads).fill(0);
  const languages = Array.from({ length: threads }, () => new Set<Language>());
  for (const job of [...jobs].sort((a, b) => b.docs.length - a.docs.length)) {
    // Measured (issue 32): a build costs per document, plus per language and thread the analysis
    // of its vocabulary (as much as ~LANGUAGE_COST documents): each goes where it ends soonest.
    const cost = (t: number) => load[t]! + job.docs.length + (languages[t]!.has(job.language) ? 0 : LANGUAGE_COST);
    let t = 0;
    for (let i = 1; i < threads; i++) if (cost(i) < cost(t)) t = i;
    load[t] = cost(t);
    languages[t]!.add(job.language);
    shares[t]!.push(job);
  }
  const out = new Map<string, Uint8Array>();
  const remote = shares.slice(1).map((share) => new Promise<void>((resolve, reject) => {
    const worker = new Worker(new URL('./build-thread.ts', import.meta.url), {
      workerData: { jobs: share },
      execArgv: [],
    });
    let left = share.length;
    let failed = false;
    const fail = (message: string) => {
      if (failed) return;
      failed = true;
      void worker.terminate();
      reject(new SearchError('build', `Building the search indexes failed: ${message}`));
    };
    worker.on('message', (m: BuildReply) => {
      if (m.error !== undefined) return fail(m.error);
      out.set(m.key, m.bytes);
      if (--left === 0) {
        // Done once the thread is gone: its memory is then given back (what a caller measures next).
        worker.terminate().then(() => resolve(), () => resolve());
      }
    });
    worker.on('error', (err) => fail(err.message));
    worker.on('exit', (code) => {
      if (left > 0) fail(`a build thread stopped (exit code ${code})`);
    });
  }));
  // Rejections are awaited below, after this thread's share: none may go unhandled meanwhile.
  const done = Promise.allSettled(remote);
  const analysis = buildAnalyses();
  let local: unknown = null;
  try {
    for (const job of shares[0]!) out.set(job.key, buildIndex(job.site, job.language, job.docs, analysis(job.language)));
  } catch (err) {
    local = err;
  }
  const settled = await done;
  if (local) throw local;
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  // In the order of the groups, as a build on one thread gives them.
  return new Map(jobs.map((j) => [j.key, out.get(j.key)!]));
}

/** {@link buildIndexes} on several threads (see {@link buildIndexFiles}). */
export async function buildIndexesInThreads(docs: Iterable<SearchDocument>, opts: { threads?: number } = {}): Promise<Map<string, Uint8Array>> {
  return buildIndexFiles(groupDocuments(docs), opts);
}

async function listIndexFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return out;
    throw err;
  }
  // `.json`: the index files of format 1, removed by the first build of this one.
  for (const e of entries) if (e.isFile() && (e.name.endsWith(INDEX_EXTENSION) || e.name.endsWith('.json'))) out.push(join(e.parentPath, e.name));
  return out;
}

/**
 * Writes the indexes as `<dir>/<site or _main>/<language>.kxs`, each file atomically, then the
 * manifest (what `open`/`reload` load), then removes the index files no longer built. Throws a
 * SearchError (`build`) when the disk fails.
 */
export async function writeIndexes(
  dir: string,
  indexes: Map<string, Uint8Array>,
  reuse: { kept?: Manifest['indexes']; inputHashes?: Map<string, string> } = {},
): Promise<Manifest> {
  try {
    const manifest: Manifest = { format: INDEX_FORMAT, builtAt: new Date().toISOString(), indexes: [...(reuse.kept ?? [])] };
    for (const [key, bytes] of indexes) {
      const file = `${key}${INDEX_EXTENSION}`;
      await writeAtomic(join(dir, file), bytes);
      const inputHash = reuse.inputHashes?.get(key);
      const { header } = readHeader(bytes);
      manifest.indexes.push({ key, file, bytes: bytes.byteLength, documents: header.documentCount, id: header.id, ...(inputHash ? { inputHash } : {}) });
    }
    await writeAtomic(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 1));
    const keep = new Set(manifest.indexes.map((i) => join(dir, i.file)));
    keep.add(join(dir, MANIFEST_FILE));
    for (const file of await listIndexFiles(dir)) {
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
export async function buildIndexDirectory(dir: string, docs: Iterable<SearchDocument>, opts: { touched?: ReadonlySet<string>; threads?: number } = {}): Promise<Manifest> {
  let previous: Manifest['indexes'] = [];
  try {
    const old = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
    if (old.format === INDEX_FORMAT) previous = old.indexes;
  } catch {
    // No previous build: everything is built.
  }
  const byKey = new Map(previous.map((i) => [i.key, i]));
  const toBuild = new Map<string, PreparedDocument[]>();
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
    toBuild.set(key, group);
    inputHashes.set(key, inputHash);
  }
  const built = await buildIndexFiles(toBuild, opts.threads !== undefined ? { threads: opts.threads } : {});
  // Before any index file is replaced, the manifest stops vouching for the ones about to change:
  // a run killed midway leaves files newer than the manifest's hashes, and the next run must
  // rebuild them, never keep them as "unchanged".
  if (previous.some((i) => built.has(i.key) && i.inputHash)) {
    const interim = previous.map((i) => (built.has(i.key) ? { key: i.key, file: i.file, bytes: i.bytes, ...(i.documents !== undefined ? { documents: i.documents } : {}), ...(i.id ? { id: i.id } : {}) } : i));
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

/** Prefix expansions looked up in the index before a snippet; a prefix of more terms is left to the snippet. */
const MAX_PREFIX_CHECK = 64;

/**
 * Whether description or body of document `doc` may hold one of the terms (or a term starting
 * with one of the prefixes), by the `text` field of the search index (description and body): when
 * it cannot, the snippet need not analyze every word of them to find that out.
 */
function textMayMatch(idx: LoadedIndex, doc: number, terms: readonly string[], prefixes: readonly string[]): boolean {
  const index = idx.file.indexes.search!;
  const TEXT = index.fields.indexOf('text');
  for (const t of terms) if (index.occursIn(index.rankOf(t), TEXT, doc)) return true;
  for (const p of prefixes) {
    const [from, to] = index.prefixRange(p);
    if (to - from > MAX_PREFIX_CHECK) return true;
    for (let r = from; r < to; r++) if (index.occursIn(r, TEXT, doc)) return true;
  }
  return false;
}

interface Hit { id: unknown; terms: string[] }

/** MiniSearch's answer, computed over the compact structures (searchCompact), or by MiniSearch for a query of very many terms. */
function run(fields: CompactFields, ms: MiniSearch<IndexedDoc>, query: Query, opts: SearchOptions): Hit[] {
  return searchCompact(fields, query as CompactQuery, opts as CompactSearchOptions) ?? ms.search(query, opts);
}

interface LoadedIndex {
  key: string;
  /** The file's id (its manifest entry's). */
  id: string | undefined;
  site: string;
  language: Language;
  analyzer: Analyzer;
  file: CompactIndex;
  search: MiniSearch<IndexedDoc>;
  suggest: MiniSearch<IndexedDoc>;
  /** What it holds in memory (file bytes, decoded vocabularies, per-document field lengths). */
  bytes: number;
}

type ManifestEntry = Manifest['indexes'][number];

/** The file of `entry` changed after its manifest was read: a newer build is being written. */
class StaleManifest extends Error {}

async function loadIndex(dir: string, entry: ManifestEntry): Promise<LoadedIndex> {
  const path = join(dir, entry.file);
  // Files come from the manifest, which we wrote: still, never read outside the folder.
  if (relative(dir, path).split(sep)[0] === '..') throw new SearchError('not-ready', `Manifest entry outside ${dir}: ${entry.file}`);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StaleManifest(`${entry.file} is gone`);
    throw new SearchError('not-ready', `Loading search index ${entry.file} failed: ${(err as Error).message}`, { cause: err });
  }
  let file: CompactIndex;
  try {
    file = new CompactIndex(bytes);
  } catch (err) {
    throw new SearchError('not-ready', `Loading search index ${entry.file} failed: ${(err as Error).message}`, { cause: err });
  }
  if (entry.id !== undefined && file.header.id !== entry.id) throw new StaleManifest(`${entry.file} is not the file its manifest names`);
  const language = file.header.language as Language;
  const analyzer = analyzerFor(language);
  const search = toMiniSearch(file.indexes.search!, searchIndexOptions(analyzer));
  const suggest = toMiniSearch(file.indexes.suggest!, suggestIndexOptions(analyzer));
  // Per document and index: a small array of field lengths (see toMiniSearch).
  const bytesHeld = file.memoryBytes + file.header.documentCount * 2 * 48;
  return { key: entry.key, id: entry.id, site: file.header.site, language, analyzer, file, search, suggest, bytes: bytesHeld };
}

/** Identity of the manifest file now (inode, time, size), `''` when there is none. */
const manifestStamp = (dir: string): Promise<string> =>
  stat(join(dir, MANIFEST_FILE)).then((s) => `${s.ino}:${s.mtimeMs}:${s.size}`, () => '');

async function readManifest(dir: string): Promise<Manifest> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
  } catch (err) {
    throw new SearchError('not-ready', `No search index in ${dir} (${(err as Error).message}): run the prerender first`, { cause: err });
  }
  if (manifest.format !== INDEX_FORMAT) throw new SearchError('not-ready', `${join(dir, MANIFEST_FILE)}: format ${manifest.format}, expected ${INDEX_FORMAT}`);
  return manifest;
}

/**
 * The indexes of one manifest: what a search answers from, from its first index to its last
 * record, so a search never mixes two builds. Indexes load on first use and are kept while the
 * shared byte budget allows (see IndexCache).
 */
class Generation {
  readonly entries: Map<string, ManifestEntry>;
  readonly dir: string;
  readonly manifest: Manifest;
  readonly loadedAt: Date;
  /** The manifest file's identity when it was read (what watch() compares). */
  readonly stamp: string;
  constructor(dir: string, manifest: Manifest, loadedAt: Date, stamp: string) {
    this.stamp = stamp;
    this.dir = dir;
    this.manifest = manifest;
    this.loadedAt = loadedAt;
    this.entries = new Map(manifest.indexes.map((e) => [e.key, e]));
  }
}

/**
 * The loaded indexes of an instance, least recently used first, within a byte budget. Entries are
 * keyed by folder, index key and file id: a new build's index is another entry, an unchanged
 * index (same id) is shared by the old and the new manifest. An index bigger than the budget is
 * still loaded for the search that needs it (and is the next one evicted).
 */
export class IndexCache {
  private readonly entries = new Map<string, { loading: Promise<LoadedIndex>; bytes: number }>();
  private used = 0;
  readonly budget: number;

  constructor(budget: number) {
    this.budget = budget;
  }

  private static key(dir: string, entry: ManifestEntry): string {
    return `${dir}\0${entry.key}\0${entry.id ?? entry.inputHash ?? ''}\0${entry.bytes}`;
  }

  get(dir: string, entry: ManifestEntry, load: () => Promise<LoadedIndex>): Promise<LoadedIndex> {
    const k = IndexCache.key(dir, entry);
    const hit = this.entries.get(k);
    if (hit) {
      // Most recently used last.
      this.entries.delete(k);
      this.entries.set(k, hit);
      return hit.loading;
    }
    const slot = { loading: load(), bytes: 0 };
    this.entries.set(k, slot);
    slot.loading.then((idx) => {
      if (this.entries.get(k) !== slot) return;
      slot.bytes = idx.bytes;
      this.used += idx.bytes;
      this.evict(k);
    }, () => {
      if (this.entries.get(k) === slot) this.entries.delete(k);
    });
    return slot.loading;
  }

  private evict(keep: string): void {
    for (const [k, slot] of this.entries) {
      if (this.used <= this.budget) return;
      if (k === keep || !slot.bytes) continue;
      this.entries.delete(k);
      this.used -= slot.bytes;
    }
  }

  /** Drops the entries no manifest in use names any more. */
  retain(keep: (key: string) => boolean): void {
    for (const [k, slot] of this.entries) {
      if (keep(k)) continue;
      this.entries.delete(k);
      this.used -= slot.bytes;
    }
  }

  static keyFor(dir: string, entry: ManifestEntry): string {
    return IndexCache.key(dir, entry);
  }

  stats(): { indexes: number; bytes: number; budget: number } {
    return { indexes: [...this.entries.values()].filter((s) => s.bytes).length, bytes: this.used, budget: this.budget };
  }
}

export interface EmbeddedStats {
  /** Indexes of the manifest in use. */
  indexes: number;
  /** Documents in those indexes. */
  documents: number;
  /** Of those, loaded now. */
  loaded: number;
  /** Bytes the loaded indexes hold, and the budget. */
  bytes: number;
  budget: number;
  loadedAt: string | null;
  builtAt: string | null;
}

export interface EmbeddedOptions {
  /** Bytes the loaded indexes may hold (SEARCH_MEMORY_BUDGET; default 256 MiB). */
  memoryBudget?: number;
}

/**
 * The default engine: MiniSearch over the compact index files in `dir`. `open()` reads only the
 * manifest; an index loads on its first search and stays while the memory budget allows.
 */
export class EmbeddedBackend implements SearchBackend {
  private current: Generation | null = null;
  private readonly cache: IndexCache;
  private reloading: Promise<void> | null = null;
  private pendingReload: Promise<void> | null = null;
  private nextDir: string;

  constructor(dir: string, opts: EmbeddedOptions = {}) {
    this.nextDir = dir;
    this.cache = new IndexCache(opts.memoryBudget ?? DEFAULT_MEMORY_BUDGET);
  }

  /** The folder served (the one of the last successful open or reload). */
  get dir(): string {
    return this.current?.dir ?? this.nextDir;
  }

  /** Reads the manifest (before the server listens). Throws `not-ready`. */
  async open(): Promise<void> {
    await this.swap(this.nextDir);
  }

  private async swap(dir: string): Promise<void> {
    // Before the read: a manifest replaced in between costs one more reload, never a missed one.
    const stamp = await manifestStamp(dir);
    const manifest = await readManifest(dir);
    const next = new Generation(dir, manifest, new Date(), stamp);
    this.current = next;
    const names = new Set(manifest.indexes.map((e) => IndexCache.keyFor(dir, e)));
    // Unchanged indexes (same file id) stay loaded; the others go with the old manifest.
    this.cache.retain((k) => names.has(k));
  }

  /**
   * Switches to the build now in `dir` (default: the folder served), or to another folder (a
   * release's own index folder): reads its manifest and swaps it in at once; searches already
   * running finish on the indexes they started with. Indexes whose file did not change stay
   * loaded, the others load on their next search. When the manifest cannot be read the one in use
   * stays and the SearchError is thrown. A call during a reload gets one more reload after it
   * (calls arriving meanwhile share that one), so the files written last are the ones served.
   */
  reload(dir?: string): Promise<void> {
    if (dir) this.nextDir = dir;
    if (this.reloading) {
      this.pendingReload ??= this.reloading.catch(() => undefined).then(() => {
        this.pendingReload = null;
        return this.reload();
      });
      return this.pendingReload;
    }
    this.reloading = (async () => {
      try {
        await this.swap(this.nextDir);
      } finally {
        this.reloading = null;
      }
    })();
    return this.reloading;
  }

  /**
   * Reloads whenever the manifest in the folder served changes (every instance on a shared disk is
   * current within `intervalMs` of a build); returns the function that stops watching.
   */
  watch(intervalMs = 500, onError: (err: Error) => void = () => {}): () => void {
    let busy = false;
    let failed = '';
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      manifestStamp(this.dir)
        .then(async (seen) => {
          // No manifest (yet), or one that already failed to load: nothing to do until it changes.
          if (!seen || seen === this.current?.stamp || seen === failed) return;
          try {
            await this.reload();
            failed = '';
          } catch (err) {
            failed = seen;
            throw err;
          }
        })
        .catch((err: Error) => onError(err))
        .finally(() => (busy = false));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  stats(): EmbeddedStats {
    const g = this.current;
    const c = this.cache.stats();
    return {
      indexes: g?.manifest.indexes.length ?? 0,
      documents: g?.manifest.indexes.reduce((n, e) => n + (e.documents ?? 0), 0) ?? 0,
      loaded: c.indexes,
      bytes: c.bytes,
      budget: c.budget,
      loadedAt: g?.loadedAt.toISOString() ?? null,
      builtAt: g?.manifest.builtAt ?? null,
    };
  }

  async health(): Promise<SearchHealth> {
    if (!this.current) return { ok: false, detail: 'Search index not loaded' };
    const s = this.stats();
    if (!s.indexes) return { ok: false, detail: `No search index in ${this.dir}` };
    return { ok: true, detail: `${s.indexes} indexes (${s.loaded} in memory, ${Math.round(s.bytes / 1048576)} of ${Math.round(s.budget / 1048576)} MiB), built ${s.builtAt}, loaded ${s.loadedAt}` };
  }

  /**
   * The index of a query in the manifest in use, loaded if need be. When its file turns out to be
   * of a newer build (written after the manifest was read), the newer manifest is read and the
   * search starts over on it, once; a build still being written answers `not-ready` meanwhile.
   */
  private async indexFor(n: NormalizedQuery, retried = false): Promise<LoadedIndex | undefined> {
    const g = this.current;
    if (!g) throw new SearchError('not-ready', 'The search index is not loaded: await open() before serving');
    const entry = g.entries.get(indexKey(n.site, n.language));
    if (!entry) return undefined;
    try {
      return await this.cache.get(g.dir, entry, () => loadIndex(g.dir, entry));
    } catch (err) {
      if (!(err instanceof StaleManifest)) throw err;
      if (retried) throw new SearchError('not-ready', `The search index is being rebuilt: ${err.message}`, { cause: err });
      if (this.current === g) await this.reload().catch(() => undefined);
      return this.indexFor(n, true);
    }
  }

  async search(q: SearchQuery): Promise<SearchResult> {
    const n = normalizeQuery(q);
    const idx = await this.indexFor(n);
    if (!idx || !n.query) return emptyResult(n.page);
    try {
      const words = this.queryWords(idx, n.query);
      if (!words.length) return emptyResult(n.page);
      const exact = words.map((w) => w.term).join(' ');
      const opts: SearchOptions = { boost: FIELD_BOOST, combineWith: 'AND' };
      let hits = this.filter(idx, n, run(idx.file.indexes.search!, idx.search, exact, opts));
      const fuzzy = words.some((w) => maxEdits(w.term, n.language) > 0);
      if (!hits.length && fuzzy) {
        opts.fuzzy = (t: string) => maxEdits(t, n.language);
        hits = this.filter(idx, n, run(idx.file.indexes.search!, idx.search, typoQuery(words, 'AND'), opts));
      }
      if (!hits.length && words.length > 1) {
        hits = this.filter(idx, n, run(idx.file.indexes.search!, idx.search, fuzzy ? typoQuery(words, 'OR') : exact, { ...opts, combineWith: 'OR' }));
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
      // Asked only when the words as typed find nothing (most searches never need them).
      let alternatives: string[] | undefined;
      const surface = s.surface;
      out.push({ term, get alternatives() { return (alternatives ??= idx.analyzer.typoStems(surface)); } });
    }
    return out;
  }

  async suggest(q: SuggestQuery): Promise<SearchResult> {
    const n = normalizeQuery(q);
    const idx = await this.indexFor(n);
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
      let hits = this.filter(idx, n, run(idx.file.indexes.suggest!, idx.suggest, query, opts));
      if (!hits.length && terms.some((t) => maxEdits(t, n.language) > 0)) {
        opts.fuzzy = (t: string) => maxEdits(t, n.language);
        hits = this.filter(idx, n, run(idx.file.indexes.suggest!, idx.suggest, query, opts));
      }
      const prefixes = lastIsPrefix ? [terms.at(-1)!] : [];
      return { records: hits.slice(0, PAGE_SIZE).map((h) => this.record(idx, n, h.id as number, h.terms, prefixes)), total: hits.length, page: 1 };
    } catch (err) {
      throw new SearchError('backend', `Suggest failed: ${(err as Error).message}`, { cause: err });
    }
  }

  private filter(idx: LoadedIndex, n: NormalizedQuery, hits: Hit[]): Hit[] {
    if (!n.country) return hits;
    const country = n.country;
    return hits.filter((h) => offeredIn(idx.file.countries(h.id as number), country));
  }

  private record(idx: LoadedIndex, n: NormalizedQuery, id: number, matched: string[], prefixes: string[] = []): SearchRecord {
    const [url, title, description, body] = idx.file.document<StoredDoc>(id);
    return {
      title,
      description: snippet([description, body], idx.language, textMayMatch(idx, id, matched, prefixes) ? termMatcher(matched, prefixes) : NO_MATCH),
      url: localizeUrl(url, idx.language, n.localeCode),
    };
  }
}
