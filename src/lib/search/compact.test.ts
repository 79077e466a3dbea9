import { describe, expect, it } from 'vitest';
import MiniSearch, { type Options } from 'minisearch';
import { analyzerFor, eachWord } from './analysis.ts';
import { buildFields, CompactIndex, searchCompact, toMiniSearch, writeCompact, type CompactQuery } from './compact.ts';

// A vocabulary with shared prefixes and near neighbours, so prefix and typo expansions have work to do.
const stems = ['kabel', 'kabeln', 'kabelbaum', 'kabelbaumfertigung', 'kappe', 'kappen', 'crimp', 'crimpen', 'crimpzange', 'crimpautomat', 'abisolieren', 'abisolierung', 'maschine', 'maschinen', 'masche', 'messung', 'messen', 'mess', 'präzision', 'prüfung', 'prüfen', 'qualität', 'quelle', 'werk', 'werkzeug', 'werkzeuge', 'wert'];
let seed = 7;
const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
const pick = () => stems[Math.floor(rand() * stems.length)]!;
const docs = Array.from({ length: 300 }, () => ({
  title: Array.from({ length: 1 + Math.floor(rand() * 4) }, pick).join(' '),
  text: Array.from({ length: 5 + Math.floor(rand() * 60) }, pick).join(' '),
}));

const analyzer = analyzerFor('de');
const options: Options = {
  fields: ['title', 'text'],
  storeFields: [],
  tokenize: (t) => analyzer.terms(t),
  processTerm: (t) => t,
  searchOptions: { tokenize: (s) => s.split(' '), processTerm: (t) => t },
};

function both() {
  const reference = new MiniSearch(options);
  reference.addAll(docs.map((d, id) => ({ id, ...d })));
  const fields = buildFields(docs.length, ['title', 'text'], (n, f) => (f === 0 ? docs[n]!.title : docs[n]!.text), (t, fn) => eachWord(t, 'de', fn), (w) => analyzer.term(w));
  const file = new CompactIndex(writeCompact({ site: '', language: 'de', documents: docs.map(() => '[]'), countries: {} }, { search: fields }));
  return { reference, compact: toMiniSearch(file.indexes.search!, options), fields: file.indexes.search! };
}

const scores = (hits: { id: unknown; score: number; terms: string[] }[]) => new Map(hits.map((h) => [h.id, { score: h.score, terms: [...h.terms].sort() }]));

describe('compact index searched by MiniSearch', () => {
  const { reference, compact } = both();
  const queries: [string, Parameters<MiniSearch['search']>[1]][] = [
    ['kabel', {}],
    ['kabel maschin', { combineWith: 'AND' }],
    ['kab', { prefix: true }],
    ['mess', { prefix: true, fuzzy: 1 }],
    ['crimpautomta', { fuzzy: 2 }],
    ['werkzuge qualitat', { fuzzy: 2, combineWith: 'OR' }],
    ['pruefung', { fuzzy: 2, prefix: true }],
    ['werkzeuk masch', { fuzzy: 1, prefix: true, boost: { title: 3 } }],
  ];

  it.each(queries)('finds the same documents with the same scores and matched terms as MiniSearch: %s', (q, opts) => {
    const terms = analyzer.terms(q).join(' ');
    const expected = reference.search(terms, opts);
    expect(expected.length).toBeGreaterThan(0);
    expect(scores(compact.search(terms, opts))).toEqual(scores(expected));
  });
});

describe('searchCompact (issue 32: no objects per hit)', () => {
  const { reference, fields } = both();
  const ordered = (hits: { id: unknown; score: number; terms: string[] }[]) => hits.map((h) => ({ id: h.id, score: h.score, terms: [...h.terms].sort() }));
  const edits = (t: string) => (t.length < 4 ? 0 : t.length < 8 ? 1 : 2);
  const queries: [CompactQuery, Parameters<MiniSearch['search']>[1]][] = [
    ['kabel', {}],
    ['kabel', { boost: { title: 3 } }],
    ['kabel maschin', { combineWith: 'AND', boost: { title: 3, text: 1 } }],
    ['kabel maschin werk', { combineWith: 'OR' }],
    ['kab', { prefix: true }],
    ['mess', { prefix: true, fuzzy: 1 }],
    ['crimpautomta', { fuzzy: 2 }],
    ['crimpautomta', { fuzzy: true }],
    ['werkzuge qualitat', { fuzzy: 2, combineWith: 'OR' }],
    ['pruefung', { fuzzy: 2, prefix: true }],
    ['werkzeuk masch', { fuzzy: 1, prefix: true, boost: { title: 3 } }],
    ['kabel werkz', { combineWith: 'AND', prefix: (_t: string, i: number, all: string[]) => i === all.length - 1 }],
    // The typo query of embedded.ts: each word OR its stems, the last one also as a prefix.
    [{ combineWith: 'AND', queries: [{ combineWith: 'OR', queries: ['kabelbaum', 'kabel'], prefix: false }, { combineWith: 'OR', queries: ['maschin', 'masch'], prefix: (t: string) => t.length >= 4 }] }, { combineWith: 'AND', fuzzy: edits, boost: { title: 3, text: 1 } }],
    [{ combineWith: 'OR', queries: [{ combineWith: 'OR', queries: ['werkzuege'], prefix: false }, { combineWith: 'OR', queries: ['qualitt', 'qual'], prefix: (t: string) => t.length >= 4 }] }, { combineWith: 'OR', fuzzy: edits }],
    ['nichtda', {}],
  ];

  it.each(queries)('gives what MiniSearch gives, in its order: %j', (q, opts) => {
    const expected = reference.search(q as Parameters<MiniSearch['search']>[0], opts);
    const got = searchCompact(fields, q, opts as never)!;
    expect(ordered(got)).toEqual(ordered(expected));
  });

  it('leaves a query of more than 30 distinct terms to MiniSearch', () => {
    expect(searchCompact(fields, Array.from({ length: 32 }, (_, i) => `t${i}`).join(' '))).toBeNull();
  });
});

describe('fuzzyGet (issue 32: the band of the edit distance only)', () => {
  it('finds every term within the distance, with its distance, as a full Levenshtein table does', () => {
    let s = 11;
    const r = () => (s = (s * 16807) % 2147483647) / 2147483647;
    const word = () => Array.from({ length: 1 + Math.floor(r() * 12) }, () => 'abcde'[Math.floor(r() * 5)]).join('');
    const vocabulary = [...new Set(Array.from({ length: 3000 }, word))];
    const fields = buildFields(vocabulary.length, ['title'], (n) => vocabulary[n]!, (t, fn) => fn(t), (w) => w);
    const index = new CompactIndex(writeCompact({ site: '', language: 'de', documents: vocabulary.map(() => '[]'), countries: {} }, { search: fields })).indexes.search!;
    const levenshtein = (a: string, b: string) => {
      let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
      for (let i = 1; i <= a.length; i++) {
        const row = [i];
        for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1), prev[j]! + 1, row[j - 1]! + 1);
        prev = row;
      }
      return prev[b.length]!;
    };
    for (let k = 0; k < 150; k++) {
      const query = word();
      const max = 1 + (k % 3);
      const expected = new Map(vocabulary.map((t) => [t, levenshtein(query, t)] as const).filter(([, d]) => d <= max).sort(([a], [b]) => (a < b ? -1 : 1)));
      const got = new Map([...index.fuzzyGet(query, max)].map(([t, [, d]]) => [t, d] as const));
      expect(got).toEqual(expected);
    }
  });
});
