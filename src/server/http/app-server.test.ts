import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAppHandler } from './app-server.ts';
import { parseTrustProxy, trustProxies } from './client-address.ts';
import { publishRelease, releaseDir } from '../release/release.ts';
import { inject } from '../../../tests/support/node-http.ts';

const RELEASE = 'release0001';

let dist: string;
let server: Server;
let port: number;
let handle: ReturnType<typeof createAppHandler>;
/** The Host headers the stand-in for Astro's handler saw. */
let seenHosts: string[] = [];
/** The socket address the Astro handler saw (where Astro.clientAddress comes from). */
let seenAddresses: (string | undefined)[] = [];

const SITES = ['localhost', 'events.localhost', 'partner.localhost'];

async function publish(host: string) {
  const dir = join(releaseDir(join(dist, 'static'), RELEASE), host);
  await mkdir(join(dir, 'builds/meta'), { recursive: true });
  await mkdir(join(dir, 'en'), { recursive: true });
  await writeFile(join(dir, 'builds/meta/b1.json'), JSON.stringify({ id: 'b1', timestamp: 't', appBuildId: 'a', routes: { '/en': { fingerprint: `fp-${host}`, csp: null } }, redirects: [] }));
  await writeFile(join(dir, 'builds/latest.json'), JSON.stringify({ id: 'b1', timestamp: 't' }));
  await writeFile(join(dir, 'en/index.html'), `<p>home of ${host}</p>`);
  await writeFile(join(dir, 'sitemap.xml'), `<urlset>${host}</urlset>`);
}

const astroHandler = (req: IncomingMessage, res: ServerResponse) => {
  seenHosts.push(req.headers.host ?? '(none)');
  seenAddresses.push(req.socket.remoteAddress);
  res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<link rel="canonical" href="http://${req.headers.host}/en/x">`);
};

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'app-server-'));
  for (const h of SITES) await publish(h);
  await publishRelease(join(dist, 'static'), RELEASE);
  // Files next to the static root that a Host like "x/../.." used to reach.
  await writeFile(join(dist, 'sitemap.xml'), 'SECRET-OUTSIDE-STATIC');
  await mkdir(join(dist, 'client'), { recursive: true });
  handle = createAppHandler({ distDir: dist, astroHandler });
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await rm(dist, { recursive: true, force: true });
});

beforeEach(() => {
  seenHosts = [];
  seenAddresses = [];
});

interface Answer { status: number; headers: IncomingMessage['headers']; body: string }

function get(path: string, host: string, agent?: import('node:http').Agent, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { ...headers, host }, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** An HTTP/1.0 request without a Host header (Node itself rejects that in HTTP/1.1). */
function withoutHost(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(`GET ${path} HTTP/1.0\r\n\r\n`));
    let data = '';
    socket.on('data', (c: Buffer) => { data += c.toString(); });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

describe('createAppHandler: /_image renders only the image presets\' sizes (issue 28)', () => {
  const SRC = encodeURIComponent('http://127.0.0.1:4101/assets/img/p1.svg');

  it('redirects another width of a preset\'s shape to the nearest one, and refuses any other size, before Astro renders', async () => {
    const near = await get(`/_image?href=${SRC}&w=470&h=264&f=webp&q=90&fit=cover`, 'localhost');
    expect(near.status).toBe(301);
    expect(near.headers.location).toBe(`/_image?href=${SRC}&w=480&h=270&f=webp&q=90&fit=cover`);
    const odd = await get(`/_image?href=${SRC}&w=333&h=777&f=webp&q=90&fit=cover`, 'localhost');
    expect([odd.status, odd.body]).toEqual([400, '333x777 is not a size of the image presets']);
    expect((await get(`/_image?href=${SRC}&w=480&h=270&f=webp&q=37&fit=cover`, 'localhost')).status).toBe(400);
    expect(seenHosts).toEqual([]);
    // A preset's own size goes on to the renderer.
    await get(`/_image?href=${SRC}&w=480&h=270&f=webp&q=90&fit=cover`, 'localhost');
    expect(seenHosts).toEqual(['localhost']);
  });
});

describe('createAppHandler: request targets', () => {
  it('reads "//path" as a path, not as a host', async () => {
    const res = await get('//evil.example/en/x', 'localhost');
    expect(res.status).toBe(200);
    expect(seenHosts).toEqual(['localhost']);
    expect((await get('//_image?href=x', 'localhost')).status).toBe(400);
  });

  it('answers 400 to an absolute-form target (its authority would bypass the Host check)', async () => {
    const res = await get('http://evil.example/en/x', 'localhost');
    expect(res.status).toBe(400);
    expect(seenHosts).toEqual([]);
  });
});

describe('createAppHandler: the Host header', () => {
  it.each(['x/../..', '..', '%2e%2e', 'a%2fb', 'a\\b', '..\\..', 'x/../../..'])('answers 400 to %j and never reads outside the static root', async (host) => {
    for (const path of ['/sitemap.xml', '/en', '/en/x']) {
      const res = await get(path, host);
      expect(res.status).toBe(400);
      expect(res.body).toBe('Invalid Host header');
      expect(res.body).not.toContain('SECRET');
    }
    expect(seenHosts).toEqual([]);
  });

  it('answers 400 without a Host header', async () => {
    const answer = await withoutHost('/en');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('Missing Host header');
  });

  it.each([['LOCALHOST', 'localhost'], ['localhost.', 'localhost'], ['Events.LocalHost.', 'events.localhost']])('serves %j like %s', async (host, site) => {
    const res = await get('/en', `${host}:${port}`);
    expect(res.status).toBe(200);
    expect(res.headers['x-render']).toBe('prerendered');
    expect(res.body).toBe(`<p>home of ${site}</p>`);
  });

  it('serves an unknown valid host as the main site, a subdomain of a site as that site', async () => {
    const unknown = await get('/en', `unknown.example:${port}`);
    expect(unknown.headers['x-render']).toBe('prerendered');
    expect(unknown.body).toBe('<p>home of localhost</p>');
    expect((await get('/en', '127.0.0.1')).body).toBe('<p>home of localhost</p>');
    expect((await get('/en', 'foo.events.localhost')).body).toBe('<p>home of events.localhost</p>');
    expect((await get('/sitemap.xml', 'evil.example')).body).toBe('<urlset>localhost</urlset>');
    expect((await get('/sitemap.xml', 'x.partner.localhost')).body).toBe('<urlset>partner.localhost</urlset>');
  });

  it('gives on-demand renders the resolved host with the port, never the raw header', async () => {
    const res = await get('/en/x', `Evil.Example:${port}`);
    expect(res.headers['x-render']).toBe('on-demand');
    expect(res.body).toBe(`<link rel="canonical" href="http://localhost:${port}/en/x">`);
    await get('/en/x', 'www.FOO.events.localhost.');
    expect(seenHosts).toEqual([`localhost:${port}`, 'events.localhost']);
  });

  it('gives the Astro handler the client a trusted proxy forwards (TRUST_PROXY), and never a client\'s own X-Forwarded-For', async () => {
    const spoofed = { 'x-forwarded-for': '198.51.100.7' };
    await get('/en/x', 'localhost', undefined, spoofed);
    try {
      trustProxies(parseTrustProxy('10.0.0.5'));
      await get('/en/x', 'localhost', undefined, spoofed);
      trustProxies(parseTrustProxy('loopback'));
      await get('/en/x', 'localhost', undefined, spoofed);
    } finally {
      trustProxies(null);
    }
    expect(seenAddresses).toEqual(['127.0.0.1', '127.0.0.1', '198.51.100.7']);
  });

  it('keeps the per-host caches bounded and the heap flat over 10,000 random Host values', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const chars = 'abcdefghijklmnopqrstuvwxyz0123456789-._/%\\:[]@ ';
    let seed = 42;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
    const randomHost = (i: number) => {
      if (i % 2) return `h${i}-${rnd(1e9)}.${['example', 'localhost', 'events.localhost', 'com'][rnd(4)]}:${1 + rnd(65535)}`;
      return Array.from({ length: 1 + rnd(40) }, () => chars[rnd(chars.length)]).join('');
    };
    const paths = ['/en', '/sitemap.xml', '/en/x', '/robots.txt'];
    const run = async (from: number, count: number) => {
      for (let i = from; i < from + count; i += 50) {
        await Promise.all(Array.from({ length: 50 }, (_, j) => get(paths[(i + j) % paths.length]!, randomHost(i + j), agent)));
      }
    };
    await run(0, 1000); // warm up (JIT, sirv, sockets) before measuring
    gc();
    const before = process.memoryUsage().heapUsed;
    await run(1000, 10_000);
    gc();
    const after = process.memoryUsage().heapUsed;
    agent.destroy();
    const sizes = handle.cacheSizes();
    console.log(`[heap] ${(before / 1048576).toFixed(1)} MiB before, ${(after / 1048576).toFixed(1)} MiB after 10,000 random hosts; caches ${JSON.stringify(sizes)}`);
    expect(sizes.files).toBeLessThanOrEqual(SITES.length * 4);
    expect(sizes.builds).toBeLessThanOrEqual(SITES.length);
    expect(after - before).toBeLessThan(8 * 1048576);
  }, 120_000);
});

describe('createAppHandler: query parameters that render on demand', () => {
  it('answers a search query (?q=) on demand, never with the prerendered shell', async () => {
    const res = await get('/en?q=cable', 'localhost');
    expect(res.headers['x-render']).toBe('on-demand');
    expect(res.body).not.toContain('home of');
    expect((await get('/en?other=1', 'localhost')).headers['x-render']).toBe('prerendered');
  });

  it('answers the locations directory\'s filters (?country=, ?type=, ?brand=) on demand', async () => {
    for (const query of ['country=DE', 'type=service', 'brand=brand-lumeca']) {
      expect((await get(`/en?${query}`, 'localhost')).headers['x-render'], query).toBe('on-demand');
    }
  });
});

describe('createAppHandler: ready static responses across releases', () => {
  let root: string;
  let releaseHandle: ReturnType<typeof createAppHandler>;

  /** Writes a release with one page per host (and a payload), its hosts.json, and makes it live. */
  async function release(id: string, pages: Record<string, string>) {
    const staticRoot = join(root, 'static');
    for (const [host, text] of Object.entries(pages)) {
      const dir = join(releaseDir(staticRoot, id), host);
      await mkdir(join(dir, 'builds/meta'), { recursive: true });
      await mkdir(join(dir, 'en'), { recursive: true });
      await writeFile(join(dir, 'builds/meta/b.json'), JSON.stringify({ id: 'b', timestamp: 't', appBuildId: 'a', routes: { '/en': { fingerprint: `fp-${id}`, csp: null } }, redirects: [] }));
      await writeFile(join(dir, 'builds/latest.json'), JSON.stringify({ id: 'b', timestamp: 't' }));
      await writeFile(join(dir, 'en/index.html'), text);
      await writeFile(join(dir, 'en/_payload.json'), JSON.stringify({ text }));
    }
    const hosts = Object.fromEntries(Object.keys(pages).map((h) => [h, `http://${h}`]));
    await writeFile(join(releaseDir(staticRoot, id), 'hosts.json'), JSON.stringify({ main: 'localhost', hosts }));
    await publishRelease(staticRoot, id);
  }

  const send = (url: string, host: string, headers: Record<string, string> = {}) => inject((req, res) => releaseHandle(req, res, 'rid-1'), { url, headers: { host, ...headers } });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'app-server-ready-'));
    await mkdir(join(root, 'client'), { recursive: true });
    await release('release0001', { localhost: 'first' });
    releaseHandle = createAppHandler({ distDir: root, astroHandler });
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('sends a repeated static hit with every header in one writeHead, the request id included, no setHeader', async () => {
    await send('/en', 'localhost');
    let setHeaders = 0;
    const res = await inject((req, res) => {
      const set = res.setHeader.bind(res);
      res.setHeader = ((...a: Parameters<typeof res.setHeader>) => { setHeaders++; return set(...a); }) as typeof res.setHeader;
      return releaseHandle(req, res, 'rid-2');
    }, { url: '/en', headers: { host: 'localhost' } });
    expect([res.status, res.body, res.headers['x-request-id'], res.headers['x-render'], res.headers.etag, res.headers['x-frame-options']]).toEqual([200, 'first', 'rid-2', 'prerendered', '"fp-release0001"', 'DENY']);
    expect(setHeaders).toBe(0);
  });

  it('serves the new release\'s page and payload at once after the pointer moves, never the old ready answer', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await send('/en', 'localhost')).body).toBe('first');
      expect((await send('/en/_payload.json', 'localhost')).body).toBe('{"text":"first"}');
    }
    await release('release0002', { localhost: 'second' });
    const page = await send('/en', 'localhost');
    expect([page.body, page.headers.etag]).toEqual(['second', '"fp-release0002"']);
    expect((await send('/en/_payload.json', 'localhost')).body).toBe('{"text":"second"}');
    expect((await send('/en', 'localhost', { 'if-none-match': '"fp-release0001"' })).status).toBe(200);
  });

  it('serves a host that a new release adds as that host at once (its hosts.json read on the swap)', async () => {
    expect((await send('/en', 'events.localhost')).body).toBe('second');
    await release('release0003', { localhost: 'third', 'events.localhost': 'events' });
    expect((await send('/en', 'events.localhost')).body).toBe('events');
    expect((await send('/en', 'localhost')).body).toBe('third');
  });

  it('leaves to the full route what it normalises or renders on demand: a query, the next-release or draft preview cookie, dot segments, a trailing slash, a bad Host', async () => {
    await send('/en', 'localhost');
    expect((await send('/en?q=x', 'localhost')).headers['x-render']).toBe('on-demand');
    // Every parameter a feature's policy declares (src/server/prerender/policies.ts), and no other.
    for (const p of ['category', 'page', 'country', 'brand', 'type', 'direct', 'nextRelease', 'preview']) {
      expect((await send(`/en?${p}=1`, 'localhost')).headers['x-render']).toBe('on-demand');
    }
    expect((await send('/en?utm_source=x', 'localhost')).headers['x-render']).toBe('prerendered');
    expect((await send('/en', 'localhost', { cookie: 'nextRelease=1' })).headers['x-render']).toBe('on-demand');
    expect((await send('/en', 'localhost', { cookie: 'kmx_preview=DRAFT' })).headers['x-render']).toBe('on-demand');
    // A dot segment is refused by the full route (request-target.ts), never served from the cache.
    expect((await send('/x/../en', 'localhost')).status).toBe(400);
    expect((await send('/en/', 'localhost')).status).toBe(301);
    expect((await send('/en', 'bad host')).status).toBe(400);
  });
});
