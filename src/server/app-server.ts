import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import sirv from 'sirv';
import { applySecurityHeaders, CACHE_HTML, CACHE_IMMUTABLE, withHeaderOnlyDirectives } from './headers.ts';
import { StaticSite } from './static-site.ts';
import { hostHeaderFor, parseHost, resolveSiteHost, SiteHostsCache } from './host.ts';
import { createImageCache } from './image-cache.ts';
import { isImageEndpoint, parseImageParams } from './image-params.ts';
import { sendErrorPage } from './error-page.ts';
import { compressOnTheFly, negotiateEncoding, sendEncoded, varyOnEncoding } from './encoding.ts';
import { trailingSlashRedirect } from '../site/redirects.ts';
import { getLogger } from '../lib/log/index.ts';

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
  /** Extra routes our server owns (e.g. POST /api/revalidate); return true when handled. */
  routes?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> | boolean;
  /** Whether a request may use the operator parameters (`?cache=`): it carries the revalidation secret. */
  privileged?: (req: IncomingMessage) => boolean;
}

/** Query parameters that change what a page renders: such requests go to the Astro handler. */
const DYNAMIC_PARAMS = ['direct', 'nextRelease', 'category', 'page', 'q'];
/** Operator parameters: they bypass the static files only for a privileged request (anyone else's are ignored). */
const OPERATOR_PARAMS = ['cache'];
const HOST_FILES = /^\/(?:builds\/.+\.json|sitemap\.xml|robots\.txt|.+\/_payload\.json)$/;
const HOST_FILE_TYPES: Record<string, string> = { json: 'application/json', xml: 'application/xml', txt: 'text/plain; charset=utf-8' };
/** On-demand answers never compressed on the fly: image binaries and file downloads (their own types, lengths and ranges). */
const NO_FLY_COMPRESSION = /^\/(?:_image|file\/)/;

/**
 * The production request handler: Host → site tree → prerendered file when the route was
 * prerendered, otherwise Astro renders on demand. Security headers on every response; every
 * HTML response says how it was made (`X-Render`).
 */
export function createAppHandler(opts: AppServerOptions) {
  const site = new StaticSite(join(opts.distDir, 'static'));
  // The site hosts of the live release (its hosts.json, read through the pointer).
  const siteHosts = new SiteHostsCache(site.root);
  const images = createImageCache(opts.distDir, opts.imageCacheMaxBytes);
  // Build assets with the .br/.gz siblings the build wrote (integrations/compress-assets.ts).
  const client = sirv(join(opts.distDir, 'client'), {
    dev: false,
    etag: true,
    brotli: true,
    gzip: true,
    setHeaders: (res, pathname) => {
      res.setHeader('Cache-Control', pathname.startsWith('/_astro/') ? CACHE_IMMUTABLE : 'public, max-age=3600');
    },
  });
  // A host's own files (payloads, manifests, sitemap, robots) of the live release, in the coding
  // the client accepts best, from memory after the first read (see StaticSite.file).
  const hostFile = async (req: IncomingMessage, res: ServerResponse, host: string, path: string, next: () => void | Promise<void>): Promise<void> => {
    const file = site.load(host) ? await site.file(host, path) : null;
    if (!file) {
      await next();
      return;
    }
    res.setHeader('Cache-Control', path.startsWith('/builds/') ? 'no-cache' : CACHE_HTML);
    sendEncoded(req, res, file, { etag: `"${file.tag}"`, contentType: HOST_FILE_TYPES[path.slice(path.lastIndexOf('.') + 1)] ?? 'application/octet-stream' });
  };

  /**
   * sirv picks a sibling by a plain substring test of Accept-Encoding (it would send br to
   * "br;q=0"): it sees only the coding we negotiated, and the request gets its header back
   * before anything else handles it.
   */
  const serveClient = (req: IncomingMessage, res: ServerResponse, next: () => void | Promise<void>) => {
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

  const onDemand = (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('X-Render', 'on-demand');
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    // Astro sends its CSP as a header on on-demand pages; add what only a header can carry.
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      const csp = res.getHeader('content-security-policy');
      if (typeof csp === 'string') res.setHeader('Content-Security-Policy', withHeaderOnlyDirectives(csp));
      const headers = rest.find((r) => r && typeof r === 'object' && !Array.isArray(r)) as Record<string, unknown> | undefined;
      if (headers) {
        for (const k of Object.keys(headers)) {
          if (k.toLowerCase() === 'content-security-policy' && typeof headers[k] === 'string') headers[k] = withHeaderOnlyDirectives(headers[k] as string);
        }
      }
      return writeHead(status, ...rest);
    }) as typeof res.writeHead;
    // HTML and API answers over 1 KB in br or gzip when the client accepts it.
    if (!NO_FLY_COMPRESSION.test(req.url ?? '')) compressOnTheFly(req, res);
    // The handler has rewritten req.headers.host to the resolved site host.
    const host = req.headers.host!;
    site.load(host);
    return opts.astroHandler(req, res, (err?: unknown) => {
      if (err) {
        log.error({ err }, 'on-demand render failed');
        sendErrorPage(req, res, err);
      } else if (!res.headersSent) {
        res.statusCode = 404;
        res.end();
      }
    }, { ...opts.locals, releaseId: site.latest(host)?.id ?? '' });
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    applySecurityHeaders(res);
    const checked = parseHost(req.headers.host);
    if (!checked.ok) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end(checked.reason === 'missing' ? 'Missing Host header' : 'Invalid Host header');
      return;
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
      return;
    }
    if (opts.routes && (await opts.routes(req, res, url))) return;
    // Astro's image endpoint sees only queries we checked (any method).
    if (isImageEndpoint(url.pathname)) {
      const checked = parseImageParams(url.searchParams);
      if (!checked.ok) {
        res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end(checked.message);
        return;
      }
      return images.handle(req, res, `/_image${url.search}`, onDemand);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return onDemand(req, res);

    const path = url.pathname;
    if (path.startsWith('/_astro/') || /^\/[^/]+\.(?:svg|ico|png|txt|webmanifest)$/.test(path)) {
      return serveClient(req, res, () => (HOST_FILES.test(path) ? hostFile(req, res, host, path, () => onDemand(req, res)) : onDemand(req, res)));
    }
    const slash = trailingSlashRedirect(path, url.search);
    if (slash) {
      res.writeHead(slash.status, { Location: slash.location }).end();
      return;
    }
    if (HOST_FILES.test(path)) return hostFile(req, res, host, path, () => onDemand(req, res));

    const dynamic = DYNAMIC_PARAMS.some((p) => url.searchParams.has(p)) || /(?:^|;\s*)nextRelease=/.test(req.headers.cookie ?? '')
      || (OPERATOR_PARAMS.some((p) => url.searchParams.has(p)) && !!opts.privileged?.(req));
    const build = dynamic ? null : site.load(host);
    const rule = build ? site.route(host, path) : null;
    if (rule) {
      const page = await site.file(host, `${path}/index.html`);
      if (page) {
        res.setHeader('X-Render', 'prerendered');
        res.setHeader('Cache-Control', CACHE_HTML);
        if (rule.csp) res.setHeader('Content-Security-Policy', withHeaderOnlyDirectives(rule.csp));
        sendEncoded(req, res, page, { etag: `"${rule.fingerprint}"`, contentType: 'text/html; charset=utf-8' });
        return;
      }
    }
    return onDemand(req, res);
  }

  /** Sizes of the per-host caches, for tests: never more entries than site hosts. */
  const cacheSizes = () => ({ files: site.cachedFiles, builds: site.loadedHosts });
  return Object.assign(handle, { cacheSizes });
}

export { StaticSite };
