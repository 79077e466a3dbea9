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
