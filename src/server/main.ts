import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAppHandler } from './http/app-server.ts';
import { boundGlobalFetch } from './http/bounded-fetch.ts';
import { distDirOf, EnvError, parseServerEnv, searchConfig as searchConfigOf, upstreamTimeouts, type ServerEnv } from './boot/env.ts';
import { createRevalidation } from './revalidate/revalidate.ts';
import { hasRevalidateSecret } from './revalidate/secret.ts';
import { sendErrorPage } from './http/error-page.ts';
import { cannotStartMessage, hasPublishedRelease, probeContentHub, retryWithBackoff, servingPreviousMessage } from './boot/startup.ts';
import { tidyStatic } from './release/release.ts';
import { reportLiveDamage } from './release/release-check.ts';
import { createSearchBackend, type ServerSearchBackend } from '../lib/search/index.ts';
import { getLogger } from '../lib/log/index.ts';
import { inRequestContext, REQUEST_ID_HEADER } from './http/request-id.ts';
import { FALLBACK_CSP, SECURITY_HEADERS } from './http/headers.ts';
import { MAX_HEADER_BYTES } from './http/request-target.ts';
import { closeProcessSharedState, processRedis } from './boot/shared-state.ts';
import type { RedisConnection } from '../lib/shared-state/redis.ts';
import { sharedRevalidation } from './cluster/revalidation.ts';
import { watchRelease, type ReleaseWatch } from './cluster/release-watch.ts';
import { RenderPool } from './render-pool/pool.ts';
import { parseTrustProxy, trustProxies } from './http/client-address.ts';
import { untilEdgeServes } from './edge/edge-release.ts';

const log = getLogger('server');
const revalidateLog = getLogger('revalidate');

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningServer {
  server: Server;
  url: string;
  /** Runs the revalidation in the background until it succeeds (5 s, doubling to 5 min): for a start while the content hub is down. */
  retryRevalidation(): void;
  close(): Promise<void>;
}

type AstroHandler = Parameters<typeof createAppHandler>[0]['astroHandler'];

/** Waits (at most 15 s) until the edge serves a published release; when it does not, the answer goes out anyway and the log says so. */
function edgeServes(file: string) {
  return async (releaseId: string) => {
    if (!(await untilEdgeServes(file, releaseId))) getLogger('revalidate').warn(`release ${releaseId} is live, but the edge did not report serving it within 15 s (${file})`);
  };
}

/**
 * The server's request handler over `dist/` (static files or the Astro handler, revalidation,
 * operator parameters for requests with the secret) and the revalidation it routes to. With
 * `redis` (several instances) webhooks go through the shared queue, and a release this instance
 * published is announced to the others (`watch`).
 */
export function createServerHandler(opts: { distDir: string; env: ServerEnv; astroHandler: AstroHandler; search: ServerSearchBackend; redis?: RedisConnection | null; watch?: ReleaseWatch | null; renderPool?: RenderPool }) {
  const { distDir, env, search, redis, watch } = opts;
  const revalidation = createRevalidation({
    distDir, env,
    onPublished: async () => {
      await search.reload();
      await watch?.announce();
    },
    ...(env.EDGE_SERVING_FILE ? { untilServed: edgeServes(env.EDGE_SERVING_FILE) } : {}),
    ...(redis ? { shared: (runHere: Parameters<typeof sharedRevalidation>[1]) => sharedRevalidation(redis, runHere) } : {}),
  });
  const handle = createAppHandler({
    distDir, astroHandler: opts.astroHandler, routes: revalidation.route, locals: { search },
    imageCacheMaxBytes: env.IMAGE_CACHE_MAX_BYTES,
    // A render (its source fetched from the asset store) is given up like any other upstream call.
    imageRenderLimits: { timeoutMs: env.UPSTREAM_TIMEOUT_MS, missesPerClient: { limit: env.IMAGE_RENDERS_PER_CLIENT_MINUTE, windowMs: 60_000 } },
    privileged: (req) => hasRevalidateSecret(req.headers, env.REVALIDATE_SECRET),
    ...(opts.renderPool ? { renderPool: opts.renderPool } : {}),
  });
  return { handle, revalidation };
}

/** What Node's HTTP parser refuses before any handler runs, per error code: status and message. */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: `Request header fields too large: the request line and headers may have at most ${MAX_HEADER_BYTES} bytes.` },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, message: 'Content too large: chunk extensions too long.' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'Request timeout.' },
};

/**
 * The raw answer to a request Node's parser refused (`clientError`: headers too large, a
 * malformed request line …): the status and a one-line message, with the security headers and
 * the fallback CSP like every other answer, and the connection closed. Never the parser's error text.
 */
export function clientErrorAnswer(code: string | undefined): string {
  const { status, message } = CLIENT_ERRORS[code ?? ''] ?? { status: 400, message: 'Bad request: the request could not be parsed.' };
  const headers = { ...SECURITY_HEADERS, 'Content-Security-Policy': FALLBACK_CSP, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': String(Buffer.byteLength(message)), Connection: 'close' };
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n${message}`;
}

function onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  // A connection the client reset, or one already answered: nothing to say.
  if (err.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorAnswer(err.code));
}

/**
 * The node:http server of the app: the request line and headers bounded by MAX_HEADER_BYTES
 * (431 past it), and what the parser refuses answered by {@link clientErrorAnswer}.
 */
export function createHttpServer(listener: (req: IncomingMessage, res: ServerResponse) => void): Server {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener);
  server.on('clientError', onClientError);
  return server;
}

/** Starts the production server over `dist/` (the built app and the prerendered trees). */
export async function startServer(opts: { distDir?: string; env?: Record<string, string | undefined> } = {}): Promise<RunningServer> {
  const env = parseServerEnv(opts.env ?? process.env);
  const distDir = opts.distDir ?? distDirOf(env, root);
  const entryFile = join(distDir, 'server/entry.mjs');
  if (!existsSync(entryFile)) throw new Error(`No built app at ${entryFile}: run "npm run build" first.`);
  process.env.NODE_ENV = 'production';
  // Calls without timeouts of their own (Astro's image endpoint fetching a remote image) get the upstream ones.
  boundGlobalFetch(upstreamTimeouts(env));
  // Behind a trusted proxy (TRUST_PROXY, the edge's nginx) the client is the address it forwards.
  trustProxies(parseTrustProxy(env.TRUST_PROXY));
  const entry = (await import(pathToFileURL(entryFile).href)) as { handler: AstroHandler };
  // The search index is loaded before the server listens; without one (first start, engine down)
  // the server still starts and search answers 503 until a prerender publishes an index.
  const searchConfig = searchConfigOf(env, distDir);
  // What a prerender killed midway left behind (never the live release, nothing while one runs);
  // a broken live pointer is repaired first, and damaged files of the live release are logged.
  await tidyStatic(join(distDir, 'static'), { searchDir: searchConfig.engine === 'embedded' ? searchConfig.indexDir : undefined });
  reportLiveDamage(join(distDir, 'static'));
  const search = createSearchBackend(searchConfig);
  try {
    await search.open();
  } catch (err) {
    getLogger('search').warn(`not ready: ${(err as Error).message}`);
  }
  // Several instances (REDIS_URL): the rate limits, idempotency keys and revalidation queue are
  // shared from here on, and this instance reloads its search when another publishes a release.
  const redis = processRedis(env);
  const watch = redis ? await watchRelease({
    staticRoot: join(distDir, 'static'),
    searchDir: searchConfig.engine === 'embedded' ? searchConfig.indexDir : undefined,
    reload: () => search.reload(),
    redis,
  }) : null;
  // Without Redis: an index build published by another instance on the same disk is served within
  // half a second (with Redis the release watch above does this and more).
  const unwatchSearch = redis ? null : search.watch(500, (err) => getLogger('search').warn(`reload failed, the indexes in use stay: ${err.message}`));
  // On-demand pages render on threads of their own (RENDER_THREADS; 0: on this one, as before).
  const renderPool = env.RENDER_THREADS > 0 ? new RenderPool({ distDir, threads: env.RENDER_THREADS }) : undefined;
  const { handle, revalidation } = createServerHandler({ distDir, env, astroHandler: entry.handler, search, redis, watch, ...(renderPool ? { renderPool } : {}) });
  // The request line and headers are bounded (431 past MAX_HEADER_BYTES); the request target is
  // checked against its own bounds in the handler (414: request-target.ts).
  const server = createHttpServer((req, res) => inRequestContext(req, res, (reqId) => {
    // The handler sends X-Request-Id itself (with a ready static response, in its one writeHead).
    handle(req, res, reqId).catch((err) => {
      log.error({ err }, 'request failed');
      if (!res.headersSent) res.setHeader(REQUEST_ID_HEADER, reqId);
      sendErrorPage(req, res, err);
    });
  }));
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(env.PORT, env.HOST, () => ok());
  });
  // Redis is asked once now, so an operator sees at start whether the shared state is there (the
  // server serves either way: editor requests answer 503 without it, the rest falls back to this
  // instance: docs/operations.md, "Several server instances").
  redis?.run('PING', (c) => c.ping()).then(
    () => log.info('shared state: Redis answers (REDIS_URL)'),
    (err: Error) => log.warn(`shared state: ${err.message}; editor requests answer 503, rate limits count per instance and webhooks run where they arrive until it answers (docs/operations.md, "Several server instances")`),
  );
  let retry: ReturnType<typeof retryWithBackoff> | null = null;
  return {
    server,
    url: `http://localhost:${env.PORT}`,
    retryRevalidation: () => {
      retry ??= retryWithBackoff(() => revalidation.run({}), {
        onFailure: (err, next) => revalidateLog.warn(`still failing, the previous release keeps serving; next try in ${Math.round(next / 1000)} s: ${err.message}`),
        onSuccess: () => revalidateLog.info('the content hub is back: the release is up to date'),
      });
    },
    close: async () => {
      await new Promise<void>((ok) => { retry?.stop(); revalidation.close(); server.closeAllConnections(); server.close(() => ok()); });
      await watch?.close();
      unwatchSearch?.();
      await renderPool?.close();
      await closeProcessSharedState();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    // With the content hub down the server still starts over a published release (and catches up
    // in the background); with nothing published there would be nothing to serve.
    const env = parseServerEnv(process.env);
    const distDir = distDirOf(env, root);
    const hubDown = await probeContentHub(env);
    if (hubDown && !hasPublishedRelease(distDir)) {
      console.error(cannotStartMessage(env, hubDown, distDir));
      process.exit(1);
    }
    const running = await startServer({ distDir });
    log.info(`Serving on ${running.url}`);
    if (!env.IDENTITY_INTROSPECTION_CLIENT_SECRET) {
      log.warn('IDENTITY_INTROSPECTION_CLIENT_SECRET is unset: access tokens cannot be checked with the identity provider, every customer-area API answers 503 (docs/operations.md, "Tokens")');
    }
    if (hubDown) {
      log.warn(servingPreviousMessage(env, hubDown));
      running.retryRevalidation();
    }
  } catch (err) {
    if (err instanceof EnvError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}
