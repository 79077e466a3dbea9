import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import sirv from 'sirv';
import { applySecurityHeaders, CACHE_HTML, CACHE_IMMUTABLE, withHeaderOnlyDirectives } from './headers.ts';
import { StaticSite } from './static-site.ts';
import { hostHeaderFor, parseHost, resolveSiteHost, SiteHostsCache } from './host.ts';
import { createImageCache } from './image-cache.ts';
import { isImageEndpoint, parseImageParams } from './image-params.ts';
import { sendErrorPage } from './error-page.ts';
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
  const client = sirv(join(opts.distDir, 'client'), {
    dev: false,
    etag: true,
    setHeaders: (res, pathname) => {
      res.setHeader('Cache-Control', pathname.startsWith('/_astro/') ? CACHE_IMMUTABLE : 'public, max-age=3600');
    },
  });
  /** Keyed by a resolved site host only (one entry per site at most). */
  const hostFiles = new Map<string, { dir: string; serve: ReturnType<typeof sirv> }>();
  const noFiles: ReturnType<typeof sirv> = (_req, _res, next) => next?.();
  const hostFilesFor = (host: string) => {
    // The host's tree in the live release: a new release gets a new handler, and a request being
    // served keeps reading the release it started in (stat and read hit the same files).
    const dir = site.load(host)?.dir;
    if (!dir) return noFiles;
    let h = hostFiles.get(host);
    if (h?.dir !== dir) {
      // dev: true makes sirv look at the disk per request instead of listing the whole tree up front.
      h = {
        dir,
        serve: sirv(dir, {
          dev: true,
          etag: true,
          setHeaders: (res, pathname) => res.setHeader('Cache-Control', pathname.startsWith('/builds/') ? 'no-cache' : CACHE_HTML),
        }),
      };
      hostFiles.set(host, h);
    }
    return h.serve;
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
      return client(req, res, () => (HOST_FILES.test(path) ? hostFilesFor(host)(req, res, () => onDemand(req, res)) : onDemand(req, res)));
    }
    const slash = trailingSlashRedirect(path, url.search);
    if (slash) {
      res.writeHead(slash.status, { Location: slash.location }).end();
      return;
    }
    if (HOST_FILES.test(path)) return hostFilesFor(host)(req, res, () => onDemand(req, res));

    const dynamic = DYNAMIC_PARAMS.some((p) => url.searchParams.has(p)) || /(?:^|;\s*)nextRelease=/.test(req.headers.cookie ?? '')
      || (OPERATOR_PARAMS.some((p) => url.searchParams.has(p)) && !!opts.privileged?.(req));
    const build = dynamic ? null : site.load(host);
    const rule = build ? site.route(host, path) : null;
    if (rule) {
      const etag = `"${rule.fingerprint}"`;
      const html = await site.html(host, path);
      if (html !== null) {
        res.setHeader('X-Render', 'prerendered');
        res.setHeader('Cache-Control', CACHE_HTML);
        res.setHeader('ETag', etag);
        if (rule.csp) res.setHeader('Content-Security-Policy', withHeaderOnlyDirectives(rule.csp));
        if (req.headers['if-none-match'] === etag) {
          res.writeHead(304).end();
          return;
        }
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html) });
        res.end(req.method === 'HEAD' ? undefined : html);
        return;
      }
    }
    return onDemand(req, res);
  }

  /** Sizes of the per-host caches, for tests: never more entries than site hosts. */
  const cacheSizes = () => ({ hostFiles: hostFiles.size, builds: site.loadedHosts });
  return Object.assign(handle, { cacheSizes });
}

export { StaticSite };
