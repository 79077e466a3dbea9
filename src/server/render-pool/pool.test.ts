import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestFromNodeRequest, writeResponse } from 'astro/app/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppHandler } from '../http/app-server.ts';
import { publishRelease, releaseDir } from '../release/release.ts';
import { inject, type Injected } from '../../../tests/support/node-http.ts';
import { app } from '../../../tests/support/render-pool-app.ts';
import { RenderFailed, RenderPool, threadExecArgv } from './pool.ts';
import { renderWire, wireRequestOf, writeWireResponse } from './wire.ts';

// The render threads of a Node instance (issue 31, item 2): through the real request handler of
// app-server.ts over a temp release, with a stand-in App (tests/support/render-pool-app.ts) that
// the render threads load as they would load the built one.

const ENTRY = pathToFileURL(join(import.meta.dirname, '../../../tests/support/render-pool-app.ts')).href;
const HOST = 'localhost:4321';

/** Astro's node adapter as the server uses it today (in-process): its own request and response conversions. */
const adapterHandler = async (req: IncomingMessage, res: ServerResponse, _next?: (err?: unknown) => void, locals?: object) => {
  const request = createRequestFromNodeRequest(req);
  await writeResponse(await app.render(request, { locals: locals as { releaseId?: string }, clientAddress: req.socket.remoteAddress }), res);
};

let dist: string;
const pools: RenderPool[] = [];
const poolOf = (opts: Partial<ConstructorParameters<typeof RenderPool>[0]> = {}) => {
  const pool = new RenderPool({ distDir: dist, threads: 1, entryFile: ENTRY, ...opts });
  pools.push(pool);
  return pool;
};

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'render-pool-'));
  const dir = join(releaseDir(join(dist, 'static'), 'release0001'), 'localhost');
  const files: Record<string, string> = {
    'builds/meta/b1.json': JSON.stringify({ id: 'b1', timestamp: 't', appBuildId: 'app', redirects: [], routes: { '/en': { fingerprint: 'fp-en', csp: null } } }),
    'builds/latest.json': JSON.stringify({ id: 'b1', timestamp: 't' }),
    'en/index.html': '<p>static home</p>',
  };
  for (const [path, body] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), body);
  }
  await publishRelease(join(dist, 'static'), 'release0001');
  await mkdir(join(dist, 'client'), { recursive: true });
});

afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
  await rm(dist, { recursive: true, force: true });
});

const handlerOf = (renderPool?: RenderPool) => createAppHandler({ distDir: dist, astroHandler: adapterHandler, ...(renderPool ? { renderPool } : {}) });
const get = (handle: ReturnType<typeof createAppHandler>, url: string, headers: Record<string, string> = {}, method = 'GET') => inject(handle, { url, method, headers: { host: HOST, ...headers } });
/** What the visitor sees, but the Date header (the clock moved on). */
const seen = ({ status, headers, bytes }: Injected) => {
  const { date: _date, ...rest } = headers;
  return { status, headers: rest, body: bytes.toString('base64') };
};

describe('render threads: the same answer as a render on the serving thread', () => {
  it('gives status, headers (two Set-Cookie, the CSP, the status line), body and locals as the node adapter does, for every kind of on-demand answer', async () => {
    const inProcess = handlerOf();
    const threaded = handlerOf(poolOf());
    const requests: [string, Record<string, string>, string?][] = [
      ['/en/page', { cookie: 'locale=de; other=1' }],
      ['/en/page', {}, 'HEAD'],
      ['/en/page', { 'accept-encoding': 'br' }],
      ['/en/big', { 'accept-encoding': 'gzip' }],
      ['/en/missing', {}],
      ['/EN/page', {}],
    ];
    for (const [url, headers, method] of requests) {
      const [a, b] = [await get(inProcess, url, headers, method), await get(threaded, url, headers, method)];
      expect(seen(b), `${method ?? 'GET'} ${url}`).toEqual(seen(a));
    }
    const page = await get(threaded, '/en/page', { cookie: 'locale=de' });
    expect(page.body).toContain('release b1');
    expect(page.body).toContain('cookie locale=de');
    expect(page.headers['set-cookie']).toBeDefined();
  });

  it('writes an answer exactly as the node adapter writes the same Response', async () => {
    const write = async (how: 'adapter' | 'wire') => inject(async (req, res) => {
      const response = await app.render(new Request('http://localhost/en/page'), { locals: { releaseId: 'r1' } });
      if (how === 'adapter') await writeResponse(response, res);
      else writeWireResponse(res, await renderWire(app, wireRequestOf(req, 'r1')), false);
    }, { url: '/en/page', headers: { host: 'localhost' } });
    expect(seen(await write('wire'))).toEqual(seen(await write('adapter')));
  });
});

describe('render threads: the serving thread stays free', () => {
  /** Which answer finished first: a slow render's or a static file's asked for after it started. */
  async function order(handle: ReturnType<typeof createAppHandler>, started: () => Promise<void>) {
    const finished: string[] = [];
    const slow = get(handle, '/en/slow').then((r) => finished.push(`slow ${r.status}`));
    await started();
    const home = await get(handle, '/en');
    finished.push(`static ${home.status} ${home.headers['x-render']}`);
    await slow;
    return finished;
  }

  it('answers a static file while a render thread is busy with a slow page', async () => {
    const pool = poolOf();
    // The thread has loaded the App; then the slow render is sent to it (a place taken).
    await expect.poll(() => pool.readyThreads, { timeout: 20_000 }).toBe(1);
    const started = () => expect.poll(() => pool.load.active, { timeout: 10_000 }).toBe(1);
    expect(await order(handlerOf(pool), started)).toEqual(['static 200 prerendered', 'slow 200']);
  });

  it('(control) on the serving thread the static file waits behind the render', async () => {
    expect(await order(handlerOf(), async () => {})).toEqual(['slow 200', 'static 200 prerendered']);
  });
});

describe('render threads: failures', () => {
  it('replaces a crashed thread and answers its request with the error page, not a hang', async () => {
    const pool = poolOf();
    const handle = handlerOf(pool);
    const crashed = await get(handle, '/en/crash');
    expect(crashed.status).toBe(500);
    expect(crashed.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(crashed.body).toContain('<h1>');
    expect(pool.started).toBe(2);
    // The replacement renders the next request.
    expect((await get(handle, '/en/page')).status).toBe(200);
  });

  it('answers 503 with Retry-After when the App says an upstream service is down', async () => {
    const res = await get(handlerOf(poolOf()), '/en/throws');
    expect([res.status, res.headers['retry-after']]).toEqual([503, '60']);
  });

  it('gives up a render past its time: the thread is replaced and the request fails', async () => {
    const pool = poolOf({ timeoutMs: 300 });
    await expect(pool.render(wireRequestOf({ method: 'GET', url: '/en/hang', headers: { host: HOST }, socket: {} } as IncomingMessage, 'r'))).rejects.toBeInstanceOf(RenderFailed);
    await expect.poll(() => pool.started, { timeout: 20_000 }).toBe(2);
  });

  it('tells a request "busy" when the places and the queue are full, and the server answers 503 with Retry-After', async () => {
    const pool = poolOf({ perThread: 1, maxQueue: 1, timeoutMs: 60_000 });
    const handle = handlerOf(pool);
    const hang = wireRequestOf({ method: 'GET', url: '/en/hang', headers: { host: HOST }, socket: {} } as IncomingMessage, 'r');
    void pool.render(hang).catch(() => {});
    void pool.render(hang).catch(() => {});
    await expect.poll(() => pool.load, { timeout: 10_000 }).toEqual({ active: 1, waiting: 1 });
    const res = await get(handle, '/en/page');
    expect([res.status, res.headers['retry-after'], res.headers['cache-control']]).toEqual([503, '60', 'no-store']);
    await pool.close();
  });
});

describe('render threads: Node options', () => {
  it('leave out what only a main script takes (a server started with --input-type=module -e, as the benches start it)', () => {
    expect(threadExecArgv(['--input-type=module', '-e', 'await import("x")', '--enable-source-maps', '--eval=1', '-p', '2', '--inspect=127.0.0.1:9229']))
      .toEqual(['--enable-source-maps', '--inspect=127.0.0.1:9229']);
  });
});
