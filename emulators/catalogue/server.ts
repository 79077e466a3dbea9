import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSchema, createYoga } from 'graphql-yoga';
import { svgImage, tinyPdf } from '../shared/assets.ts';
import { createResolvers } from './resolvers.ts';
import { CatalogueStore } from './store.ts';
import { documentThumbnail } from './thumbnail.ts';

const here = dirname(fileURLToPath(import.meta.url));
/** The catalogue's SDL (what the emulator serves). */
export const CATALOGUE_TYPE_DEFS: string = readFileSync(join(here, 'schema.graphql'), 'utf8');

/** File names the asset routes answer for; anything else is a 404. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

/** Asset routes: path prefix, file extension, content type and the maker of the body. */
const ASSET_ROUTES: { prefix: string; ext: string; type: string; make: (name: string) => string | Buffer }[] = [
  { prefix: '/assets/img/', ext: '.svg', type: 'image/svg+xml', make: (name) => svgImage(name) },
  { prefix: '/assets/thumbs/', ext: '.svg', type: 'image/svg+xml', make: documentThumbnail },
  { prefix: '/assets/files/', ext: '.pdf', type: 'application/pdf', make: tinyPdf },
];

function sendAsset(pathname: string, res: ServerResponse): boolean {
  for (const route of ASSET_ROUTES) {
    if (!pathname.startsWith(route.prefix) || !pathname.endsWith(route.ext)) continue;
    const name = pathname.slice(route.prefix.length, -route.ext.length);
    if (!ASSET_NAME.test(name)) break;
    res.writeHead(200, { 'content-type': route.type, 'cache-control': 'public, max-age=86400' });
    res.end(route.make(name));
    return true;
  }
  return false;
}

/**
 * Starts the catalogue (PIM) emulator on 127.0.0.1: GraphQL at /graphql, generated images at
 * /assets/img/<name>.svg, document PDFs at /assets/files/<name>.pdf, document thumbnails at
 * /assets/thumbs/<name>.svg and /health. Port 0 picks a free port; `url` is the GraphQL endpoint.
 */
export async function startCatalogue(opts: { port: number; dataDir: string; watch?: boolean; quiet?: boolean }): Promise<{ server: Server; store: CatalogueStore; url: string }> {
  const store = new CatalogueStore(opts.dataDir, { watch: opts.watch });
  // Known once the server listens (the port may be chosen by the system).
  let origin = '';
  const abs = (path: string) => (path.startsWith('/') ? `${origin}${path}` : path);

  const yoga = createYoga({
    schema: createSchema({ typeDefs: CATALOGUE_TYPE_DEFS, resolvers: createResolvers(store, abs) }),
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: opts.quiet ? false : 'warn',
  });

  const server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (pathname === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    if (pathname.startsWith('/assets/')) {
      if (!sendAsset(pathname, res)) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end(`No asset at ${pathname}`);
      }
      return;
    }
    void yoga(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('close', () => store.close());
  return { server, store, url: `${origin}/graphql` };
}
