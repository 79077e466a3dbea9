/**
 * TEST HELPER (not for production): a loopback HTTP server that answers the OpenSearch calls
 * OpenSearchBackend makes — cluster health, index create/delete/refresh, `_bulk`, `_alias`,
 * `_aliases`, and `_search` with `match` on `text`/`text.plain` (operator, fuzziness),
 * `match_bool_prefix` on `text.plain`, `bool_prefix`
 * multi_match on the title's search-as-you-type fields, term/exists/bool filters, from/size and
 * highlighting (pre/post tags, `encoder: 'html'`, fragment_size, no_match_size, highlight_query) —
 * well enough for the contract suite, by delegating to a tiny in-memory engine that reuses
 * analysis.ts. Any other request is answered 400 `stub_unsupported_request`, so an adapter change
 * that sends something new fails loudly.
 *
 * Like the real thing, the stub does NOT escape highlight fragments unless `encoder: 'html'` is asked.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { analyzerFor, fold, isLanguage, segment, type Language } from '../../src/lib/search/analysis.ts';
import { escapeHtml } from '../../src/lib/search/highlight.ts';

type Json = Record<string, unknown>;
type Source = Record<string, unknown>;

interface MemoryIndex {
  language: Language;
  docs: Map<string, Source>;
}

class StubError extends Error {
  readonly status: number;
  readonly type: string;
  constructor(status: number, type: string, reason: string) {
    super(reason);
    this.status = status;
    this.type = type;
  }
}

const unsupported = (what: string) => new StubError(400, 'stub_unsupported_request', `The OpenSearch stub does not handle ${what}`);

function levenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, cur[j]!);
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** `AUTO:low,high` (or a number) → allowed edits for a term. */
function edits(fuzziness: unknown, term: string): number {
  if (fuzziness === undefined) return 0;
  if (typeof fuzziness === 'number') return fuzziness;
  const m = /^AUTO(?::(\d+),(\d+))?$/.exec(String(fuzziness));
  if (!m) throw unsupported(`fuzziness ${String(fuzziness)}`);
  const low = Number(m[1] ?? 3);
  const high = Number(m[2] ?? 6);
  return term.length < low ? 0 : term.length < high ? 1 : 2;
}

/** Folded, unstemmed words: what the `site_prefix` analyzer gives. */
const prefixTerms = (text: string, language: Language) => segment(text, language).map((s) => fold(s.surface.normalize('NFKC').toLowerCase()));

/** The in-memory engine behind the stub. */
/**
 * Top-level properties of a `_search` request body in OpenSearch's published API specification
 * (opensearch-api-specification, `search` operation, OpenSearch 2.x). Anything else is refused as
 * a cluster does: 400 `parsing_exception`, "Unknown key for a … in […]".
 */
const SEARCH_BODY_KEYS = new Set([
  'aggregations', 'aggs', 'collapse', 'derived', 'docvalue_fields', 'explain', 'ext', 'fields', 'from', 'highlight',
  'include_named_queries_score', 'indices_boost', 'min_score', 'pit', 'post_filter', 'profile', 'query', 'rescore',
  'script_fields', 'search_after', 'search_pipeline', 'seq_no_primary_term', 'size', 'slice', 'sort', '_source',
  'stats', 'stored_fields', 'suggest', 'terminate_after', 'timeout', 'track_scores', 'track_total_hits', 'verbose_pipeline', 'version',
]);
/** Top-level properties of a create-index body (`PUT /<index>`). */
const CREATE_INDEX_KEYS = new Set(['aliases', 'mappings', 'settings']);
/** `index.max_result_window`'s default: from + size past it is refused. */
const MAX_RESULT_WINDOW = 10_000;

const tokenKind = (v: unknown) => (Array.isArray(v) ? 'START_ARRAY' : v !== null && typeof v === 'object' ? 'START_OBJECT' : typeof v === 'string' ? 'VALUE_STRING' : typeof v === 'number' ? 'VALUE_NUMBER' : typeof v === 'boolean' ? 'VALUE_BOOLEAN' : 'VALUE_NULL');

/** Refuses a `_search` body a cluster would refuse (unknown keys, malformed paging, a query that is not one clause). */
export function checkSearchBody(body: Json): void {
  for (const [key, value] of Object.entries(body)) {
    if (!SEARCH_BODY_KEYS.has(key)) throw new StubError(400, 'parsing_exception', `Unknown key for a ${tokenKind(value)} in [${key}].`);
  }
  for (const key of ['from', 'size'] as const) {
    const v = body[key];
    if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0)) {
      throw new StubError(400, 'illegal_argument_exception', `[${key}] parameter cannot be negative or fractional, found [${String(v)}]`);
    }
  }
  const window = ((body.from as number | undefined) ?? 0) + ((body.size as number | undefined) ?? 10);
  if (window > MAX_RESULT_WINDOW) {
    throw new StubError(400, 'illegal_argument_exception', `Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${window}].`);
  }
  const query = body.query;
  if (query !== undefined && (query === null || typeof query !== 'object' || Array.isArray(query) || Object.keys(query).length !== 1)) {
    throw new StubError(400, 'parsing_exception', '[query] must hold exactly one query clause');
  }
}

/** Refuses a create-index body with other top-level keys than settings, mappings and aliases. */
export function checkCreateIndexBody(body: Json): void {
  for (const key of Object.keys(body)) {
    if (!CREATE_INDEX_KEYS.has(key)) throw new StubError(400, 'parse_exception', `unknown key [${key}] for create index`);
  }
}

/** A `_bulk` body: newline-delimited JSON, the last line ended by a newline too. */
export function checkBulkBody(ndjson: string): void {
  if (!ndjson.endsWith('\n')) throw new StubError(400, 'illegal_argument_exception', 'The bulk request must be terminated by a newline [\\n]');
}

export class MemoryOpenSearch {
  readonly indices = new Map<string, MemoryIndex>();
  readonly aliases = new Map<string, Set<string>>();
  private seqNo = 0;

  createIndex(name: string, body: Json): Json {
    checkCreateIndexBody(body);
    if (this.indices.has(name) || this.aliases.has(name)) throw new StubError(400, 'resource_already_exists_exception', `index [${name}] already exists`);
    if (name !== name.toLowerCase() || /^[-_+]/.test(name)) throw new StubError(400, 'invalid_index_name_exception', `Invalid index name [${name}]`);
    const language = ((body.mappings as Json | undefined)?._meta as Json | undefined)?.language;
    if (typeof language !== 'string' || !isLanguage(language)) throw unsupported('an index without mappings._meta.language');
    this.indices.set(name, { language, docs: new Map() });
    return { acknowledged: true, shards_acknowledged: true, index: name };
  }

  deleteIndices(names: string, ignoreUnavailable = false): Json {
    const list = names.split(',').filter((n) => !ignoreUnavailable || this.indices.has(n));
    for (const n of list) if (!this.indices.has(n)) throw new StubError(404, 'index_not_found_exception', `no such index [${n}]`);
    for (const n of list) {
      this.indices.delete(n);
      for (const [alias, set] of this.aliases) {
        set.delete(n);
        if (!set.size) this.aliases.delete(alias);
      }
    }
    return { acknowledged: true };
  }

  bulk(ndjson: string, defaultIndex?: string): Json {
    checkBulkBody(ndjson);
    const lines = ndjson.split('\n').filter((l) => l.trim());
    const items: Json[] = [];
    let errors = false;
    for (let i = 0; i < lines.length; i++) {
      const action = JSON.parse(lines[i]!) as Json;
      const [op, meta] = Object.entries(action)[0] as [string, Json];
      const indexName = (meta._index as string | undefined) ?? defaultIndex;
      const id = meta._id as string;
      if (op === 'delete') {
        this.indices.get(indexName ?? '')?.docs.delete(id);
        items.push({ delete: { _index: indexName, _id: id, status: 200, result: 'deleted' } });
        continue;
      }
      if (op !== 'index' && op !== 'create') throw unsupported(`bulk action ${op}`);
      const source = JSON.parse(lines[++i]!) as Source;
      const index = this.indices.get(indexName ?? '');
      if (!index) {
        errors = true;
        items.push({ [op]: { _index: indexName, _id: id, status: 404, error: { type: 'index_not_found_exception', reason: `no such index [${indexName}]` } } });
        continue;
      }
      const replaced = index.docs.has(id);
      if (replaced && op === 'create') {
        errors = true;
        items.push({ create: { _index: indexName, _id: id, status: 409, error: { type: 'version_conflict_engine_exception', reason: `[${id}]: version conflict, document already exists` } } });
        continue;
      }
      index.docs.set(id, source);
      // The item as a cluster answers it (bulk API reference): version, shards, sequence number.
      items.push({ [op]: { _index: indexName, _id: id, _version: 1, result: replaced ? 'updated' : 'created', _shards: { total: 2, successful: 1, failed: 0 }, _seq_no: this.seqNo++, _primary_term: 1, status: replaced ? 200 : 201 } });
    }
    return { took: 1, errors, items };
  }

  getAlias(name: string): Json {
    const re = new RegExp(`^${name.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    const out: Record<string, { aliases: Record<string, Json> }> = {};
    for (const [alias, indexes] of this.aliases) {
      if (!re.test(alias)) continue;
      for (const index of indexes) (out[index] ??= { aliases: {} }).aliases[alias] = {};
    }
    if (!name.includes('*') && !Object.keys(out).length) throw new StubError(404, 'aliases_not_found_exception', `alias [${name}] missing`);
    return out;
  }

  updateAliases(body: Json): Json {
    const actions = body.actions as Json[] | undefined;
    if (!Array.isArray(actions)) throw new StubError(400, 'action_request_validation_exception', 'actions missing');
    // Validate everything first: the real call is atomic.
    for (const a of actions) {
      const [op, args] = Object.entries(a)[0] as [string, Json];
      if (op !== 'add' && op !== 'remove') throw unsupported(`alias action ${op}`);
      if (!this.indices.has(args.index as string)) throw new StubError(404, 'index_not_found_exception', `no such index [${String(args.index)}]`);
      if (op === 'remove' && !this.aliases.get(args.alias as string)?.has(args.index as string)) throw new StubError(404, 'aliases_not_found_exception', `aliases [${String(args.alias)}] missing`);
    }
    for (const a of actions) {
      const [op, args] = Object.entries(a)[0] as [string, Json];
      const alias = args.alias as string;
      const set = this.aliases.get(alias) ?? new Set<string>();
      if (op === 'add') set.add(args.index as string);
      else set.delete(args.index as string);
      if (set.size) this.aliases.set(alias, set);
      else this.aliases.delete(alias);
    }
    return { acknowledged: true };
  }

  private resolve(target: string): [string, MemoryIndex][] {
    const names = this.aliases.has(target) ? [...this.aliases.get(target)!] : this.indices.has(target) ? [target] : [];
    if (!names.length) throw new StubError(404, 'index_not_found_exception', `no such index [${target}]`);
    return names.map((n) => [n, this.indices.get(n)!]);
  }

  search(target: string, body: Json): Json {
    checkSearchBody(body);
    const out: { index: string; id: string; source: Source; score: number; matched: Set<string>; language: Language }[] = [];
    for (const [name, index] of this.resolve(target)) {
      for (const [id, source] of index.docs) {
        const r = this.evaluate(body.query as Json, source, index.language);
        if (r) out.push({ index: name, id, source, score: r.score, matched: r.matched, language: index.language });
      }
    }
    out.sort((a, b) => b.score - a.score);
    const from = (body.from as number | undefined) ?? 0;
    const size = (body.size as number | undefined) ?? 10;
    const sourceFields = body._source as string[] | undefined;
    const highlight = body.highlight as Json | undefined;
    return {
      took: 1,
      timed_out: false,
      _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
      hits: {
        total: { value: out.length, relation: 'eq' },
        max_score: out[0]?.score ?? null,
        hits: out.slice(from, from + size).map((h) => ({
          _index: h.index,
          _id: h.id,
          _score: h.score,
          _source: Array.isArray(sourceFields) ? Object.fromEntries(sourceFields.filter((f) => f in h.source).map((f) => [f, h.source[f]])) : h.source,
          ...(highlight ? { highlight: this.highlight(highlight, h.source, h.matched, h.language) } : {}),
        })),
      },
    };
  }

  /** Null when the document does not match; else its score and the analyzed terms it matched. */
  private evaluate(query: Json, source: Source, language: Language): { score: number; matched: Set<string> } | null {
    const [type, spec] = Object.entries(query)[0] as [string, Json];
    if (type === 'bool') {
      let score = 0;
      const matched = new Set<string>();
      for (const clause of (spec.must as Json[] | undefined) ?? []) {
        const r = this.evaluate(clause, source, language);
        if (!r) return null;
        score += r.score;
        r.matched.forEach((t) => matched.add(t));
      }
      for (const clause of (spec.filter as Json[] | undefined) ?? []) if (!this.evaluate(clause, source, language)) return null;
      const mustNot = spec.must_not === undefined ? [] : Array.isArray(spec.must_not) ? (spec.must_not as Json[]) : [spec.must_not as Json];
      for (const clause of mustNot) if (this.evaluate(clause, source, language)) return null;
      const should = (spec.should as Json[] | undefined) ?? [];
      let shouldHits = 0;
      for (const clause of should) {
        const r = this.evaluate(clause, source, language);
        if (r) {
          shouldHits++;
          score += r.score;
          r.matched.forEach((t) => matched.add(t));
        }
      }
      const minShould = (spec.minimum_should_match as number | undefined) ?? (spec.must || spec.filter ? 0 : should.length ? 1 : 0);
      if (shouldHits < minShould) return null;
      return { score, matched };
    }
    if (type === 'term') {
      const [field, value] = Object.entries(spec)[0]!;
      const v = source[field];
      return (Array.isArray(v) ? v.includes(value) : v === value) ? { score: 0, matched: new Set() } : null;
    }
    if (type === 'exists') {
      const v = source[spec.field as string];
      return v !== undefined && v !== null && !(Array.isArray(v) && !v.length) ? { score: 0, matched: new Set() } : null;
    }
    if (type === 'match') {
      const [field, opts] = Object.entries(spec)[0] as [string, Json];
      return this.match(field, opts, source, language);
    }
    if (type === 'multi_match' && spec.type === 'bool_prefix') return this.boolPrefix(spec, source, language);
    if (type === 'match_bool_prefix') {
      const [field, opts] = Object.entries(spec)[0] as [string, Json];
      if (field !== 'text.plain') throw unsupported(`match_bool_prefix on ${field}`);
      return this.plainPrefix(opts, source, language);
    }
    throw unsupported(`query ${type}${spec.type ? ` (${String(spec.type)})` : ''}`);
  }

  private fieldText(field: string, source: Source): string {
    if (field === 'text' || field === 'text.plain') return ['title', 'description', 'body'].map((f) => source[f] ?? '').join('\n');
    if (field === 'title' || field === 'description' || field === 'body') return String(source[field] ?? '');
    throw unsupported(`match on field ${field}`);
  }

  private match(field: string, opts: Json, source: Source, language: Language): { score: number; matched: Set<string> } | null {
    // `.plain` sub-fields: folded, unstemmed words (the `site_prefix` analyzer); their terms are
    // remembered as `plain:<word>` for highlighting.
    const isPlain = field.endsWith('.plain');
    const analyze = isPlain ? (t: string) => prefixTerms(t, language) : (t: string) => analyzerFor(language).terms(t);
    const queryTerms = [...new Set(analyze(String(opts.query ?? '')))];
    if (!queryTerms.length) return null;
    const docTerms = analyze(this.fieldText(field, source));
    const counts = new Map<string, number>();
    for (const t of docTerms) counts.set(t, (counts.get(t) ?? 0) + 1);
    const matched = new Set<string>();
    let score = 0;
    let hits = 0;
    for (const q of queryTerms) {
      const max = edits(opts.fuzziness, q);
      let hit = false;
      for (const [t, n] of counts) {
        const d = t === q ? 0 : max ? levenshtein(q, t, max) : 1;
        if (d > max) continue;
        hit = true;
        matched.add(isPlain ? `plain:${t}` : t);
        score += (d ? 0.5 : 1) * (1 + Math.log(n)) / Math.sqrt(docTerms.length || 1);
      }
      if (hit) hits++;
    }
    const operator = String(opts.operator ?? 'or').toLowerCase();
    if (operator === 'and' ? hits < queryTerms.length : hits === 0) return null;
    return { score: score * ((opts.boost as number | undefined) ?? 1), matched };
  }

  /** match_bool_prefix on `text.plain`: whole words (fuzzy as asked), the last one a prefix. */
  private plainPrefix(opts: Json, source: Source, language: Language): { score: number; matched: Set<string> } | null {
    const words = prefixTerms(String(opts.query ?? ''), language);
    if (!words.length) return null;
    const doc = new Set(prefixTerms(this.fieldText('text', source), language));
    const matched = new Set<string>();
    let hits = 0;
    words.forEach((w, i) => {
      const last = i === words.length - 1;
      const max = edits(opts.fuzziness, w);
      let hit = false;
      for (const t of doc) {
        if (t === w || (last && t.startsWith(w)) || (max > 0 && levenshtein(w, t, max) <= max)) {
          matched.add(`plain:${t}`);
          hit = true;
        }
      }
      if (hit) hits++;
    });
    const and = String(opts.operator ?? 'or').toLowerCase() === 'and';
    if (and ? hits < words.length : hits === 0) return null;
    return { score: hits * 0.3, matched };
  }

  private boolPrefix(spec: Json, source: Source, language: Language): { score: number; matched: Set<string> } | null {
    const fields = spec.fields as string[];
    if (!fields.every((f) => f.startsWith('title.suggest'))) throw unsupported(`bool_prefix on ${fields.join(',')}`);
    const words = prefixTerms(String(spec.query ?? ''), language);
    if (!words.length) return null;
    const title = prefixTerms(String(source.title ?? ''), language);
    let score = 0;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      const last = i === words.length - 1;
      const max = last ? 0 : edits(spec.fuzziness, w);
      const hit = title.some((t) => (last ? t.startsWith(w) : t === w || (max > 0 && levenshtein(w, t, max) <= max)));
      if (!hit) {
        if (String(spec.operator ?? 'or').toLowerCase() === 'and') return null;
        continue;
      }
      score += 1 / (title.length || 1);
    }
    return score ? { score, matched: new Set() } : null;
  }

  private highlight(spec: Json, source: Source, matched: Set<string>, language: Language): Record<string, string[]> {
    const pre = ((spec.pre_tags as string[] | undefined) ?? ['<em>'])[0]!;
    const post = ((spec.post_tags as string[] | undefined) ?? ['</em>'])[0]!;
    const encode = spec.encoder === 'html' ? escapeHtml : (s: string) => s;
    const analyzer = analyzerFor(language);
    // A highlight_query (match_bool_prefix) marks its words, the last one as a prefix.
    let isHit = (t: string) => matched.has(t);
    const hq = spec.highlight_query as Json | undefined;
    if (hq) {
      const [type, inner] = Object.entries(hq)[0] as [string, Json];
      if (type !== 'match_bool_prefix') throw unsupported(`highlight_query ${type}`);
      const query = String((Object.values(inner)[0] as Json).query ?? '');
      const words = segment(query, language);
      const whole = new Set(words.slice(0, -1).map((w) => analyzer.term(w.surface)).filter((t): t is string => !!t));
      const lastWord = words.at(-1);
      const last = lastWord ? analyzer.term(lastWord.surface, { keepStopWords: true }) : null;
      isHit = (t) => whole.has(t) || (!!last && t.startsWith(last));
    }
    const out: Record<string, string[]> = {};
    for (const [field, opts] of Object.entries((spec.fields as Record<string, Json>) ?? {})) {
      const isPlain = field.endsWith('.plain');
      const text = String(source[isPlain ? field.slice(0, -'.plain'.length) : field] ?? '');
      if (!text) continue;
      const size = (opts.fragment_size as number | undefined) ?? 100;
      const tokens = isPlain
        ? segment(text, language).filter((t) => matched.has(`plain:${fold(t.surface.normalize('NFKC').toLowerCase())}`))
        : analyzer.tokens(text).filter((t) => isHit(t.term));
      if (!tokens.length) {
        const noMatch = (opts.no_match_size as number | undefined) ?? 0;
        if (noMatch > 0) out[field] = [encode(text.slice(0, noMatch))];
        continue;
      }
      const start = Math.max(0, Math.min(tokens[0]!.start - Math.floor(size / 4), text.length - size));
      const end = Math.min(text.length, start + size);
      let frag = '';
      let pos = start;
      for (const t of tokens) {
        if (t.start < start || t.end > end) continue;
        frag += encode(text.slice(pos, t.start)) + pre + encode(t.surface) + post;
        pos = t.end;
      }
      frag += encode(text.slice(pos, end));
      out[field] = [frag];
    }
    return out;
  }
}

export interface OpenSearchStub {
  /** `http://127.0.0.1:<port>` */
  url: string;
  engine: MemoryOpenSearch;
  /** Every request as `METHOD /path`, in order. */
  calls: string[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

/**
 * Starts the stub on 127.0.0.1 (port 0: a free one). A fault test restarts it on the same `port`
 * with the `engine` of the stopped one: its indexes survive, as a real cluster's would.
 */
export async function startOpenSearchStub(opts: { port?: number; engine?: MemoryOpenSearch } = {}): Promise<OpenSearchStub> {
  const engine = opts.engine ?? new MemoryOpenSearch();
  const calls: string[] = [];

  const route = async (req: IncomingMessage): Promise<[number, unknown]> => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const method = req.method ?? 'GET';
    const text = await readBody(req);
    const json = () => (text.trim() ? (JSON.parse(text) as Json) : {});
    calls.push(`${method} ${url.pathname}`);
    // A cluster refuses a body without a JSON or NDJSON media type (406, in its own error shape).
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (text.length && type !== 'application/json' && type !== 'application/x-ndjson') {
      return [406, { error: `Content-Type header [${req.headers['content-type'] ?? ''}] is not supported`, status: 406 }];
    }

    if (!parts.length && (method === 'GET' || method === 'HEAD')) {
      return [200, { name: 'stub', cluster_name: 'stub', version: { distribution: 'opensearch', number: '2.19.0' }, tagline: 'The OpenSearch Project: https://opensearch.org/' }];
    }
    if (parts[0] === '_cluster' && parts[1] === 'health' && method === 'GET') {
      return [200, { cluster_name: 'stub', status: 'green', number_of_nodes: 1, active_shards: engine.indices.size }];
    }
    if (parts[0] === '_bulk' && (method === 'POST' || method === 'PUT')) return [200, engine.bulk(text)];
    if (parts[1] === '_bulk' && (method === 'POST' || method === 'PUT')) return [200, engine.bulk(text, parts[0])];
    if (parts[0] === '_aliases' && method === 'POST') return [200, engine.updateAliases(json())];
    if (parts[0] === '_alias' && parts[1] && method === 'GET') return [200, engine.getAlias(parts[1])];
    if (parts.length === 2 && parts[1] === '_refresh' && (method === 'POST' || method === 'GET')) {
      for (const n of parts[0]!.split(',')) if (!engine.indices.has(n) && !engine.aliases.has(n)) throw new StubError(404, 'index_not_found_exception', `no such index [${n}]`);
      return [200, { _shards: { total: 1, successful: 1, failed: 0 } }];
    }
    if (parts.length === 2 && parts[1] === '_search' && (method === 'POST' || method === 'GET')) return [200, engine.search(parts[0]!, json())];
    if (parts.length === 1 && !parts[0]!.startsWith('_')) {
      if (method === 'PUT') return [200, engine.createIndex(parts[0]!, json())];
      if (method === 'DELETE') return [200, engine.deleteIndices(parts[0]!, url.searchParams.get('ignore_unavailable') === 'true')];
    }
    throw unsupported(`${method} ${url.pathname}`);
  };

  const server: Server = createServer((req, res) => {
    route(req).then(
      ([status, body]) => send(res, status, body),
      (err: unknown) => {
        const e = err instanceof StubError ? err : new StubError(500, 'exception', (err as Error).message);
        send(res, e.status, { error: { root_cause: [{ type: e.type, reason: e.message }], type: e.type, reason: e.message }, status: e.status });
      },
    );
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, '127.0.0.1', () => ok());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    engine,
    calls,
    close: () => new Promise<void>((ok, fail) => {
      server.closeAllConnections();
      server.close((err) => (err ? fail(err) : ok()));
    }),
  };
}
