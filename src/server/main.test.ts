import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseServerEnv } from './env.ts';
import { CACHE_HTML, withHeaderOnlyDirectives } from './headers.ts';
import { createServerHandler } from './main.ts';
import { publishRelease, releaseDir } from './release.ts';
import { inject, type InjectRequest } from './testing.ts';
import type { ServerSearchBackend } from '../lib/search/index.ts';

// The server's choice between a prerendered file and an on-demand render (docs/architecture.md,
// "Request flow"), through the real request handler of main.ts over a temp release and a
// stand-in for Astro's handler; no port, no emulators.

const SECRET = 'the-revalidation-secret';
const HOST = 'localhost:4321';
const PAGE_CSP = "default-src 'self'; script-src 'self' 'sha256-abc'";
const ON_DEMAND_CSP = "default-src 'self'";

/** What the stand-in for Astro's handler was asked to render. */
let astroSaw: { method: string; url: string; host: string; locals: Record<string, unknown> }[] = [];
const search = { reload: async () => {} } as unknown as ServerSearchBackend;

const astroHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void, locals?: object) => {
  astroSaw.push({ method: req.method!, url: req.url!, host: req.headers.host!, locals: locals as Record<string, unknown> });
  if (req.url === '/en/not-a-page') return next?.();
  if (req.url === '/en/broken') return next?.(new Error('render failed'));
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
  };
  for (const [path, body] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), body);
  }
  await publishRelease(staticRoot, release);
}

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'server-flow-'));
  await mkdir(join(dist, 'client'), { recursive: true });
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
    expect(JSON.parse(res.body)).toEqual({ error: 'Missing or wrong revalidation secret' });
    expect(astroSaw).toEqual([]);
  });

  it('answers 400 to a bad Host before choosing anything', async () => {
    const res = await inject(handle, { url: '/en', headers: { host: 'x/../..' } });
    expect(res.status).toBe(400);
    expect(astroSaw).toEqual([]);
  });
});
