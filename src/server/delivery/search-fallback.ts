import { createSearchBackend, SearchError, type ServerSearchBackend } from '../../lib/search/index.ts';
import { getLogger } from '../../lib/log/index.ts';
import { searchConfig, type ServerEnv } from '../boot/env.ts';

let own: Promise<ServerSearchBackend> | null = null;

/**
 * The search backend when the server gave none. The Node server (`main.ts`) opens one before it
 * listens and hands it to every render in `locals.search`; under `astro dev` (`npm run dev`)
 * nothing does, so the middleware opens one per process on first use, configured like the
 * server's (embedded indexes in `<DIST_DIR>/search`, written by `npm start` or
 * `npm run prerender`). When opening fails (no index yet) the reason is logged, the caller gets a
 * `not-ready` SearchError (503) that names no path, and the next request tries again.
 */
export function fallbackSearch(env: ServerEnv, distDir: string): Promise<ServerSearchBackend> {
  own ??= (async () => {
    const backend = createSearchBackend(searchConfig(env, distDir));
    await backend.open();
    return backend;
  })().catch((err: unknown) => {
    own = null;
    getLogger('search').warn(`not ready: ${(err as Error).message}`);
    throw new SearchError('not-ready', 'Search is not available right now', { cause: err });
  });
  return own;
}
