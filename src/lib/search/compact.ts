/**
 * The compact index file of the embedded engine (`komax-search/2`): one binary file per
 * (site, language) that is answered from where it was read, without rebuilding objects per term.
 *
 * Why: MiniSearch's own serialization becomes, once loaded, a radix tree of Maps with one Map entry
 * per (term, document): ~900 MiB of heap for 50,000 pages, 8–16 s to parse, and 50 s to build
 * (issue 32). Here the posting lists are typed arrays over the file's bytes, the vocabulary is one
 * string with offsets, the stored documents stay UTF-8 until a result shows them. The scoring is
 * MiniSearch's (BM25+, prefix and fuzzy weights, AND/OR query trees): {@link toMiniSearch} gives
 * it these structures behind the small interface its search reads (`get`, `atPrefix`, `fuzzyGet`
 * of the term index; `size`, `keys`, `get` of a posting list), and {@link searchCompact} computes
 * the same answers without its objects per hit (what the engine calls; the tests hold both to
 * a MiniSearch built the usual way).
 *
 * Layout: `KXS2` | u32 header length | header JSON | padding to 8 | sections (each 8-aligned).
 */
import { randomUUID } from 'node:crypto';
import MiniSearch, { type Options } from 'minisearch';

export const COMPACT_FORMAT = 'komax-search/2';
const MAGIC = 0x3253584b; // 'KXS2' little-endian

/** Typo expansions remembered per index (a few KiB each at most). */
const FUZZY_CACHE = 256;

/** Term frequencies are stored in 16 bits: a word more than 65,535 times in one field counts 65,535 times. */
const MAX_TF = 0xffff;

type Section = [offset: number, length: number];

interface FieldsHeader {
  fields: string[];
  averageFieldLength: number[];
  termCount: number;
  /** Sections: term offsets, term text, field lengths, and per field: posting starts, documents, frequencies. */
  sections: Record<string, Section>;
}

export interface CompactHeader {
  format: typeof COMPACT_FORMAT;
  /** Random per build of this file: the manifest names it, so a reader knows the file is the one its manifest meant. */
  id: string;
  site: string;
  language: string;
  documentCount: number;
  /** Countries of the documents offered only in some (document number → countries). */
  countries: Record<string, string[]>;
  docSections: { offsets: Section; data: Section };
  indexes: Record<string, FieldsHeader>;
}

// ---------------------------------------------------------------------------------------------
// Building

/** The text of one document field. */
export type FieldText = (doc: number, field: number) => string;

interface BuiltFields {
  header: Omit<FieldsHeader, 'sections'>;
  arrays: Record<string, Uint8Array>;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Grows by doubling (the posting triples of a field, counted in the millions at 50,000 pages). */
class U32List {
  data = new Uint32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
}

/**
 * Inverts the documents of one index: per field, for every term (sorted by UTF-16 code units, the
 * order `<` compares strings in), its documents ascending with their term frequency. Each distinct
 * word is analyzed once per build (`analyze`: its term, or null when it is not indexed), which is
 * what makes a build of 50,000 pages take seconds.
 */
export function buildFields(documentCount: number, fields: string[], textOf: FieldText, words: (text: string, fn: (w: string) => void) => void, analyze: (w: string) => string | null): BuiltFields {
  const F = fields.length;
  const termIds = new Map<string, number>();
  const wordIds = new Map<string, number>();
  const fieldLength = new Uint32Array(documentCount * F);
  const triples = fields.map(() => ({ term: new U32List(), doc: new U32List(), tf: new U32List() }));
  // MiniSearch's running average, computed as it does (same floating-point steps, same scores).
  const average = new Array<number>(F).fill(0);
  // Per term: the (document, field) slot it was last counted in, and its count there.
  const seenIn: number[] = [];
  const count: number[] = [];
  const inField: number[] = [];
  for (let d = 0; d < documentCount; d++) {
    for (let f = 0; f < F; f++) {
      const slot = d * F + f;
      inField.length = 0;
      words(textOf(d, f), (w) => {
        let id = wordIds.get(w);
        if (id === undefined) {
          const t = analyze(w);
          if (t === null) id = -1;
          else {
            id = termIds.get(t);
            if (id === undefined) {
              termIds.set(t, (id = termIds.size));
              seenIn.push(-1);
              count.push(0);
            }
          }
          wordIds.set(w, id);
        }
        if (id < 0) return;
        if (seenIn[id] !== slot) {
          seenIn[id] = slot;
          count[id] = 1;
          inField.push(id);
        } else count[id]!++;
      });
      // MiniSearch counts a field's length in distinct terms.
      const length = inField.length;
      fieldLength[slot] = length;
      average[f] = ((average[f] || 0) * d + length) / (d + 1);
      const out = triples[f]!;
      for (const id of inField) {
        out.term.push(id);
        out.doc.push(d);
        out.tf.push(Math.min(count[id]!, MAX_TF));
      }
    }
  }
  const terms = [...termIds.keys()];
  const order = terms.map((_, i) => i).sort((a, b) => (terms[a]! < terms[b]! ? -1 : terms[a]! > terms[b]! ? 1 : 0));
  const rank = new Uint32Array(terms.length);
  order.forEach((id, r) => (rank[id] = r));
  const sorted = order.map((id) => terms[id]!);
  const termOffsets = new Uint32Array(sorted.length + 1);
  let o = 0;
  sorted.forEach((t, i) => {
    termOffsets[i] = o;
    o += t.length;
  });
  termOffsets[sorted.length] = o;
  const arrays: Record<string, Uint8Array> = {
    termOffsets: bytesOf(termOffsets),
    terms: Buffer.from(sorted.join(''), 'utf8'),
    fieldLength: bytesOf(fieldLength),
  };
  triples.forEach((t, f) => {
    // Counting sort by term rank; stable, so documents stay ascending within a term.
    const T = sorted.length;
    const n = t.term.length;
    const termOf = t.term.data;
    const start = new Uint32Array(T + 1);
    for (let i = 0; i < n; i++) start[rank[termOf[i]!]! + 1]!++;
    for (let i = 0; i < T; i++) start[i + 1]! += start[i]!;
    const fill = start.slice(0, T);
    const docs = new Uint32Array(n);
    const tfs = new Uint16Array(n);
    for (let i = 0; i < n; i++) {
      const at = fill[rank[termOf[i]!]!]!++;
      docs[at] = t.doc.data[i]!;
      tfs[at] = t.tf.data[i]!;
    }
    arrays[`start${f}`] = bytesOf(start);
    arrays[`docs${f}`] = bytesOf(docs);
    arrays[`tfs${f}`] = bytesOf(tfs);
  });
  return {
    header: { fields, averageFieldLength: average, termCount: sorted.length },
    arrays,
  };
}

/** Puts the header and sections of one index into the file layout. */
export function writeCompact(
  meta: { site: string; language: string; documents: string[]; countries: Record<string, string[]> },
  indexes: Record<string, BuiltFields>,
): Uint8Array {
  const chunks: Uint8Array[] = [];
  let at = 0;
  const place = (bytes: Uint8Array): Section => {
    const section: Section = [at, bytes.byteLength];
    chunks.push(bytes);
    at += bytes.byteLength;
    const pad = (8 - (at % 8)) % 8;
    if (pad) {
      chunks.push(new Uint8Array(pad));
      at += pad;
    }
    return section;
  };
  const docOffsets = new Uint32Array(meta.documents.length + 1);
  const docBytes = meta.documents.map((d) => Buffer.from(d, 'utf8'));
  let o = 0;
  docBytes.forEach((b, i) => {
    docOffsets[i] = o;
    o += b.byteLength;
  });
  docOffsets[docBytes.length] = o;
  const docSections = { offsets: place(bytesOf(docOffsets)), data: place(Buffer.concat(docBytes)) };
  const headers: Record<string, FieldsHeader> = {};
  for (const [name, built] of Object.entries(indexes)) {
    const sections: Record<string, Section> = {};
    for (const [key, bytes] of Object.entries(built.arrays)) sections[key] = place(bytes);
    headers[name] = { ...built.header, sections };
  }
  const header: CompactHeader = {
    format: COMPACT_FORMAT, id: randomUUID(), site: meta.site, language: meta.language,
    documentCount: meta.documents.length, countries: meta.countries, docSections, indexes: headers,
  };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const lead = 8 + json.byteLength;
  const pad = (8 - (lead % 8)) % 8;
  const head = Buffer.alloc(lead + pad);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(json.byteLength, 4);
  json.copy(head, 8);
  return Buffer.concat([head, ...chunks]);
}

/** The header of a compact file (throws when the bytes are not one). */
export function readHeader(bytes: Uint8Array): { header: CompactHeader; base: number } {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.byteLength < 8 || view.readUInt32LE(0) !== MAGIC) throw new Error(`not a ${COMPACT_FORMAT} index`);
  const length = view.readUInt32LE(4);
  const header = JSON.parse(view.toString('utf8', 8, 8 + length)) as CompactHeader;
  if (header.format !== COMPACT_FORMAT) throw new Error(`not a ${COMPACT_FORMAT} index (format ${String(header.format)})`);
  const lead = 8 + length;
  return { header, base: lead + ((8 - (lead % 8)) % 8) };
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * The documents and frequencies of one term in one field, in the shape MiniSearch's scoring reads
 * (`size`, `keys()`, `get(doc)`). `get` is asked for the documents in the order `keys()` gave
 * them, so a cursor answers it without searching.
 */
class Postings {
  private cursor: number;
  private readonly docs: Uint32Array;
  private readonly tfs: Uint16Array;
  private readonly from: number;
  private readonly to: number;
  constructor(docs: Uint32Array, tfs: Uint16Array, from: number, to: number) {
    this.docs = docs;
    this.tfs = tfs;
    this.from = from;
    this.to = to;
    this.cursor = from;
  }

  get size(): number {
    return this.to - this.from;
  }

  keys(): IterableIterator<number> {
    this.cursor = this.from;
    return this.docs.subarray(this.from, this.to).values();
  }

  get(doc: number): number | undefined {
    if (this.docs[this.cursor] === doc && this.cursor < this.to) return this.tfs[this.cursor++];
    let lo = this.from;
    let hi = this.to - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = this.docs[mid]!;
      if (d === doc) {
        this.cursor = mid + 1;
        return this.tfs[mid];
      }
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }
}

/** A term's data per field (MiniSearch calls `get(fieldId)`). */
class TermData {
  private readonly index: CompactFields;
  private readonly rank: number;
  constructor(index: CompactFields, rank: number) {
    this.index = index;
    this.rank = rank;
  }
  get(field: number): Postings | undefined {
    const f = this.index.postings[field];
    if (!f) return undefined;
    const from = f.start[this.rank]!;
    const to = f.start[this.rank + 1]!;
    return from === to ? undefined : new Postings(f.docs, f.tfs, from, to);
  }
}

/** One index (search or suggest) of a compact file, read in place. */
export class CompactFields {
  readonly fields: string[];
  readonly averageFieldLength: number[];
  readonly termCount: number;
  readonly fieldLength: Uint32Array;
  readonly postings: { start: Uint32Array; docs: Uint32Array; tfs: Uint16Array }[];
  private readonly text: string;
  private readonly offsets: Uint32Array;

  constructor(buffer: ArrayBuffer, base: number, h: FieldsHeader) {
    const view = <T>(C: new (b: ArrayBuffer, o: number, n: number) => T, s: Section, width: number): T => new C(buffer, base + s[0], s[1] / width);
    this.fields = h.fields;
    this.averageFieldLength = h.averageFieldLength;
    this.termCount = h.termCount;
    this.offsets = view(Uint32Array, h.sections.termOffsets!, 4);
    this.text = Buffer.from(buffer, base + h.sections.terms![0], h.sections.terms![1]).toString('utf8');
    this.fieldLength = view(Uint32Array, h.sections.fieldLength!, 4);
    this.postings = h.fields.map((_, f) => ({
      start: view(Uint32Array, h.sections[`start${f}`]!, 4),
      docs: view(Uint32Array, h.sections[`docs${f}`]!, 4),
      tfs: view(Uint16Array, h.sections[`tfs${f}`]!, 2),
    }));
  }

  /** Characters of the vocabulary (what it costs on the heap, as a one- or two-byte string). */
  get textLength(): number {
    return this.text.length;
  }

  term(rank: number): string {
    return this.text.slice(this.offsets[rank]!, this.offsets[rank + 1]!);
  }

  /** First rank whose term is ≥ `s`. */
  private lowerBound(s: string, from = 0): number {
    let lo = from;
    let hi = this.termCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.term(mid) < s) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First rank from `from` whose term does not start with `prefix` (they are contiguous). */
  private prefixEnd(prefix: string, from: number): number {
    let lo = from;
    let hi = this.termCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.term(mid).startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  rankOf(term: string): number {
    const r = this.lowerBound(term);
    return r < this.termCount && this.term(r) === term ? r : -1;
  }

  get(term: string): TermData | undefined {
    const r = this.rankOf(term);
    return r < 0 ? undefined : new TermData(this, r);
  }

  /** The ranks of the terms starting with `prefix`: `[from, to)`. */
  prefixRange(prefix: string): [number, number] {
    const from = this.lowerBound(prefix);
    return [from, this.prefixEnd(prefix, from)];
  }

  /** Whether the term of `rank` occurs in field `field` of document `doc`. */
  occursIn(rank: number, field: number, doc: number): boolean {
    const f = this.postings[field];
    if (!f || rank < 0) return false;
    let lo = f.start[rank]!;
    let hi = f.start[rank + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const d = f.docs[mid]!;
      if (d === doc) return true;
      if (d < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /** The terms starting with `prefix`, as `[term, data]` (what MiniSearch iterates). */
  *atPrefix(prefix: string): IterableIterator<[string, TermData]> {
    const from = this.lowerBound(prefix);
    const to = this.prefixEnd(prefix, from);
    for (let r = from; r < to; r++) yield [this.term(r), new TermData(this, r)];
  }

  /**
   * The terms within `maxDistance` edits (Levenshtein, UTF-16 code units, as MiniSearch's radix
   * tree search) of `query`, with their distance. Walks the sorted vocabulary like a trie: the rows
   * of the shared prefix with the previous term are kept, and a prefix whose row is already past
   * `maxDistance` skips every term that starts with it.
   */
  fuzzyGet(query: string, maxDistance: number, ranks?: Map<string, number>): Map<string, [TermData, number]> {
    const results = new Map<string, [TermData, number]>();
    const text = this.text;
    const offsets = this.offsets;
    const n = query.length + 1;
    const maxLen = query.length + maxDistance;
    const rows = new Uint8Array((maxLen + 1) * n);
    for (let j = 0; j < n; j++) rows[j] = j;
    const far = Math.min(maxDistance + 1, 255);
    const q = new Uint16Array(query.length);
    for (let j = 0; j < query.length; j++) q[j] = query.charCodeAt(j);
    let prevAt = 0;
    let depth = 0; // rows computed for the previous term's first `depth` characters
    let r = 0;
    while (r < this.termCount) {
      // Terms are compared in place in the vocabulary string: no string per visited term.
      const at = offsets[r]!;
      const length = offsets[r + 1]! - at;
      let common = 0;
      const limit = Math.min(depth, length);
      while (common < limit && text.charCodeAt(at + common) === text.charCodeAt(prevAt + common)) common++;
      let pruned = -1;
      let i = common;
      const last = Math.min(length, maxLen);
      for (; i < last; i++) {
        const row = (i + 1) * n;
        const above = i * n;
        const c = text.charCodeAt(at + i);
        const R = i + 1;
        rows[row] = R;
        let min = R;
        // Only the band |row - column| ≤ maxDistance: a cell outside it is more than maxDistance, and
        // stands as far (`far`) for its neighbours, which keeps every value ≤ maxDistance exact.
        const lo = R - maxDistance > 1 ? R - maxDistance : 1;
        const hi = R + maxDistance < n - 1 ? R + maxDistance : n - 1;
        if (lo > 1) rows[row + lo - 1] = far;
        if (hi + 1 < n) rows[row + hi + 1] = far;
        for (let j = lo; j <= hi; j++) {
          const cost = q[j - 1] === c ? 0 : 1;
          const a = rows[above + j - 1]! + cost;
          const b = rows[above + j]! + 1;
          const d = rows[row + j - 1]! + 1;
          let v = a < b ? a : b;
          if (d < v) v = d;
          rows[row + j] = v > 255 ? 255 : v;
          if (v < min) min = v;
        }
        if (min > maxDistance) {
          pruned = i + 1;
          break;
        }
      }
      prevAt = at;
      if (pruned >= 0) {
        depth = pruned;
        r = this.prefixEndAt(at, pruned, r + 1);
        continue;
      }
      depth = i;
      if (length <= maxLen) {
        const distance = length + maxDistance < query.length ? far : rows[length * n + n - 1]!;
        if (distance <= maxDistance) {
          const term = text.slice(at, at + length);
          results.set(term, [new TermData(this, r), distance]);
          ranks?.set(term, r);
        }
        r++;
      } else {
        // Longer than any match can be: so is every term sharing its first maxLen + 1 characters.
        r = this.prefixEndAt(at, maxLen + 1, r + 1);
      }
    }
    return results;
  }

  /** Recent typo expansions (term and distance → terms within it), most recent last. */
  private readonly fuzzyCache = new Map<string, readonly (readonly [term: string, rank: number, distance: number])[]>();

  /**
   * {@link fuzzyGet} as `[term, rank, distance]` in vocabulary order, remembered for the last
   * FUZZY_CACHE expansions of this index: a search expands the same words in its AND and its OR
   * pass, and a misspelling people make once they make again.
   */
  fuzzyExpansions(query: string, maxDistance: number): readonly (readonly [string, number, number])[] {
    const key = `${maxDistance}\0${query}`;
    let hit = this.fuzzyCache.get(key);
    if (hit) {
      this.fuzzyCache.delete(key);
    } else {
      const ranks = new Map<string, number>();
      hit = [...this.fuzzyGet(query, maxDistance, ranks)].map(([t, [, d]]) => [t, ranks.get(t)!, d] as const);
      if (this.fuzzyCache.size >= FUZZY_CACHE) this.fuzzyCache.delete(this.fuzzyCache.keys().next().value!);
    }
    this.fuzzyCache.set(key, hit);
    return hit;
  }

  /** First rank from `from` whose term does not start with the `length` characters at `at` of the vocabulary. */
  private prefixEndAt(at: number, length: number, from: number): number {
    const text = this.text;
    const offsets = this.offsets;
    const starts = (rank: number) => {
      const o = offsets[rank]!;
      if (offsets[rank + 1]! - o < length) return false;
      for (let k = 0; k < length; k++) if (text.charCodeAt(o + k) !== text.charCodeAt(at + k)) return false;
      return true;
    };
    let lo = from;
    let hi = this.termCount;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (starts(mid)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** A compact file read into memory: its documents and its indexes. */
export class CompactIndex {
  readonly header: CompactHeader;
  readonly bytes: number;
  readonly indexes: Record<string, CompactFields>;
  private readonly docOffsets: Uint32Array;
  private readonly docData: Buffer;

  constructor(file: Uint8Array) {
    // Typed-array views need aligned offsets: a file read into a shared or offset buffer is copied once.
    const own = file.byteOffset % 8 === 0 ? file : new Uint8Array(file);
    const { header, base } = readHeader(own);
    this.header = header;
    this.bytes = own.byteLength;
    const buffer = own.buffer as ArrayBuffer;
    const at = base + own.byteOffset;
    const d = header.docSections;
    this.docOffsets = new Uint32Array(buffer, at + d.offsets[0], d.offsets[1] / 4);
    this.docData = Buffer.from(buffer, at + d.data[0], d.data[1]);
    this.indexes = Object.fromEntries(Object.entries(header.indexes).map(([k, h]) => [k, new CompactFields(buffer, at, h)]));
  }

  /** The stored document `n` (decoded when a result shows it). */
  document<T>(n: number): T {
    return JSON.parse(this.docData.toString('utf8', this.docOffsets[n]!, this.docOffsets[n + 1]!)) as T;
  }

  countries(n: number): string[] | undefined {
    return this.header.countries[n];
  }

  /** Memory it holds: the file's bytes plus the decoded vocabularies (up to 2 bytes a character). */
  get memoryBytes(): number {
    return this.bytes + Object.values(this.indexes).reduce((n, i) => n + i.textLength * 2 + i.fieldLength.length * 4, 0);
  }
}

/**
 * A MiniSearch instance that searches `fields` in place. Only `search` is meant to be called
 * (MiniSearch's private structures are replaced: add/remove/serialize would not work); the
 * version of `minisearch` is pinned, and compact.test.ts compares its answers with a MiniSearch
 * built the usual way.
 */
export function toMiniSearch<T>(fields: CompactFields, options: Options<T>): MiniSearch<T> {
  const ms = MiniSearch.loadJS<T>({
    documentCount: fields.fieldLength.length / fields.fields.length,
    nextId: 0,
    documentIds: {},
    fieldIds: Object.fromEntries(fields.fields.map((f, i) => [f, i])),
    fieldLength: {},
    averageFieldLength: fields.averageFieldLength,
    storedFields: {},
    dirtCount: 0,
    index: [],
    serializationVersion: 2,
  }, options);
  const count = fields.fieldLength.length / fields.fields.length;
  const F = fields.fields.length;
  const lengths: number[][] = new Array(count);
  for (let d = 0; d < count; d++) lengths[d] = Array.from(fields.fieldLength.subarray(d * F, d * F + F));
  const internals = ms as unknown as { _index: unknown; _documentIds: unknown; _fieldLength: unknown };
  internals._index = fields;
  internals._documentIds = { has: (d: number) => d >= 0 && d < count, get: (d: number) => d, get size() { return count; } };
  internals._fieldLength = { get: (d: number) => lengths[d] };
  return ms;
}

// ---------------------------------------------------------------------------------------------
// Searching without MiniSearch's per-hit objects

/** A query as MiniSearch takes it: a string of terms, or a tree of them (see its `Query`). */
export type CompactQuery = string | { combineWith?: 'AND' | 'OR'; queries: CompactQuery[]; prefix?: TermFlag; fuzzy?: TermFlag };
type TermFlag = boolean | number | ((term: string, i: number, terms: string[]) => boolean | number);

export interface CompactSearchOptions {
  combineWith?: 'AND' | 'OR';
  boost?: Record<string, number>;
  prefix?: TermFlag;
  fuzzy?: TermFlag;
}

export interface CompactHit {
  id: number;
  score: number;
  /** The terms of the index that matched (what MiniSearch gives as `terms`, in no particular order). */
  terms: string[];
}

/** MiniSearch's defaults (minisearch 7, pinned): BM25+ parameters, prefix and fuzzy weights, the cap on edits. */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const WEIGHTS = { fuzzy: 0.45, prefix: 0.375 };
const MAX_FUZZY = 6;

/** Per document (in the order MiniSearch's result Map would hold them): score and the query terms matched (bits). */
interface Scores { score: Map<number, number>; mask: Map<number, number> }

/** MiniSearch's combination of the results of several terms: AND keeps documents in all, OR adds up (into the first). */
function combineScores(results: Scores[], combineWith: string): Scores {
  if (!results.length) return { score: new Map(), mask: new Map() };
  const and = combineWith.toLowerCase() === 'and';
  return results.reduce((a, b) => {
    if (and) {
      const out: Scores = { score: new Map(), mask: new Map() };
      for (const [doc, score] of b.score) {
        const had = a.score.get(doc);
        if (had === undefined) continue;
        out.score.set(doc, had + score);
        out.mask.set(doc, a.mask.get(doc)! | b.mask.get(doc)!);
      }
      return out;
    }
    for (const [doc, score] of b.score) {
      const had = a.score.get(doc);
      if (had === undefined) {
        a.score.set(doc, score);
        a.mask.set(doc, b.mask.get(doc)!);
      } else {
        a.score.set(doc, had + score);
        a.mask.set(doc, a.mask.get(doc)! | b.mask.get(doc)!);
      }
    }
    return a;
  });
}

/**
 * The hits in MiniSearch's order: each score times the number of query terms it matched, sorted
 * (stably) by it; a hit's matched terms are looked up among `derived` when asked (shown results only).
 */
function rankHits(index: CompactFields, result: Scores, derived: Map<string, number>): CompactHit[] {
  const ids: number[] = [];
  const final: number[] = [];
  for (const [doc, score] of result.score) {
    let m = result.mask.get(doc)!;
    let quality = 0;
    for (; m; m &= m - 1) quality++;
    ids.push(doc);
    final.push(score * (quality || 1));
  }
  const order = ids.map((_, i) => i);
  // Stable, as MiniSearch's sort of its results: equal scores keep the order above.
  order.sort((a, b) => final[b]! - final[a]!);
  const candidates = [...derived];
  return order.map((i) => {
    const id = ids[i]!;
    let terms: string[] | undefined;
    return {
      id,
      score: final[i]!,
      // Asked for the shown results only.
      get terms() {
        terms ??= candidates.filter(([, r]) => index.fields.some((_, f) => index.occursIn(r, f, id))).map(([t]) => t);
        return terms;
      },
    };
  });
}

/**
 * What `toMiniSearch(fields, options).search(query, opts)` answers (same documents, same scores,
 * same order, the same matched terms as a set), computed over the typed arrays with one Map entry
 * per document instead of MiniSearch's three objects per (document, term) and one per result: a
 * common word matches thousands of documents, and those objects were most of a search's time
 * (issue 32). Every floating-point step is MiniSearch's, in its order; compact.test.ts compares
 * both. Queries of more than 30 distinct terms return null (the caller asks MiniSearch).
 */
export function searchCompact(index: CompactFields, query: CompactQuery, opts: CompactSearchOptions = {}): CompactHit[] | null {
  const F = index.fields.length;
  const boosts = index.fields.map((f) => opts.boost?.[f] || 1);
  const documentCount = index.fieldLength.length / F;
  const sources: string[] = [];
  // Every term of the index a query term was expanded to (exact, prefix, fuzzy): the candidates of a hit's `terms`.
  const derived = new Map<string, number>();
  let tooMany = false;

  const termResults = (source: number, rank: number, weight: number, into: Scores) => {
    const bit = 1 << source;
    for (let f = 0; f < F; f++) {
      const p = index.postings[f]!;
      const from = p.start[rank]!;
      const to = p.start[rank + 1]!;
      if (from === to) continue;
      const fieldBoost = boosts[f]!;
      const matching = to - from;
      const avg = index.averageFieldLength[f]!;
      const idf = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
      for (let i = from; i < to; i++) {
        const doc = p.docs[i]!;
        const tf = p.tfs[i]!;
        const length = index.fieldLength[doc * F + f]!;
        const raw = idf * (BM25.d + tf * (BM25.k + 1) / (tf + BM25.k * (1 - BM25.b + BM25.b * length / avg)));
        const weighted = weight * 1 * fieldBoost * 1 * raw;
        const had = into.score.get(doc);
        if (had === undefined) {
          into.score.set(doc, weighted);
          into.mask.set(doc, bit);
        } else {
          into.score.set(doc, had + weighted);
          into.mask.set(doc, into.mask.get(doc)! | bit);
        }
      }
    }
  };

  // As MiniSearch reads them: a prefix only when `true`, fuzzy when truthy.
  const flag = (v: TermFlag | undefined, term: string, i: number, terms: string[], prefix: boolean) =>
    typeof v === 'function' ? v(term, i, terms) : prefix ? v === true : v || false;

  const termQuery = (term: string, prefix: boolean | number, fuzzy: boolean | number): Scores => {
    let source = sources.indexOf(term);
    if (source < 0) {
      source = sources.push(term) - 1;
      if (source > 30) tooMany = true;
    }
    const out: Scores = { score: new Map(), mask: new Map() };
    if (tooMany) return out;
    const rank = index.rankOf(term);
    if (rank >= 0) {
      derived.set(term, rank);
      termResults(source, rank, 1, out);
    }
    let fuzzyMatches: readonly (readonly [string, number, number])[] | undefined;
    if (fuzzy) {
      const f = fuzzy === true ? 0.2 : fuzzy;
      const maxDistance = f < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * f)) : f;
      if (maxDistance) fuzzyMatches = index.fuzzyExpansions(term, maxDistance);
    }
    // A term both a prefix and a typo expansion counts as a prefix expansion only (as in MiniSearch).
    let from = 0;
    let to = 0;
    if (prefix) {
      [from, to] = index.prefixRange(term);
      for (let r = from; r < to; r++) {
        const t = index.term(r);
        const distance = t.length - term.length;
        if (!distance) continue;
        derived.set(t, r);
        termResults(source, r, WEIGHTS.prefix * t.length / (t.length + 0.3 * distance), out);
      }
    }
    if (fuzzyMatches) {
      for (const [t, r, distance] of fuzzyMatches) {
        if (!distance || (r >= from && r < to && t.length !== term.length)) continue;
        derived.set(t, r);
        termResults(source, r, WEIGHTS.fuzzy * t.length / (t.length + distance), out);
      }
    }
    return out;
  };

  const execute = (q: CompactQuery, o: CompactSearchOptions): Scores => {
    if (typeof q !== 'string') {
      const inner: CompactSearchOptions = { ...o };
      if (q.combineWith !== undefined) inner.combineWith = q.combineWith;
      if (q.prefix !== undefined) inner.prefix = q.prefix;
      if (q.fuzzy !== undefined) inner.fuzzy = q.fuzzy;
      return combineScores(q.queries.map((s) => execute(s, inner)), inner.combineWith ?? 'OR');
    }
    // Queries arrive analyzed: split on spaces, as the search options of toMiniSearch's callers say.
    const terms = q.split(' ').filter((t) => !!t);
    return combineScores(terms.map((t, i) => termQuery(t, flag(o.prefix, t, i, terms, true), flag(o.fuzzy, t, i, terms, false))), o.combineWith ?? 'OR');
  };

  const result = execute(query, opts);
  if (tooMany) return null;
  return rankHits(index, result, derived);
}
