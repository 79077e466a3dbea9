/**
 * Site search: the entry points the server, the API routes and the prerender use.
 *
 *   server start:  const search = createSearchBackend(config)   // config from src/server/boot/env.ts searchConfig();
 *                  await search.open();                      // before server.listen()
 *   API routes:    await search.search(parseSearchRequest(body)) / search.suggest(parseSuggestRequest(body))
 *   prerender:     await publishSearchDocuments(docs, config) // docs from the prerender's routes
 *   revalidation:  await search.reload();                     // after the prerender worker finished
 *   other instances: search.watch() (shared disk) or reloadSearch(search) on "release changed"
 */
import { buildIndexDirectory, EmbeddedBackend } from './embedded.ts';
import { OpenSearchBackend } from './opensearch.ts';
import type { SearchBackend, SearchDocument } from './types.ts';
import type { UpstreamTimeouts } from '../http/timeouts.ts';

export * from './types.ts';
export { analyzerFor, parseLocale, LANGUAGES, type Language } from './analysis.ts';
export { escapeHtml, stripBrand } from './highlight.ts';
export { indexKey, searchSiteKey } from './documents.ts';
export { parseSearchRequest, parseSuggestRequest } from './request.ts';
export { buildIndexes, writeIndexes, buildIndexDirectory, EmbeddedBackend, DEFAULT_MEMORY_BUDGET, type Manifest } from './embedded.ts';
export { OpenSearchBackend, type OpenSearchOptions } from './opensearch.ts';

export interface SearchConfig {
  engine: 'embedded' | 'opensearch';
  /** Folder of the embedded indexes (default `<distDir>/search`). */
  indexDir: string;
  /** Bytes the embedded indexes loaded by one instance may hold (SEARCH_MEMORY_BUDGET, default 256 MiB). */
  memoryBudget?: number;
  opensearchUrl?: string;
  /** Alias/index name prefix in OpenSearch (default `komax-search`). */
  opensearchPrefix?: string;
  /** Connect and total timeouts of OpenSearch calls (defaults 2000 and 5000 ms). */
  timeouts?: UpstreamTimeouts;
}

/**
 * A backend with `reload()`: the embedded engine reads the manifest again (or that of another
 * index folder, `reload(dir)`), OpenSearch has nothing to do (its aliases switch on the cluster).
 * `watch()` reloads whenever the manifest changes on disk and returns the function that stops it.
 */
export type ServerSearchBackend = SearchBackend & { reload(indexDir?: string): Promise<void>; watch(intervalMs?: number, onError?: (err: Error) => void): () => void };

/**
 * What the server calls when a release went live (on this instance, or on another one as the
 * shared state's "release changed" says): the embedded engine switches to the indexes of
 * `indexDir` (default: the folder it serves) at once, without mixing them with the old ones.
 */
export function reloadSearch(backend: ServerSearchBackend, indexDir?: string): Promise<void> {
  return backend.reload(indexDir);
}

/** The backend the server uses. Call `open()` on it before listening. */
export function createSearchBackend(config: SearchConfig): ServerSearchBackend {
  if (config.engine === 'opensearch') {
    const backend = new OpenSearchBackend(config.opensearchUrl!, { ...(config.opensearchPrefix ? { prefix: config.opensearchPrefix } : {}), ...config.timeouts });
    return Object.assign(backend, { reload: async () => {}, watch: () => () => {} });
  }
  return new EmbeddedBackend(config.indexDir, config.memoryBudget !== undefined ? { memoryBudget: config.memoryBudget } : {});
}

/**
 * What the prerender calls once every route is rendered, with the documents of ALL routes it
 * publishes (rendered and unchanged alike): writes the embedded index files, or rebuilds the
 * OpenSearch indexes and switches their aliases. `threads`: threads the embedded indexes are built
 * on (default one per core for a large build). Throws a SearchError (`build`).
 */
export async function publishSearchDocuments(docs: Iterable<SearchDocument>, config: SearchConfig, opts: { touched?: ReadonlySet<string>; threads?: number } = {}): Promise<{ indexes: number; documents: number }> {
  const list = [...docs];
  if (config.engine === 'opensearch') {
    const backend = new OpenSearchBackend(config.opensearchUrl!, { ...(config.opensearchPrefix ? { prefix: config.opensearchPrefix } : {}), ...config.timeouts });
    try {
      return await backend.indexDocuments(list, { removeStale: true });
    } finally {
      await backend.close();
    }
  }
  const manifest = await buildIndexDirectory(config.indexDir, list, opts);
  return { indexes: manifest.indexes.length, documents: list.length };
}
