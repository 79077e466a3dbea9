import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAppHandler } from './app-server.ts';
import { EnvError, parseServerEnv } from './env.ts';
import { createRevalidation } from './revalidate.ts';
import { tidyStatic } from './release.ts';
import { createSearchBackend, searchConfigFromEnv } from '../lib/search/index.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Starts the production server over `dist/` (the built app and the prerendered trees). */
export async function startServer(opts: { distDir?: string; env?: Record<string, string | undefined> } = {}): Promise<RunningServer> {
  const env = parseServerEnv(opts.env ?? process.env);
  const distDir = opts.distDir ?? resolve(root, process.env.DIST_DIR ?? 'dist');
  const entryFile = join(distDir, 'server/entry.mjs');
  if (!existsSync(entryFile)) throw new Error(`No built app at ${entryFile}: run "npm run build" first.`);
  process.env.NODE_ENV = 'production';
  const entry = (await import(pathToFileURL(entryFile).href)) as { handler: Parameters<typeof createAppHandler>[0]['astroHandler'] };
  // The search index is loaded before the server listens; without one (first start, engine down)
  // the server still starts and search answers 503 until a prerender publishes an index.
  const searchConfig = searchConfigFromEnv(opts.env ?? process.env, distDir);
  // What a prerender killed midway left behind (never the live release, nothing while one runs).
  await tidyStatic(join(distDir, 'static'), { searchDir: searchConfig.engine === 'embedded' ? searchConfig.indexDir : undefined });
  const search = createSearchBackend(searchConfig);
  try {
    await search.open();
  } catch (err) {
    console.warn(`[search] not ready: ${(err as Error).message}`);
  }
  const revalidation = createRevalidation({ distDir, env, onPublished: () => search.reload() });
  const handle = createAppHandler({ distDir, astroHandler: entry.handler, routes: revalidation.route, locals: { search } });
  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      console.error('[server]', err);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(env.PORT, env.HOST, () => ok());
  });
  return {
    server,
    url: `http://localhost:${env.PORT}`,
    close: () => new Promise((ok) => { revalidation.close(); server.closeAllConnections(); server.close(() => ok()); }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const running = await startServer();
    console.log(`Serving on ${running.url}`);
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}
