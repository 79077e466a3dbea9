import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import sirv from 'sirv';
import { applySecurityHeaders, CACHE_HTML, CACHE_IMMUTABLE, ensureCspHeader, withHeaderOnlyDirectives } from './headers.ts';
import { StaticSite } from '../delivery/static-site.ts';
import { hostHeaderFor, httpsRedirectTarget, parseHost, resolveSiteHost, SiteHostsCache } from './host.ts';
import { checkRequestTarget } from './request-target.ts';
import { createImageCache, type ImageRenderLimits } from '../images/image-cache.ts';
import { imageRequest, isImageEndpoint } from '../images/image-params.ts';
import { sendErrorPage } from './error-page.ts';
import { standardStatusLine } from '../delivery/on-demand-status.ts';
import { compressOnTheFly, negotiateEncoding, varyOnEncoding } from '../delivery/encoding.ts';
import { livePointer, ReadyResponses, readyResponse, sendReady } from './ready-responses.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';
import { trailingSlashRedirect } from '../../site/redirects.ts';
import { currentRequestId, getLogger } from '../../lib/log/index.ts';
import { DELIVERY } from '../prerender/policies.ts';
import type { RenderPool } from '../render-pool/pool.ts';
import { threadable } from '../render-pool/route.ts';
import { wireRequestOf, writeWireResponse } from '../render-pool/wire.ts';
import { withClientAddress } from './client-address.ts';

const log = getLogger('server');

type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => Promise<void> | void;

export interface AppServerOptions {
  distDir: string;
  /** The Astro handler from the built entry (node adapter, middleware mode). */
  astroHandler: NodeHandler;
  /** What every on-demand render gets in `Astro.locals` besides the release id (e.g. the search backend). */
  locals?: Record<string, unknown>;
  /** Size bound of the image cache (IMAGE_CACHE_MAX_BYTES); 1 GiB when not given. */
  imageCacheMaxBytes?: number;
  /** Bounds of `/_image` renders (concurrency, per-client misses, timeout: UPSTREAM_TIMEOUT_MS); defaults in image-cache.ts. */
  imageRenderLimits?: Partial<ImageRenderLimits>;
  /** Extra routes our server owns (e.g. POST /api/revalidate); return true when handled. */
  routes?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;
  /** Whether a request may use the operator parameters (`?cache=`): it carries the revalidation secret. */
  privileged?: (req: IncomingMessage) => boolean;
  /** Render threads for on-demand pages (RENDER_THREADS); without, pages render on this thread. */
  renderPool?: Pick<RenderPool, 'render'>;
}

/** Every render thread busy and the queue full: the error page with 503 and Retry-After (an upstream-unavailable error). */
const RENDER_QUEUE_FULL = Object.assign(new Error('every render thread is busy and the render queue is full'), { unavailable: true });

/** Operator parameters: they bypass the static files only for a privileged request (anyone else's are ignored). */
const OPERATOR_PARAMS = ['cache'];
const HOST_FILES = /^\/(?:builds\/.+\.json|sitemap\.xml|robots\.txt|.+\/_payload\.json)$/;
const HOST_FILE_TYPES: Record<string, string> = { json: 'application/json', xml: 'application/xml', txt: 'text/plain; charset=utf-8' };
/** On-demand answers never compressed on the fly: image binaries and file downloads (their own types, lengths and ranges). */
const NO_FLY_COMPRESSION = /^\/(?:_image|file\/)/;
/** Paths only files answer: the build's assets and a host's release manifests. */
const FILE_ONLY = /^\/(?:_astro|builds)\//;
/** The methods some route answers; any other gets 405 before routing. */
const SERVED_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ALLOW = [...SERVED_METHODS].join(', ');
/** Distinct raw Host headers whose resolution is remembered (any client can send any value). */
const HOSTS_MEMO_MAX = 1024;

/** A one-line plain-text answer of the server itself (a refused request), never stored. */
function sendText(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(Buffer.byteLength(message)), 'Cache-Control': 'no-store' }).end(message);
}

/** The site host (and the Host header downstream sees) per raw Host header, remembered for the current site hosts. */
function siteHostResolver(siteHosts: SiteHostsCache) {
  let hostsMemo = new Map<string, { host: string; header: string } | null>();
  let hostsMemoOf: unknown = null;
  return (raw: string | undefined): { host: string; header: string } | null => {
    const sites = siteHosts.get();
    if (sites !== hostsMemoOf || hostsMemo.size >= HOSTS_MEMO_MAX) {
      hostsMemo = new Map();
      hostsMemoOf = sites;
    }
    if (raw === undefined) return null;
    let known = hostsMemo.get(raw);
    if (known === undefined) {
      const checked = parseHost(raw);
      if (checked.ok) {
        const host = resolveSiteHost(checked.host.hostname, sites);
        known = { host, header: hostHeaderFor(host, checked.host.port) };
      } else {
        known = null;
      }
      hostsMemo.set(raw, known);
    }
    return known;
  };
}

/** The build's client files (assets, favicon …) through sirv, in the coding negotiated here. */
function clientFiles(distDir: string) {
  // Build assets with the .br/.gz siblings the build wrote (integrations/compress-assets.ts).
  const client = sirv(join(distDir, 'client'), {
    dev: false,
    etag: true,
    brotli: true,
    gzip: true,
    setHeaders: (res, pathname) => {
      res.setHeader('Cache-Control', pathname.startsWith('/_astro/') ? CACHE_IMMUTABLE : 'public, max-age=3600');
    },
  });
  /**
   * sirv picks a sibling by a plain substring test of Accept-Encoding (it would send br to
   * "br;q=0"): it sees only the coding we negotiated, and the request gets its header back
   * before anything else handles it.
   */
  return (req: IncomingMessage, res: ServerResponse, next: () => void | Promise<void>) => {
    const accept = req.headers['accept-encoding'];
    const restore = () => {
      if (accept === undefined) delete req.headers['accept-encoding'];
      else req.headers['accept-encoding'] = accept;
    };
    const chosen = negotiateEncoding(accept);
    req.headers['accept-encoding'] = chosen === 'identity' ? '' : chosen;
    // On the 304 too (sirv adds it only to full answers).
    varyOnEncoding(res);
    try {
      return client(req, res, () => {
        restore();
        res.removeHeader('Vary');
        return next();
      });
    } finally {
      restore();
    }
  };
}

/**
 * The checks every request passes before routing (Host, the https redirect, the method, the
 * request target): the resolved site host and URL, or null when a refusal was sent. Rewrites
 * req.headers.host to the site host, so nothing below sees the raw header.
 */
function admit(req: IncomingMessage, res: ServerResponse, siteHosts: SiteHostsCache): { host: string; url: URL } | null {
  const checked = parseHost(req.headers.host);
  if (!checked.ok) {
    sendText(res, 400, checked.reason === 'missing' ? 'Missing Host header' : 'Invalid Host header');
    return null;
  }
  // Plain http through a TLS proxy (X-Forwarded-Proto: http): to the same host on https first.
  const secure = httpsRedirectTarget(req.headers['x-forwarded-proto'], checked.host.hostname, req.url ?? '');
  if (secure) {
    res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 301 : 308, { Location: secure, 'Cache-Control': 'no-store' }).end();
    return null;
  }
  // Methods no route takes (TRACE, CONNECT, WebDAV's …): the fetch Request the Astro handler
  // builds cannot even carry TRACE, CONNECT or TRACK (it threw: a 500).
  if (!SERVED_METHODS.has(req.method ?? '')) {
    sendText(res, 405, `Method not allowed: this server answers ${ALLOW}.`, { Allow: ALLOW });
    return null;
  }
  const target = checkRequestTarget(req.url);
  if (!target.ok) {
    sendText(res, target.status, target.message);
    return null;
  }
  // From here on only the resolved site host is seen, by us and by Astro (canonical links, caches).
  const host = resolveSiteHost(checked.host.hostname, siteHosts.get());
  req.headers.host = hostHeaderFor(host, checked.host.port);
  let url: URL;
  try {
    // Origin-form only, and never resolved against a base: "//_image" is a path here, not a host.
    if (!req.url?.startsWith('/')) throw new Error('not origin-form');
    url = new URL(`http://${req.headers.host}${req.url}`);
  } catch {
    res.writeHead(400).end('Bad request');
    return null;
  }
  return { host, url };
}

/** Astro's image endpoint sees only queries we checked (any method), and renders only the presets' sizes. */
function answerImage(req: IncomingMessage, res: ServerResponse, url: URL, images: ReturnType<typeof createImageCache>, onDemand: (req: IncomingMessage, res: ServerResponse) => unknown) {
  const image = imageRequest(url.searchParams);
  if (image.kind === 'refuse') {
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(image.message);
    return;
  }
  if (image.kind === 'redirect') {
    res.writeHead(301, { Location: image.location, 'Cache-Control': 'public, max-age=86400' }).end();
    return;
  }
  // One cache entry per image, however its query is ordered or encoded.
  return images.handle(req, res, image.path, onDemand);
}

/** An on-demand page rendered by a render thread: its answer as the App gave it, or the error page. */
async function renderOnThread(pool: Pick<RenderPool, 'render'>, req: IncomingMessage, res: ServerResponse, releaseId: string): Promise<void> {
  try {
    const answer = await pool.render(wireRequestOf(req, releaseId), currentRequestId());
    if (answer === 'busy') {
      log.warn(`render queue full: 503 for ${req.method} ${req.url}`);
      sendErrorPage(req, res, RENDER_QUEUE_FULL);
      return;
    }
    writeWireResponse(res, answer, req.method === 'HEAD');
  } catch (err) {
    log.error({ err }, 'on-demand render failed');
    sendErrorPage(req, res, err);
  }
}

/**
 * A host's own files (payloads, manifests, sitemap, robots) of the live release, in the coding the
 * client accepts best, from memory after the first read (see StaticSite.file); `next` when the
 * release has none.
 */
function hostFileSender(site: StaticSite, ready: ReadyResponses) {
  return async (req: IncomingMessage, res: ServerResponse, host: string, path: string, next: () => void | Promise<void>, cacheable: boolean): Promise<void> => {
    const build = site.load(host);
    const known = build ? ready.get(build.release, host, path) : undefined;
    if (known) return sendReady(req, res, known);
    const file = build ? await site.file(host, path) : null;
    if (!build || !file) {
      await next();
      return;
    }
    const answer = readyResponse(file, {
      etag: `"${file.tag}"`,
      contentType: HOST_FILE_TYPES[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
      headers: { 'Cache-Control': path.startsWith('/builds/') ? 'no-cache' : CACHE_HTML },
    });
    if (cacheable) ready.set(build.release, host, path, answer);
    sendReady(req, res, answer);
  };
}

/**
 * The live release (one readlink per request, so a swap is seen at once); the site hosts are read
 * again as soon as it changes.
 */
function releaseWatch(liveRelease: () => string | null, siteHosts: SiteHostsCache) {
  let seenRelease: string | null = null;
  return () => {
    const release = liveRelease();
    if (release !== seenRelease) {
      seenRelease = release;
      siteHosts.refresh();
    }
    return release;
  };
}

/**
 * The production request handler: Host → site tree → prerendered file when the route was
 * prerendered, otherwise Astro renders on demand. Security headers on every response; every
 * HTML response says how it was made (`X-Render`).
 */
export function createAppHandler(opts: AppServerOptions) {
  const site = new StaticSite(join(opts.distDir, 'static'));
  // The site hosts of the live release (its hosts.json, read through the pointer).
  const siteHosts = new SiteHostsCache(site.root);
  const images = createImageCache(opts.distDir, opts.imageCacheMaxBytes, opts.imageRenderLimits);
  // Whole responses of the live release's static files, ready to send (see ready-responses.ts).
  const ready = new ReadyResponses();
  const resolveHost = siteHostResolver(siteHosts);
  const currentRelease = releaseWatch(livePointer(site.staticRoot), siteHosts);
  const hostFile = hostFileSender(site, ready);
  const serveClient = clientFiles(opts.distDir);

  const onDemand = (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('X-Render', 'on-demand');
    // The reason phrase of the status (not Astro's `404 OK`), and a Cache-Control on a 404 (on-demand-status.ts).
    standardStatusLine(req, res);
    // HTML and API answers over 1 KB in br or gzip when the client accepts it.
    if (!NO_FLY_COMPRESSION.test(req.url ?? '')) compressOnTheFly(req, res);
    // The handler has rewritten req.headers.host to the resolved site host.
    const host = req.headers.host!;
    site.load(host);
    if (opts.renderPool && threadable(req)) return renderOnThread(opts.renderPool, req, res, site.latest(host)?.id ?? '');
    // Astro.clientAddress: the client a trusted proxy forwarded (client-address.ts), else the socket's.
    return withClientAddress(req, () => opts.astroHandler(req, res, (err?: unknown) => {
      if (err) {
        log.error({ err }, 'on-demand render failed');
        sendErrorPage(req, res, err);
      } else if (!res.headersSent) {
        res.statusCode = 404;
        res.end();
      }
    }, { ...opts.locals, releaseId: site.latest(host)?.id ?? '' }));
  };

  /**
   * A GET or HEAD of a static file whose ready response the live release has: sent at once, with
   * every header in one writeHead. The cache holds only paths the full route below served from a
   * file (a URL pathname, so a raw target equal to it parses to itself: no query, nothing to
   * normalise), for the site host it resolved, without a cookie a feature's policy makes dynamic (prerender/policies.ts); anything else
   * takes the full route.
   */
  const sendIfReady = (req: IncomingMessage, res: ServerResponse, requestId: string | undefined): boolean => {
    const method = req.method;
    if ((method !== 'GET' && method !== 'HEAD') || req.url === undefined) return false;
    // A request through a TLS proxy saying it came over http may need the https redirect.
    if (req.headers['x-forwarded-proto'] !== undefined) return false;
    if (DELIVERY.hasDynamicCookie(req.headers.cookie)) return false;
    const release = currentRelease();
    if (release === null) return false;
    const resolved = resolveHost(req.headers.host);
    if (!resolved) return false;
    const answer = ready.get(release, resolved.host, req.url);
    if (!answer) return false;
    req.headers.host = resolved.header;
    sendReady(req, res, answer, requestId);
    return true;
  };

  /** A prerendered page of the host's latest build, when the route has one: sent (and kept ready), true. */
  const sendPrerendered = async (req: IncomingMessage, res: ServerResponse, host: string, path: string): Promise<boolean> => {
    const build = site.load(host);
    const rule = build ? site.route(host, path) : null;
    if (!build || !rule) return false;
    const known = ready.get(build.release, host, path);
    if (known) {
      sendReady(req, res, known);
      return true;
    }
    const page = await site.file(host, `${path}/index.html`);
    if (!page) return false;
    const headers: Record<string, string> = { 'X-Render': 'prerendered', 'Cache-Control': CACHE_HTML };
    if (rule.csp) headers['Content-Security-Policy'] = withHeaderOnlyDirectives(rule.csp);
    const answer = readyResponse(page, { etag: `"${rule.fingerprint}"`, contentType: 'text/html; charset=utf-8', headers });
    ready.set(build.release, host, path, answer);
    sendReady(req, res, answer);
    return true;
  };

  /**
   * Handles a request. With `requestId` the handler sends the X-Request-Id header itself (a
   * ready response writes all its headers at once; anything else sets it first).
   */
  async function handle(req: IncomingMessage, res: ServerResponse, requestId?: string): Promise<void> {
    if (sendIfReady(req, res, requestId)) return;
    if (requestId !== undefined) res.setHeader(REQUEST_ID_HEADER, requestId);
    applySecurityHeaders(res);
    // Every answer below carries a CSP header: the page's own (with the header-only directives) or the fallback.
    ensureCspHeader(res);
    const admitted = admit(req, res, siteHosts);
    if (!admitted) return;
    const { host, url } = admitted;
    // A route reads the client address synchronously as it starts (nodeRoute): the forwarded one behind a trusted proxy.
    if (opts.routes && (await withClientAddress(req, () => opts.routes!(req, res, url)))) return;
    // Astro's image endpoint sees only queries we checked (any method), and renders only the presets' sizes.
    if (isImageEndpoint(url.pathname)) return answerImage(req, res, url, images, onDemand);
    // Build assets and release manifests are files only: a miss is a plain 404 (Astro has no route
    // there; its 404 page needs the middleware's context, which it does not give these paths).
    const fileOnly = FILE_ONLY.test(url.pathname);
    if (fileOnly && req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed: use GET or HEAD.', { Allow: 'GET, HEAD' });
    if (req.method !== 'GET' && req.method !== 'HEAD') return onDemand(req, res);

    const path = url.pathname;
    const notFound = () => sendText(res, 404, 'Not found');
    if (path.startsWith('/_astro/') || /^\/[^/]+\.(?:svg|ico|png|txt|webmanifest)$/.test(path)) {
      return serveClient(req, res, () => (HOST_FILES.test(path) ? hostFile(req, res, host, path, () => onDemand(req, res), false) : fileOnly ? notFound() : onDemand(req, res)));
    }
    if (path.startsWith('/builds/')) return HOST_FILES.test(path) ? hostFile(req, res, host, path, notFound, true) : notFound();
    const slash = trailingSlashRedirect(path, url.search);
    if (slash) {
      res.writeHead(slash.status, { Location: slash.location }).end();
      return;
    }
    if (HOST_FILES.test(path)) return hostFile(req, res, host, path, () => onDemand(req, res), true);

    // Parameters and cookies that change what a page renders (the features' policies: prerender/policies.ts) go to the Astro handler.
    const dynamic = DELIVERY.isDynamic(url.searchParams, req.headers.cookie)
      || (OPERATOR_PARAMS.some((p) => url.searchParams.has(p)) && !!opts.privileged?.(req));
    if (!dynamic && (await sendPrerendered(req, res, host, path))) return;
    return onDemand(req, res);
  }

  /** Sizes of the per-host caches, for tests: never more entries than site hosts. */
  const cacheSizes = () => ({ files: site.cachedFiles, builds: site.loadedHosts, ready: ready.size });
  return Object.assign(handle, { cacheSizes });
}

export { StaticSite };
