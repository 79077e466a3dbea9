import { resolve } from 'node:path';
import { createSearchBackend, searchConfigFromEnv, SearchError, type ServerSearchBackend } from '../../lib/search/index.ts';
import { getLogger } from '../../lib/log/index.ts';
import { serverEnv, upstreamTimeouts } from '../../server/env.ts';

let own: Promise<ServerSearchBackend> | null = null;

/**
 * The search backend of a request. The server (`src/server/`) gives every on-demand render its
 * backend in `locals.search` (opened before it listens, reloaded after each revalidation). Under
 * `astro dev` (`npm run dev`) nothing does: then this process opens one of its own on first use,
 * configured from the environment as the server's is (`SEARCH_ENGINE`, `SEARCH_INDEX_DIR`,
 * `OPENSEARCH_*`; embedded indexes in `<DIST_DIR>/search`, written by `npm start` or
 * `npm run prerender`). When opening fails (no index yet) the reason is logged, the caller gets
 * a `not-ready` SearchError (503) that names no path, and the next request tries again.
 */
export function searchBackend(locals: App.Locals): Promise<ServerSearchBackend> {
  if (locals.search) return Promise.resolve(locals.search);
  own ??= openFromEnv().catch((err: unknown) => {
    own = null;
    getLogger('search').warn(`not ready: ${(err as Error).message}`);
    throw new SearchError('not-ready', 'Search is not available right now', { cause: err });
  });
  return own;
}

async function openFromEnv(): Promise<ServerSearchBackend> {
  const distDir = resolve(process.env.DIST_DIR ?? 'dist');
  const backend = createSearchBackend({ ...searchConfigFromEnv(process.env, distDir), timeouts: upstreamTimeouts(serverEnv()) });
  await backend.open();
  return backend;
}
