import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseServerEnv } from './boot/env.ts';
import { CACHE_HTML, FALLBACK_CSP, withHeaderOnlyDirectives } from './http/headers.ts';
import { createHttpServer, createServerHandler } from './main.ts';
import { observatoryGrade } from '../../tests/support/observatory.ts';
import { publishRelease, releaseDir } from './release/release.ts';
import { inject, type Injected, type InjectRequest } from '../../tests/support/node-http.ts';
import { writeCompressedSiblings } from '../lib/fs/compress.ts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { ServerSearchBackend } from '../lib/search/index.ts';

// The server's choice between a prerendered file and an on-demand render (docs/architecture.md,
// "Request flow"), through the real request handler of main.ts over a temp release and a
// stand-in for Astro's handler; no port, no emulators.

const SECRET = 'the-revalidation-secret';
const HOST = 'localhost:4321';
const PAGE_CSP = "default-src 'self'; script-src 'self' 'sha256-abc'";
const ON_DEMAND_CSP = "default-src 'self'";
const BIG_HTML = `<main>${'<p>Komax wire processing</p>'.repeat(200)}</main>`;
const BIG_JSON = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, title: 'Crimp to crimp' })) });
const BIG_JS = `export const text = ${JSON.stringify('wire '.repeat(1000))};`;

/** What the stand-in for Astro's handler was asked to render. */
let astroSaw: { method: string; url: string; host: string; locals: Record<string, unknown> }[] = [];
const search = { reload: async () => {}, watch: () => () => {} } as unknown as ServerSearchBackend;

const astroHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => {
  astroSaw.push({ method: req.method!, url: req.url!, host: req.headers.host!, locals: locals as Record<string, unknown> });
  if (req.url === '/en/not-a-page') return next?.();
  if (req.url === '/en/broken') return next?.(new Error('render failed'));
  if (req.url === '/api/big') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(BIG_JSON);
  if (req.url === '/en/big-on-demand') return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': ON_DEMAND_CSP }).end(BIG_HTML);
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': ON_DEMAND_CSP }).end(`on demand ${req.url}`);
};

let dist: string;
let handle: ReturnType<typeof createServerHandler>['handle'];

async function publish(staticRoot: string, release: string) {
  const dir = join(releaseDir(staticRoot, release), 'localhost');
  const meta = {
    id: 'b1', timestamp: 't', appBuildId: 'app', redirects: [],
    routes: {
      '/en': { fingerprint: 'fp-en', csp: null },
      '/en/about-us': { fingerprint: 'fp-about', csp: PAGE_CSP },
      '/en/listed-without-file': { fingerprint: 'fp-gone', csp: null },
      '/en/big': { fingerprint: 'fp-big', csp: PAGE_CSP },
    },
  };
  const files: Record<string, string> = {
    'builds/meta/b1.json': JSON.stringify(meta),
    'builds/latest.json': JSON.stringify({ id: 'b1', timestamp: 't' }),
    'en/index.html': '<p>static home</p>',
    'en/about-us/index.html': '<p>static about</p>',
    'en/about-us/_payload.json': '{"model":"about"}',
    'en/not-prerendered/index.html': '<p>stray file</p>',
    'sitemap.xml': '<urlset>static</urlset>',
    'robots.txt': 'User-agent: *',
    'en/big/index.html': BIG_HTML,
    'en/big/_payload.json': BIG_JSON,
  };
  for (const [path, body] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), body);
    await writeCompressedSiblings(join(dir, path), body);
  }
  await publishRelease(staticRoot, release);
}

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'server-flow-'));
  await mkdir(join(dist, 'client/_astro'), { recursive: true });
  await writeFile(join(dist, 'client/_astro/app.js'), BIG_JS);
  await writeCompressedSiblings(join(dist, 'client/_astro/app.js'), BIG_JS, { brotliQuality: 11 });
  await publish(join(dist, 'static'), 'release0001');
  handle = createServerHandler({ distDir: dist, env: parseServerEnv({ REVALIDATE_SECRET: SECRET }), astroHandler, search }).handle;
});

afterAll(async () => {
  await rm(dist, { recursive: true, force: true });
});

beforeEach(() => {
  astroSaw = [];
});

const send = (url: string, more: Omit<InjectRequest, 'url'> = {}) => inject(handle, { ...more, url, headers: { host: HOST, ...more.headers } });

/** Asserts the static file was served and Astro was not asked. */
async function expectStatic(url: string, more: Omit<InjectRequest, 'url'> = {}, body = '<p>static home</p>') {
  const res = await send(url, more);
  expect([res.status, res.headers['x-render'], res.body]).toEqual([200, 'prerendered', body]);
  expect(astroSaw).toEqual([]);
  return res;
}

/** Asserts Astro rendered the request. */
async function expectOnDemand(url: string, more: Omit<InjectRequest, 'url'> = {}) {
  const res = await send(url, more);
  expect([res.status, res.headers['x-render'], res.body]).toEqual([200, 'on-demand', `on demand ${url}`]);
  expect(astroSaw.map((s) => s.url)).toEqual([url]);
  return res;
}

describe('server: prerendered routes', () => {
  it('serves a route of the live release from its file, with its ETag, cache rule and CSP header', async () => {
    const res = await expectStatic('/en/about-us', {}, '<p>static about</p>');
    expect(res.headers.etag).toBe('"fp-about"');
    expect(res.headers['cache-control']).toBe(CACHE_HTML);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(withHeaderOnlyDirectives(PAGE_CSP));
    // Security headers on every response.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers 304 to a matching If-None-Match and sends no body to HEAD', async () => {
    const notModified = await send('/en', { headers: { 'if-none-match': '"fp-en"' } });
    expect([notModified.status, notModified.body]).toEqual([304, '']);
    const head = await send('/en', { method: 'HEAD' });
    expect([head.status, head.headers['x-render'], head.body]).toEqual([200, 'prerendered', '']);
    expect(astroSaw).toEqual([]);
  });

  it('ignores query parameters that do not change the page', async () => {
    await expectStatic('/en?utm_source=newsletter&_release=abc');
  });

  it('ignores anyone\'s ?cache= without the revalidation secret (or with a wrong one)', async () => {
    await expectStatic('/en?cache=false');
    await expectStatic('/en?cache=clear', { headers: { 'x-revalidate-secret': `${SECRET}-wrong` } });
    await expectStatic('/en?cache=false', { headers: { authorization: 'Bearer nope' } });
  });

  it('serves the host files of the live release (sitemap, robots, build manifests, payloads) without Astro', async () => {
    const sitemap = await send('/sitemap.xml');
    expect([sitemap.status, sitemap.body]).toEqual([200, '<urlset>static</urlset>']);
    expect((await send('/robots.txt')).body).toBe('User-agent: *');
    const latest = await send('/builds/latest.json');
    expect([latest.status, latest.headers['cache-control'], JSON.parse(latest.body)]).toEqual([200, 'no-cache', { id: 'b1', timestamp: 't' }]);
    expect((await send('/en/about-us/_payload.json')).body).toBe('{"model":"about"}');
    expect(astroSaw).toEqual([]);
  });
});

describe('server: compression', () => {
  const BR = { 'accept-encoding': 'gzip, deflate, br, zstd' };

  it('sends a prerendered page from its .br sibling, with the coding\'s ETag, Vary and every header it had', async () => {
    const res = await send('/en/big', { headers: BR });
    expect([res.status, res.headers['x-render'], res.headers['content-encoding'], res.headers.etag, res.headers.vary]).toEqual([200, 'prerendered', 'br', '"fp-big-br"', 'Accept-Encoding']);
    expect(res.headers['content-length']).toBe(String(res.bytes.byteLength));
    expect(res.headers['content-security-policy']).toBe(withHeaderOnlyDirectives(PAGE_CSP));
    expect([res.headers['cache-control'], res.headers['content-type']]).toEqual([CACHE_HTML, 'text/html; charset=utf-8']);
    expect(brotliDecompressSync(res.bytes).toString()).toBe(BIG_HTML);
    expect(astroSaw).toEqual([]);
  });

  it('falls back to gzip when br is refused with q=0, and to the file when nothing is accepted', async () => {
    const gz = await send('/en/big', { headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect([gz.headers['content-encoding'], gz.headers.etag]).toEqual(['gzip', '"fp-big-gzip"']);
    expect(gunzipSync(gz.bytes).toString()).toBe(BIG_HTML);
    const plain = await send('/en/big');
    expect([plain.headers['content-encoding'], plain.headers.etag, plain.headers.vary, plain.body]).toEqual([undefined, '"fp-big"', 'Accept-Encoding', BIG_HTML]);
  });

  it('answers 304 per coding, and HEAD with the encoded length', async () => {
    const hit = await send('/en/big', { headers: { ...BR, 'if-none-match': '"fp-big-br"' } });
    expect([hit.status, hit.body]).toEqual([304, '']);
    const otherCoding = await send('/en/big', { headers: { 'accept-encoding': 'gzip', 'if-none-match': '"fp-big-br"' } });
    expect(otherCoding.status).toBe(200);
    const full = await send('/en/big', { headers: BR });
    const head = await send('/en/big', { method: 'HEAD', headers: BR });
    expect([head.status, head.headers['content-encoding'], head.headers['content-length'], head.body]).toEqual([200, 'br', full.headers['content-length'], '']);
  });

  it('sends payloads and manifests of the release compressed, small files as they are', async () => {
    const payload = await send('/en/big/_payload.json', { headers: BR });
    expect([payload.headers['content-encoding'], payload.headers['content-type'], payload.headers.vary]).toEqual(['br', 'application/json', 'Accept-Encoding']);
    expect(brotliDecompressSync(payload.bytes).toString()).toBe(BIG_JSON);
    const etag = payload.headers.etag!;
    expect(etag).toMatch(/-br"$/);
    expect((await send('/en/big/_payload.json', { headers: { ...BR, 'if-none-match': etag } })).status).toBe(304);
    const small = await send('/robots.txt', { headers: BR });
    expect([small.headers['content-encoding'], small.body]).toEqual([undefined, 'User-agent: *']);
  });

  it('sends build assets from their .br siblings, honouring q=0', async () => {
    const br = await send('/_astro/app.js', { headers: BR });
    expect([br.status, br.headers['content-encoding'], br.headers.vary, br.headers['cache-control']]).toEqual([200, 'br', 'Accept-Encoding', 'public, max-age=31536000, immutable']);
    expect(brotliDecompressSync(br.bytes).toString()).toBe(BIG_JS);
    const gz = await send('/_astro/app.js', { headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.etag).not.toBe(br.headers.etag);
    expect((await send('/_astro/app.js', { headers: { ...BR, 'if-none-match': br.headers.etag! } })).status).toBe(304);
    const plain = await send('/_astro/app.js', { headers: { 'accept-encoding': 'identity' } });
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, BIG_JS]);
  });

  it('compresses on-demand pages and API answers over 1 KB on the fly, keeping their CSP', async () => {
    const page = await send('/en/big-on-demand', { headers: BR });
    expect([page.headers['x-render'], page.headers['content-encoding'], page.headers.vary]).toEqual(['on-demand', 'br', 'Accept-Encoding']);
    expect(page.headers['content-security-policy']).toBe(withHeaderOnlyDirectives(ON_DEMAND_CSP));
    expect(brotliDecompressSync(page.bytes).toString()).toBe(BIG_HTML);
    const api = await send('/api/big', { headers: { 'accept-encoding': 'gzip' } });
    expect(api.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(api.bytes).toString()).toBe(BIG_JSON);
    // A small answer stays as it is.
    const small = await send('/en/unknown-page', { headers: BR });
    expect([small.headers['content-encoding'], small.body]).toEqual([undefined, 'on demand /en/unknown-page']);
  });
});

describe('server: on-demand renders', () => {
  it('renders a route that is not in the live meta, even when a file happens to exist for it', async () => {
    await expectOnDemand('/en/unknown-page');
    astroSaw = [];
    await expectOnDemand('/en/not-prerendered');
  });

  it('renders a route the meta lists but whose file is missing', async () => {
    await expectOnDemand('/en/listed-without-file');
  });

  it.each(['direct', 'nextRelease', 'category', 'page'])('renders a prerendered route when ?%s= changes what it shows', async (param) => {
    await expectOnDemand(`/en/about-us?${param}=1`);
  });

  it('renders a prerendered route for a visitor with the next-release cookie, not for other cookies', async () => {
    await expectOnDemand('/en', { headers: { cookie: 'nextRelease=true' } });
    astroSaw = [];
    await expectOnDemand('/en', { headers: { cookie: 'locale=en; nextRelease=1' } });
    astroSaw = [];
    await expectStatic('/en', { headers: { cookie: 'locale=en; notnextRelease=1' } });
  });

  it('renders on demand for the draft preview: its parameter, or its cookie (the middleware checks the editor)', async () => {
    await expectOnDemand('/en/about-us?preview=DRAFT');
    astroSaw = [];
    await expectOnDemand('/en', { headers: { cookie: 'locale=en; kmx_preview=DRAFT' } });
    astroSaw = [];
    await expectStatic('/en', { headers: { cookie: 'locale=en; xkmx_preview=DRAFT' } });
  });

  it('renders ?cache= on demand for a request carrying the revalidation secret (either header)', async () => {
    await expectOnDemand('/en?cache=false', { headers: { 'x-revalidate-secret': SECRET } });
    astroSaw = [];
    await expectOnDemand('/en?cache=clear', { headers: { authorization: `Bearer ${SECRET}` } });
  });

  it('renders the API routes on demand, for any method', async () => {
    await expectOnDemand('/api/site-navigation?site=main');
    astroSaw = [];
    const res = await send('/api/search-proxy/search', { method: 'POST', body: '{}' });
    expect(res.headers['x-render']).toBe('on-demand');
    expect(astroSaw.map((s) => [s.method, s.url])).toEqual([['POST', '/api/search-proxy/search']]);
  });

  it('passes any method but GET and HEAD on a prerendered route to Astro', async () => {
    const res = await send('/en', { method: 'POST' });
    expect(res.headers['x-render']).toBe('on-demand');
    expect(astroSaw.map((s) => s.method)).toEqual(['POST']);
  });

  it('gives Astro the resolved host, the search backend and the live release id, and adds the header-only CSP directives', async () => {
    const res = await expectOnDemand('/en/unknown-page');
    expect(astroSaw[0]!.host).toBe(HOST);
    expect(astroSaw[0]!.locals).toEqual({ search, releaseId: 'b1' });
    expect(res.headers['content-security-policy']).toBe(withHeaderOnlyDirectives(ON_DEMAND_CSP));
  });

  it('answers 404 when Astro has no such page, and the error page when its render fails', async () => {
    expect((await send('/en/not-a-page')).status).toBe(404);
    const broken = await send('/en/broken');
    expect(broken.status).toBe(500);
    expect(broken.headers['content-type']).toMatch(/^text\/html/);
  });

  it('renders everything on demand while no release is live', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'server-flow-empty-'));
    await mkdir(join(empty, 'client'));
    try {
      const bare = createServerHandler({ distDir: empty, env: parseServerEnv({}), astroHandler, search }).handle;
      const res = await inject(bare, { url: '/en', headers: { host: HOST } });
      expect([res.headers['x-render'], res.body]).toEqual(['on-demand', 'on demand /en']);
      expect(astroSaw[0]!.locals.releaseId).toBe('');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('server: routing before the choice', () => {
  it('redirects a trailing slash with 301, keeping the query, before anything is rendered', async () => {
    const res = await send('/en/about-us/?page=2');
    expect([res.status, res.headers.location]).toEqual([301, '/en/about-us?page=2']);
    expect((await send('//evil.example/')).headers.location).toBe('/evil.example');
    expect(astroSaw).toEqual([]);
  });

  it('routes POST /api/revalidate to the revalidation (never to Astro or a file): 401 without the secret', async () => {
    const res = await send('/api/revalidate', { method: 'POST', body: '{}' });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String), message: 'Missing or wrong revalidation secret' });
    expect(astroSaw).toEqual([]);
  });

  it('answers 400 to a bad Host before choosing anything', async () => {
    const res = await inject(handle, { url: '/en', headers: { host: 'x/../..' } });
    expect(res.status).toBe(400);
    expect(astroSaw).toEqual([]);
  });
});

describe('server: limits and hostile targets', () => {
  it('answers 414 to an over-long path or query and 400 to traversal tricks, with a message, before anything is chosen', async () => {
    const long = await send(`/en/${'a'.repeat(3000)}`);
    expect([long.status, long.body]).toEqual([414, 'URI too long: the path has more than 2048 characters.']);
    expect((await send(`/en?q=${'x'.repeat(5000)}`)).status).toBe(414);
    for (const target of ['/en/../about-us', '/%2e%2e/%2e%2e/sitemap.xml', '/_astro/..%2f..%2fserver%2fentry.mjs', '/en/%5c..%5cx', '/en/about-us%00', '/en/%252e%252e/x', '/\\evil.example/']) {
      const res = await send(target);
      expect(res.status, target).toBe(400);
      expect(res.body, target).toMatch(/^Bad request: /);
      expect(res.headers['content-type'], target).toBe('text/plain; charset=utf-8');
    }
    expect(astroSaw).toEqual([]);
  });

  it('answers a miss under /_astro/ or /builds/ with a plain 404 itself (Astro has no route there), other methods 405', async () => {
    for (const path of ['/_astro/missing.js', '/_astro/package.json', '/builds/nope', '/builds/latest.txt', '/builds/']) {
      const res = await send(path);
      expect([res.status, res.body], path).toEqual([404, 'Not found']);
    }
    expect((await send('/builds/latest.json')).status).toBe(200);
    const options = await send('/_astro/app.js', { method: 'OPTIONS' });
    expect([options.status, options.headers.allow]).toEqual([405, 'GET, HEAD']);
    expect(astroSaw).toEqual([]);
  });

  it('answers 405 with Allow to a method no route takes (TRACE cannot even reach Astro)', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'MKCOL']) {
      const res = await send('/en', { method });
      expect([res.status, res.headers.allow, res.body], method).toEqual([405, 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS', 'Method not allowed: this server answers GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS.']);
    }
    expect(astroSaw).toEqual([]);
  });

  it('sends a request that reached a TLS proxy over http to the same host on https (never for localhost)', async () => {
    const res = await send('/en/about-us?x=1', { headers: { host: 'www.komax.example', 'x-forwarded-proto': 'http' } });
    expect([res.status, res.headers.location]).toEqual([301, 'https://www.komax.example/en/about-us?x=1']);
    expect((await send('/api/revalidate', { method: 'POST', headers: { host: 'WWW.Komax.Example.:80', 'x-forwarded-proto': 'http' } })).headers.location).toBe('https://www.komax.example/api/revalidate');
    expect((await send('/en', { headers: { 'x-forwarded-proto': 'http' } })).status).toBe(200);
    expect((await send('/en', { headers: { host: 'www.komax.example', 'x-forwarded-proto': 'https' } })).headers['x-render']).toBe('prerendered');
  });

  it('gives every answer a CSP header with the header-only directives, the fallback where nothing sets one', async () => {
    const answers = {
      page: await send('/en/about-us'),
      notModified: await send('/en/about-us', { headers: { 'if-none-match': (await send('/en/about-us')).headers.etag! } }),
      onDemand: await send('/en/x'),
      api: await send('/api/big'),
      payload: await send('/en/about-us/_payload.json'),
      sitemap: await send('/sitemap.xml'),
      asset: await send('/_astro/app.js'),
      redirect: await send('/en/about-us/'),
      badHost: await inject(handle, { url: '/en', headers: { host: 'x/../..' } }),
      badTarget: await send('/en/../x'),
      error: await send('/en/broken'),
    };
    expect(answers.notModified.status).toBe(304);
    for (const [kind, res] of Object.entries(answers)) {
      const csp = res.headers['content-security-policy'];
      expect(csp, kind).toContain("frame-ancestors 'none'");
      expect(csp, kind).toContain('report-uri /api/csp-report');
      expect(csp, kind).toContain('report-to csp-endpoint');
      expect(res.headers['reporting-endpoints'], kind).toBe('csp-endpoint="/api/csp-report"');
      expect(res.headers['cross-origin-resource-policy'], kind).toBe('same-site');
    }
    for (const kind of ['api', 'payload', 'sitemap', 'asset', 'redirect', 'badHost', 'badTarget'] as const) expect(answers[kind].headers['content-security-policy'], kind).toBe(FALLBACK_CSP);
  });
});

describe('server: what the HTTP parser refuses', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createHttpServer((req, res) => void handle(req, res));
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); }));

  /** Sends raw bytes and reads the answer until the server closes the connection. */
  const rawRequest = (bytes: string) => new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let data = '';
    socket.on('data', (c: Buffer) => { data += c.toString('latin1'); });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });

  it('answers 431 with a message and the security headers to headers over 16 KiB', async () => {
    const answer = await rawRequest(`GET /en HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(answer).toContain(`Content-Security-Policy: ${FALLBACK_CSP}\r\n`);
    expect(answer).toContain('Strict-Transport-Security: max-age=63072000; includeSubDomains\r\n');
    expect(answer).toMatch(/\r\n\r\nRequest header fields too large: the request line and headers may have at most 16384 bytes\.$/);
  });

  it('answers 431 to a request line over the bound too, and 400 to one it cannot parse', async () => {
    expect(await rawRequest(`GET /en?${'q'.repeat(17_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`)).toMatch(/^HTTP\/1\.1 431 /);
    const garbage = await rawRequest('GET /en HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(garbage).toMatch(/Bad request: the request could not be parsed\.$/);
    expect(garbage).not.toMatch(/HPE_|Error/);
  });

  it('answers 414 over a real connection to a target within the header bound but over the path bound', async () => {
    const answer = await rawRequest(`GET /${'a'.repeat(5000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 414 /);
  });
});

describe('server: the HTTP Observatory grade of the real headers', () => {
  /** Grades an answer as served over https (TLS at the edge passes our headers through). */
  const grade = (res: Injected, path: string) => observatoryGrade({
    response: { url: `https://www.komax.example${path}`, status: res.status, headers: res.headers, body: res.body },
    httpRedirects: [{ url: `http://www.komax.example${path}` }, { url: `https://www.komax.example${path}` }],
  });

  it('grades every kind of answer A+ (a score of at least 100)', async () => {
    const etag = (await send('/en/about-us')).headers.etag!;
    const answers: Record<string, [Injected, string]> = {
      prerendered: [await send('/en/about-us'), '/en/about-us'],
      notModified: [await send('/en/about-us', { headers: { 'if-none-match': etag } }), '/en/about-us'],
      onDemand: [await send('/en/x'), '/en/x'],
      api: [await send('/api/big'), '/api/big'],
      payload: [await send('/en/about-us/_payload.json'), '/en/about-us/_payload.json'],
      asset: [await send('/_astro/app.js'), '/_astro/app.js'],
      redirect: [await send('/en/about-us/'), '/en/about-us/'],
      error: [await send('/en/broken'), '/en/broken'],
      badRequest: [await send('/en/../x'), '/en/../x'],
    };
    for (const [kind, [res, path]] of Object.entries(answers)) {
      const result = grade(res, path);
      expect({ kind, score: result.score, grade: result.grade, failing: Object.entries(result.tests).filter(([, t]) => t.modifier < 0) }).toEqual({ kind, score: expect.any(Number), grade: 'A+', failing: [] });
      expect(result.score, kind).toBeGreaterThanOrEqual(100);
    }
  });

  it('the http to https redirect is what the redirection test wants', async () => {
    const first = await send('/en', { headers: { host: 'www.komax.example', 'x-forwarded-proto': 'http' } });
    const chain = [{ url: 'http://www.komax.example/en' }, { url: first.headers.location! }];
    const result = observatoryGrade({ response: { url: first.headers.location!, status: 200, headers: (await send('/en')).headers }, httpRedirects: chain });
    expect(result.tests.redirection).toEqual({ result: 'redirection-to-https', modifier: 0 });
  });
});
