/**
 * The OpenSearch engine (`SEARCH_ENGINE=opensearch`, `OPENSEARCH_URL`), on the official client.
 *
 * One index per (site, language) behind an alias (`komax-search-main-de`, `komax-search-site-brand-portal-en`):
 * `indexDocuments` builds fresh indexes, bulk-loads them, then swaps every alias in one atomic
 * `_aliases` call and deletes the indexes it replaced, so searches never see a half-built index.
 *
 * Analysis per language mirrors analysis.ts: standard tokenizer, lowercase, stop words, the
 * Snowball stemmer where the language has one (Czech: Lucene's light stemmer), then ASCII folding;
 * zh/ja use CJK width folding and bigrams (no plugin needed; swap in smartcn/kuromoji if installed).
 * Titles also carry a `search_as_you_type` sub-field (folded, not stemmed) for suggest.
 *
 * Matching follows the embedded engine: all words (AND) over title, description and body (copied
 * into one `text` field), title and description boosted; with no hit, again with typo tolerance
 * (`AUTO:4,8`, the embedded engine's edit limits, also on unstemmed words; the last word also as a
 * prefix from 4 letters); then any word (OR). Highlighting asks for
 * `<mark>` with `encoder: 'html'` (OpenSearch does not escape otherwise) and the fragments are
 * sanitized again before they leave.
 */
import { Client } from '@opensearch-project/opensearch';
import { Agent as HttpAgent, type AgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';
import { resolveTimeouts } from '../http/timeouts.ts';
import type { Language } from './analysis.ts';
import { groupDocuments, localizeUrl, type PreparedDocument } from './documents.ts';
import { escapeHtml, sanitizeMarked } from './highlight.ts';
import { normalizeQuery, type NormalizedQuery } from './request.ts';
import {
  emptyResult, MIN_SUGGEST_CHARS, PAGE_SIZE, SearchError,
  type SearchBackend, type SearchDocument, type SearchHealth, type SearchQuery, type SearchRecord, type SearchResult, type SuggestQuery,
} from './types.ts';

export interface OpenSearchOptions {
  /** Prefix of alias and index names (default `komax-search`). */
  prefix?: string;
  /** A configured client (auth, TLS, AWS signing); by default one is made for the URL. */
  client?: Client;
  /** Per-request timeout in ms (default 5000). */
  requestTimeout?: number;
  /** Time to open a connection in ms (default 2000). */
  connectTimeoutMs?: number;
  /** Total time of a search or health call in ms (default 5000); also the default per-request timeout. */
  timeoutMs?: number;
  /** Replicas of each new index (default 1). */
  replicas?: number;
}

/** Edit distances as in the embedded engine: none below 4 characters, 1 up to 7, 2 from 8. */
export const FUZZINESS = 'AUTO:4,8';
const SNIPPET_CHARS = 200;

/** The alias searched for (site, language). */
export function aliasName(prefix: string, site: string, language: Language): string {
  return `${prefix}-${site ? `site-${site}` : 'main'}-${language}`;
}

// ---------------------------------------------------------------------------------------------
// Index settings and mappings

const SNOWBALL: Partial<Record<Language, string>> = {
  en: 'English', de: 'German', es: 'Spanish', fr: 'French', hu: 'Hungarian', pt: 'Portuguese', ro: 'Romanian',
};
const STOP: Partial<Record<Language, string>> = {
  en: '_english_', de: '_german_', es: '_spanish_', fr: '_french_', hu: '_hungarian_', pt: '_portuguese_', ro: '_romanian_', cs: '_czech_',
};

/** The `settings.analysis` and `mappings` of the index of one language. */
export function indexBody(language: Language, meta: { site: string; replicas?: number }): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  const chain: string[] = [];
  if (language === 'zh' || language === 'ja') {
    chain.push('cjk_width', 'lowercase', 'cjk_bigram');
  } else {
    if (language === 'fr') {
      filter.site_elision = { type: 'elision', articles_case: true, articles: ['l', 'm', 't', 'qu', 'n', 's', 'j', 'd', 'c', 'jusqu', 'quoiqu', 'lorsqu', 'puisqu'] };
      chain.push('site_elision');
    }
    if (language === 'en') chain.push('site_possessive');
    if (language === 'en') filter.site_possessive = { type: 'stemmer', language: 'possessive_english' };
    chain.push('lowercase');
    if (STOP[language]) {
      filter.site_stop = { type: 'stop', stopwords: STOP[language] };
      chain.push('site_stop');
    }
    if (SNOWBALL[language]) {
      filter.site_stemmer = { type: 'snowball', language: SNOWBALL[language] };
      chain.push('site_stemmer');
    } else if (language === 'cs') {
      filter.site_stemmer = { type: 'stemmer', language: 'czech' };
      chain.push('site_stemmer');
    }
  }
  chain.push('asciifolding');
  const text = { type: 'text', analyzer: 'site_text' };
  // Folded, unstemmed copies: typo tolerance on whole words (a typo in the ending defeats the stemmer).
  const plain = { plain: { type: 'text', analyzer: 'site_prefix' } };
  return {
    settings: {
      number_of_shards: 1,
      number_of_replicas: meta.replicas ?? 1,
      analysis: {
        filter,
        analyzer: {
          site_text: { type: 'custom', tokenizer: 'standard', filter: chain },
          site_prefix: { type: 'custom', tokenizer: 'standard', filter: ['cjk_width', 'lowercase', 'asciifolding'] },
        },
      },
    },
    mappings: {
      dynamic: 'strict',
      _meta: { language, site: meta.site },
      properties: {
        id: { type: 'keyword' },
        url: { type: 'keyword', index: false },
        title: { ...text, copy_to: 'text', fields: { suggest: { type: 'search_as_you_type', analyzer: 'site_prefix' } } },
        description: { ...text, copy_to: 'text', fields: plain },
        body: { ...text, copy_to: 'text', fields: plain },
        text: { ...text, fields: plain },
        countries: { type: 'keyword' },
      },
    },
  };
}

interface IndexedSource {
  id: string;
  url: string;
  title: string;
  description: string;
  body: string;
  countries?: string[];
}

function sourceOf(d: PreparedDocument): IndexedSource {
  return { id: d.id, url: d.url, title: d.title, description: d.description, body: d.body, ...(d.countries.length ? { countries: d.countries } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Queries

const HIGHLIGHT_FIELD = { fragment_size: SNIPPET_CHARS, number_of_fragments: 1, no_match_size: SNIPPET_CHARS };

function countryFilter(country: string | undefined): unknown[] {
  if (!country) return [];
  return [{ bool: { should: [{ bool: { must_not: { exists: { field: 'countries' } } } }, { term: { countries: country } }], minimum_should_match: 1 } }];
}

/** The body of a search request (exported for the stub's tests and for reading). */
export function searchBody(n: NormalizedQuery, mode: { operator: 'and' | 'or'; fuzzy: boolean }): Record<string, unknown> {
  const match = { query: n.query, operator: mode.operator, ...(mode.fuzzy ? { fuzziness: FUZZINESS } : {}) };
  const should: unknown[] = [{ match: { text: match } }, { match: { 'text.plain': match } }];
  // The last word completed as a prefix from 4 letters, as in the embedded engine.
  const lastWord = n.query.split(/\s+/).at(-1) ?? '';
  if (mode.fuzzy && [...lastWord].length >= 4) should.push({ match_bool_prefix: { 'text.plain': { ...match } } });
  const must = mode.fuzzy ? { bool: { should, minimum_should_match: 1 } } : { match: { text: match } };
  const fields: Record<string, unknown> = { description: HIGHLIGHT_FIELD, body: HIGHLIGHT_FIELD };
  if (mode.fuzzy) Object.assign(fields, { 'description.plain': HIGHLIGHT_FIELD, 'body.plain': HIGHLIGHT_FIELD });
  return {
    from: (n.page - 1) * PAGE_SIZE,
    size: PAGE_SIZE,
    track_total_hits: true,
    _source: ['url', 'title', 'description'],
    query: {
      bool: {
        must: [must],
        should: [{ match: { title: { query: n.query, boost: 3 } } }, { match: { description: { query: n.query, boost: 1.5 } } }],
        filter: countryFilter(n.country),
      },
    },
    highlight: {
      encoder: 'html',
      pre_tags: ['<mark>'],
      post_tags: ['</mark>'],
      require_field_match: false,
      fields,
    },
  };
}

/** The body of a suggest request: search-as-you-type over titles, the last word a prefix. */
export function suggestBody(n: NormalizedQuery, mode: { fuzzy: boolean }): Record<string, unknown> {
  return {
    from: 0,
    size: PAGE_SIZE,
    track_total_hits: true,
    _source: ['url', 'title', 'description'],
    query: {
      bool: {
        must: [{
          multi_match: {
            query: n.query,
            type: 'bool_prefix',
            operator: 'and',
            fields: ['title.suggest', 'title.suggest._2gram', 'title.suggest._3gram'],
            ...(mode.fuzzy ? { fuzziness: FUZZINESS } : {}),
          },
        }],
        filter: countryFilter(n.country),
      },
    },
    highlight: {
      encoder: 'html',
      pre_tags: ['<mark>'],
      post_tags: ['</mark>'],
      require_field_match: false,
      highlight_query: { match_bool_prefix: { description: { query: n.query } } },
      fields: { description: HIGHLIGHT_FIELD },
    },
  };
}

interface Hit {
  _id: string;
  _source?: { url?: string; title?: string; description?: string };
  highlight?: Record<string, string[] | undefined>;
}
interface SearchResponseBody {
  hits: { total: { value: number } | number; hits: Hit[] };
}

const totalOf = (t: { value: number } | number) => (typeof t === 'number' ? t : t.value);

/**
 * An agent whose connections give up when the TCP connection is not open within `ms` (Node's
 * socket timeout is an idle timeout and would also cut slow answers).
 */
function connectTimeoutAgent(https: boolean, ms: number): HttpAgent {
  const options: AgentOptions = { keepAlive: true, keepAliveMsecs: 1000, maxSockets: 256, maxFreeSockets: 256, scheduling: 'lifo' };
  const agent = https ? new HttpsAgent(options) : new HttpAgent(options);
  const create = (agent as unknown as { createConnection: (...args: unknown[]) => Duplex }).createConnection.bind(agent);
  (agent as unknown as { createConnection: (...args: unknown[]) => Duplex }).createConnection = (...args: unknown[]) => {
    const socket = create(...args);
    const timer = setTimeout(() => socket.destroy(new Error(`could not connect within ${ms} ms`)), ms);
    socket.once('connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
    return socket;
  };
  return agent;
}

/** Aborts a client call that has not finished within `ms` (the client's own timeout restarts on every retry and chunk). */
function withDeadline<T>(call: PromiseLike<T> & { abort?: () => unknown }, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      call.abort?.();
      reject(new Error(`no answer within ${ms} ms`));
    }, ms);
  });
  return Promise.race([Promise.resolve(call), deadline]).finally(() => clearTimeout(timer));
}

function isIndexMissing(err: unknown): boolean {
  const e = err as { meta?: { statusCode?: number; body?: { error?: { type?: string } } } };
  return e?.meta?.statusCode === 404 && e.meta.body?.error?.type === 'index_not_found_exception';
}

function errorText(err: unknown): string {
  const e = err as { message?: string; meta?: { statusCode?: number; body?: { error?: { type?: string; reason?: string } } } };
  const reason = e?.meta?.body?.error?.reason ?? e?.meta?.body?.error?.type;
  return [e?.meta?.statusCode, reason ?? e?.message ?? String(err)].filter(Boolean).join(' ');
}

/** The search backend over an OpenSearch cluster. */
export class OpenSearchBackend implements SearchBackend {
  readonly url: string;
  readonly prefix: string;
  readonly client: Client;
  private readonly replicas: number;
  private readonly timeoutMs: number;

  constructor(url: string, opts: OpenSearchOptions = {}) {
    this.url = url;
    this.prefix = opts.prefix ?? 'komax-search';
    this.replicas = opts.replicas ?? 1;
    const t = resolveTimeouts(opts);
    this.timeoutMs = t.timeoutMs;
    this.client = opts.client ?? new Client({
      node: url,
      requestTimeout: opts.requestTimeout ?? t.timeoutMs,
      maxRetries: 1,
      agent: (o: { url?: URL }) => connectTimeoutAgent(o.url?.protocol === 'https:', t.connectTimeoutMs),
    });
  }

  /** Checks that the cluster answers (call before the server listens). Throws `not-ready`. */
  async open(): Promise<void> {
    const h = await this.health();
    if (!h.ok) throw new SearchError('not-ready', `OpenSearch at ${this.url} is not usable: ${h.detail}`);
  }

  async health(): Promise<SearchHealth> {
    try {
      const res = await withDeadline(this.client.cluster.health({}), this.timeoutMs);
      const status = (res.body as { status?: string }).status ?? 'unknown';
      return { ok: status === 'green' || status === 'yellow', detail: `cluster ${status}` };
    } catch (err) {
      return { ok: false, detail: errorText(err) };
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private async run(n: NormalizedQuery, body: Record<string, unknown>): Promise<SearchResponseBody | null> {
    try {
      const res = await withDeadline(this.client.search({ index: aliasName(this.prefix, n.site, n.language), body }), this.timeoutMs);
      return res.body as unknown as SearchResponseBody;
    } catch (err) {
      if (isIndexMissing(err)) return null; // no page of this site in this language: no result
      throw new SearchError('backend', `OpenSearch search failed: ${errorText(err)}`, { cause: err });
    }
  }

  async search(q: SearchQuery): Promise<SearchResult> {
    const n = normalizeQuery(q);
    if (!n.query) return emptyResult(n.page);
    let res = await this.run(n, searchBody(n, { operator: 'and', fuzzy: false }));
    if (res && !totalOf(res.hits.total)) res = await this.run(n, searchBody(n, { operator: 'and', fuzzy: true }));
    if (res && !totalOf(res.hits.total) && (/\s/.test(n.query) || n.language === 'zh' || n.language === 'ja')) res = await this.run(n, searchBody(n, { operator: 'or', fuzzy: true }));
    if (!res) return emptyResult(n.page);
    return { records: res.hits.hits.map((h) => this.record(n, h)), total: totalOf(res.hits.total), page: n.page };
  }

  async suggest(q: SuggestQuery): Promise<SearchResult> {
    const n = normalizeQuery(q);
    if ([...n.query].length < MIN_SUGGEST_CHARS) return emptyResult();
    let res = await this.run(n, suggestBody(n, { fuzzy: false }));
    if (res && !totalOf(res.hits.total)) res = await this.run(n, suggestBody(n, { fuzzy: true }));
    if (!res) return emptyResult();
    return { records: res.hits.hits.slice(0, PAGE_SIZE).map((h) => this.record(n, h)), total: totalOf(res.hits.total), page: 1 };
  }

  private record(n: NormalizedQuery, h: Hit): SearchRecord {
    const src = h._source ?? {};
    const hl = h.highlight ?? {};
    const fragments = ['description', 'description.plain', 'body', 'body.plain'].map((f) => hl[f]?.[0]).filter((f): f is string => !!f);
    const marked = fragments.find((f) => f.includes('<mark>'));
    const description = marked ?? fragments[0] ?? escapeHtml((src.description ?? '').slice(0, SNIPPET_CHARS));
    return {
      title: src.title ?? '',
      description: sanitizeMarked(description),
      url: localizeUrl(src.url ?? '', n.language, n.localeCode),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Building

  /**
   * Indexes all documents: a new index per (site, language), bulk-loaded and refreshed, then all
   * aliases switched in one `_aliases` call; the replaced indexes (and, with `removeStale`,
   * aliases of (site, language) pairs no longer present) are deleted. Throws a SearchError
   * (`build`) on any failure, leaving the aliases as they were.
   */
  async indexDocuments(docs: Iterable<SearchDocument>, opts: { removeStale?: boolean } = {}): Promise<{ indexes: number; documents: number }> {
    const groups = groupDocuments(docs);
    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const created: string[] = [];
    const targets = new Map<string, string>(); // alias → new index
    let documents = 0;
    let swapped = false;
    try {
      for (const group of groups.values()) {
        const { site, language } = group[0]!;
        const alias = aliasName(this.prefix, site, language);
        const index = `${alias}-${stamp}`;
        await this.client.indices.create({ index, body: indexBody(language, { site, replicas: this.replicas }) as never });
        created.push(index);
        const dropped: string[] = [];
        const stats = await this.client.helpers.bulk<IndexedSource>({
          datasource: group.map(sourceOf),
          onDocument: (d) => ({ index: { _index: index, _id: d.id } }),
          onDrop: (d) => { dropped.push(`${d.document?.id ?? '?'}: ${d.error?.reason ?? d.status}`); },
          refreshOnCompletion: index,
        });
        if (stats.failed || dropped.length) throw new Error(`${stats.failed} documents rejected by ${index}: ${dropped.slice(0, 3).join('; ')}`);
        targets.set(alias, index);
        documents += group.length;
      }
      const current = await this.aliases();
      const actions: unknown[] = [];
      const replaced = new Set<string>();
      const retire = (alias: string) => {
        for (const old of current.get(alias) ?? []) {
          actions.push({ remove: { index: old, alias } });
          replaced.add(old);
        }
      };
      for (const [alias, index] of targets) {
        retire(alias);
        actions.push({ add: { index, alias } });
      }
      if (opts.removeStale) for (const alias of current.keys()) if (!targets.has(alias)) retire(alias);
      if (actions.length) await this.client.indices.updateAliases({ body: { actions } as never });
      swapped = true;
      if (replaced.size) await this.client.indices.delete({ index: [...replaced].join(','), ignore_unavailable: true });
      return { indexes: targets.size, documents };
    } catch (err) {
      if (swapped) throw new SearchError('build', `OpenSearch aliases switched, but deleting the old indexes failed: ${errorText(err)}`, { cause: err });
      // The aliases still point at the old indexes: drop what was built for nothing.
      let cleanup = '';
      if (created.length) {
        await this.client.indices.delete({ index: created.join(','), ignore_unavailable: true }).catch((e: unknown) => {
          cleanup = ` (deleting the new indexes ${created.join(', ')} failed too: ${errorText(e)})`;
        });
      }
      throw new SearchError('build', `Indexing into OpenSearch failed, the aliases were left as they were: ${errorText(err)}${cleanup}`, { cause: err });
    }
  }

  /** Alias → indexes, for this prefix. */
  private async aliases(): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>();
    let body: Record<string, { aliases?: Record<string, unknown> }>;
    try {
      body = (await this.client.indices.getAlias({ name: `${this.prefix}-*` })).body as typeof body;
    } catch (err) {
      if ((err as { meta?: { statusCode?: number } })?.meta?.statusCode === 404) return out;
      throw err;
    }
    for (const [index, v] of Object.entries(body)) {
      for (const alias of Object.keys(v.aliases ?? {})) out.set(alias, [...(out.get(alias) ?? []), index]);
    }
    return out;
  }
}
