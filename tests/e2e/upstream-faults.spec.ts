import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, request, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, HUB, PORT, REVALIDATE_SECRET } from './fixtures/index.ts';

// Upstream faults against the built and prerendered dist/ of the suite's own server: a SECOND
// server process (other ports of the block) whose content hub hangs, fails or is down.
// Plain Node HTTP requests, no browser.

const SECOND = PORT - 1;
const HANGING_HUB = PORT - 2;
const FAULTY_HUB = PORT - 3;
const START_PORT = PORT - 4;
const CLOSED = PORT - 5;
const FAULTY_SERVER = PORT - 6;
const CATALOGUE = `http://127.0.0.1:${PORT - 201}/graphql`;
const TIMEOUT_MS = 3000;

test.describe.configure({ mode: 'serial' });

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; text: string }

/** A GET to a server of ours on loopback (Host localhost). */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { host: `localhost:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const cleanups: (() => Promise<unknown> | void)[] = [];
test.afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A content hub that accepts connections and never answers. */
async function hangingHub(port: number): Promise<string> {
  const sockets = new Set<Socket>();
  const server: TcpServer = createTcpServer((s) => { sockets.add(s); s.on('error', () => {}); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  cleanups.push(() => { for (const s of sockets) s.destroy(); return new Promise((ok) => server.close(ok)); });
  return `http://127.0.0.1:${port}/graphql`;
}

type HubMode = 'proxy' | 'page-error' | 'page-hang' | 'hang';
/**
 * A content hub in front of the suite's emulator: passes requests through, or answers the page
 * query with a GraphQL error, or lets it (or everything) hang.
 */
async function faultyHub(port: number): Promise<{ endpoint: string; mode: HubMode }> {
  const state = { endpoint: `http://127.0.0.1:${port}/graphql`, mode: 'proxy' as HubMode };
  const server: HttpServer = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const pageQuery = /query PageByPath\b/.test(body);
      if (state.mode === 'hang' || (state.mode === 'page-hang' && pageQuery)) return;
      if (state.mode === 'page-error' && pageQuery) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message: 'Internal hub failure in resolver pageByPath' }] }));
        return;
      }
      const upstream = await fetch(HUB, { method: 'POST', headers: { 'content-type': 'application/json', 'x-content-locales': String(req.headers['x-content-locales'] ?? 'en') }, body });
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
    });
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));
  cleanups.push(() => { server.closeAllConnections(); return new Promise((ok) => server.close(ok)); });
  return state;
}

/** Starts a script of ours with Node (the suite's own), returns once `ready` appears in its output. */
async function startProcess(script: string, env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [script], { env: { ...process.env, CI: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${output}`))));
  const listening = new Promise<void>((resolve) => {
    const on = (c: Buffer) => { output += c.toString(); if (ready.test(output)) resolve(); };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
  });
  cleanups.push(() => { child.kill(); });
  await Promise.race([listening, exited]);
  return { child, output: () => output };
}

const serverEnv = (endpoint: string, port: number) => ({
  PORT: String(port), CONTENT_ENDPOINT: endpoint, CATALOGUE_ENDPOINT: endpoint, REVALIDATE_SECRET,
  UPSTREAM_CONNECT_TIMEOUT_MS: '1000', UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), LOG_LEVEL: 'info',
});

function expectErrorPage(res: Answer, o: { status: number; title: string; heading: string }) {
  expect(res.status).toBe(o.status);
  expect(res.headers['content-type']).toContain('text/html');
  expect(res.headers['cache-control']).toBe('no-store');
  if (o.status === 503) expect(res.headers['retry-after']).toBe('60');
  else expect(res.headers['retry-after']).toBeUndefined();
  expect(res.text).toContain(`<title>${o.title}</title>`);
  expect(res.text).toMatch(new RegExp(`<h1[^>]*>${o.heading}</h1>`));
  // No stack trace, no internals.
  // What a visitor can read (inlined styles hold names such as --c-error: they leak nothing).
  const readable = res.text.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
  expect(readable).not.toMatch(/\n\s+at |Error:|unreachable|Internal hub failure|graphql/i);
  // A strict CSP: no inline scripts allowed.
  expect(String(res.headers['content-security-policy'])).not.toContain('unsafe-inline');
}

test('a hanging content hub: prerendered pages are served, on-demand pages answer 503 in time, no hang', async () => {
  const hub = await hangingHub(HANGING_HUB);
  await startProcess('src/server/main.ts', serverEnv(hub, SECOND), /Serving on/);

  const home = await get(SECOND, '/en');
  expect(home.status).toBe(200);
  expect(home.headers['x-render']).toBe('prerendered');

  for (const [path, title, heading] of [
    ['/en/no-such-page', 'Error | Komax', 'Sorry, something went wrong'],
    ['/en/stories?page=2', 'Error | Komax', 'Sorry, something went wrong'],
    ['/de/no-such-page', 'Fehler | Komax', 'Leider ist ein Fehler aufgetreten'],
  ] as const) {
    // A 503 can only come from the upstream timeout (a hang would time the test out): no clock needed.
    const res = await get(SECOND, path);
    expectErrorPage(res, { status: 503, title, heading });
  }

  // The revalidation uses the same transport: it fails (the previous release stays) instead of hanging.
  const revalidation = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: SECOND, path: '/api/revalidate', method: 'POST', agent: false, headers: { host: `localhost:${SECOND}`, 'x-revalidate-secret': REVALIDATE_SECRET, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => { text += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end('{}');
  });
  // 503 when this run timed out on the hub; 409 when the server's own start-up retry (it started
  // with the hub down) holds the lock at that moment. Either way the previous build stays live.
  expect([503, 409]).toContain(revalidation.status);
  expect(revalidation.text).toContain(revalidation.status === 503
    ? 'the previous build stays live: the content hub is unavailable (it did not answer in time)'
    : 'the previous build stays live: another prerender is writing the release');
  expect((await get(SECOND, '/en')).headers['x-render']).toBe('prerendered');
});

test.describe('a failing content hub', () => {
  let hub: { endpoint: string; mode: HubMode };
  test.beforeAll(async () => {
    hub = await faultyHub(FAULTY_HUB);
    await startProcess('src/server/main.ts', { ...serverEnv(hub.endpoint, FAULTY_SERVER), CATALOGUE_ENDPOINT: CATALOGUE }, /Serving on/);
  });
  const port = FAULTY_SERVER;

  test('an error thrown in a page shows the error page with 500, in en and de', async () => {
    hub.mode = 'page-error';
    expectErrorPage(await get(port, '/en/no-such-page'), { status: 500, title: 'Error | Komax', heading: 'Sorry, something went wrong' });
    const de = await get(port, '/de/no-such-page');
    expectErrorPage(de, { status: 500, title: 'Fehler | Komax', heading: 'Leider ist ein Fehler aufgetreten' });
    expect(de.text).toContain('Möglicherweise werden gerade Wartungsarbeiten durchgeführt');
    expect(de.text).toMatch(/<a class="btn"[^>]*href="\/de"[^>]*>Zur Startseite<\/a>/);
  });

  test('a page query that hangs shows the error page with 503 and Retry-After', async () => {
    hub.mode = 'page-hang';
    const res = await get(port, '/en/no-such-page');
    expectErrorPage(res, { status: 503, title: 'Error | Komax', heading: 'Sorry, something went wrong' });
  });

  test('an anonymous ?cache=clear neither clears the data cache nor bypasses the static files', async () => {
    hub.mode = 'proxy';
    // Rendered on demand (the page parameter), its records now in the data cache.
    const first = await get(port, '/en/about-us?page=2');
    expect(first.status).toBe(200);
    expect(first.headers['x-render']).toBe('on-demand');
    hub.mode = 'hang';
    const anonymous = await get(port, '/en/about-us?page=2&cache=clear');
    // 200 with the cached page: a refetch from the hanging hub would have ended in a 503.
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toContain('<title>About us | Komax</title>');
    expect((await get(port, '/en?cache=clear')).headers['x-render']).toBe('prerendered');
    expect((await get(port, '/en?cache=false')).headers['x-render']).toBe('prerendered');
    // With the secret, clearing during the outage keeps the old values (refetch, then swap).
    const operator = await get(port, '/en/about-us?page=2&cache=clear', { 'x-revalidate-secret': REVALIDATE_SECRET });
    expect(operator.status).toBe(200);
    expect(operator.text).toContain('<title>About us | Komax</title>');
    expect((await get(port, '/en?cache=clear', { authorization: `Bearer ${REVALIDATE_SECRET}` })).headers['x-render']).toBe('on-demand');
  });
});

test.describe('npm start with the content hub down', () => {
  test('serves the previous release, warns and retries in the background', async () => {
    const endpoint = `http://127.0.0.1:${CLOSED}/graphql`;
    const started = await startProcess('scripts/start.ts', { PORT: String(START_PORT), CONTENT_ENDPOINT: endpoint, CATALOGUE_ENDPOINT: endpoint }, /Komax web platform on/);
    const home = await get(START_PORT, '/en');
    expect(home.status).toBe(200);
    expect(home.headers['x-render']).toBe('prerendered');
    expect(started.output()).toContain(`the content hub at ${endpoint} is unreachable`);
    expect(started.output()).toContain('the revalidation is retried in the background');
  });

  test('without a published release exits non-zero naming the endpoint', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'komax-empty-dist-'));
    cleanups.push(() => rm(empty, { recursive: true, force: true }));
    const endpoint = `http://127.0.0.1:${CLOSED}/graphql`;
    const child = spawn(process.execPath, ['scripts/start.ts'], {
      env: { ...process.env, CI: '1', PORT: String(START_PORT), CONTENT_ENDPOINT: endpoint, CATALOGUE_ENDPOINT: endpoint, DIST_DIR: empty },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => { output += c.toString(); });
    child.stderr!.on('data', (c: Buffer) => { output += c.toString(); });
    const code = await new Promise<number | null>((ok) => child.once('exit', ok));
    expect(code).not.toBe(0);
    expect(output).toContain(`Cannot start: the content hub at ${endpoint} is unreachable`);
    expect(output).not.toMatch(/\n\s+at /);
  });
});
