// Every service the server depends on, stopped while it runs and started again: what a visitor
// and an operator see meanwhile, and that the server recovers by itself (no restart).
//
// The suite's own emulators serve the other specs in parallel, so this file runs a stack of its
// own on ports of the block (E2E_PORT-270 … -275): the content hub, catalogue, identity and
// ticketing emulators and an OpenSearch stub in this worker (stopped and restarted on the same
// port and data), and the server (src/server/main.ts over the suite's built app) as a child
// process over a scratch DIST_DIR whose live release is a hard-link copy of the suite's (no
// prerender needed: a second or two). Plain HTTP, and one browser test for a screen rendered in
// the browser (the tickets list); the islands' texts for the other answers are covered by
// tickets.spec.ts, account.spec.ts, user-admin.spec.ts and search.spec.ts.
//
// Related: upstream-faults.spec.ts (a hub that hangs or answers errors, `npm start` with the hub
// down), release-crash.spec.ts (the prerender killed at random points).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import { request } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import config from '../../playwright.config.ts';
import { startCatalogue } from '../../emulators/catalogue/server.ts';
import { startContentHub } from '../../emulators/content-hub/server.ts';
import { signIn } from '../../emulators/identity/login-flow.ts';
import { INTROSPECTION_CLIENT_ID, LOCAL_INTROSPECTION_SECRET, startIdentity } from '../../emulators/identity/server.ts';
import { MemoryOpenSearch, startOpenSearchStub } from '../../emulators/search/opensearch-stub.ts';
import { startTicketing } from '../../emulators/ticketing/server.ts';
import { publishSearchDocuments, type SearchDocument } from '../../src/lib/search/index.ts';
import { TICKETS_QUERY } from '../../src/lib/ticketing/documents.ts';
import { linkTree, publishRelease, readPointer } from '../../src/server/release/release.ts';
import { test, expect, PORT, REVALIDATE_SECRET } from './fixtures/index.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './fixtures/identity.ts';
import { expectOneCompleteRelease, releaseIdOf } from './fixtures/release.ts';

const HUB_PORT = PORT - 270;
const CATALOGUE_PORT = PORT - 271;
const IDENTITY_PORT = PORT - 272;
const TICKETING_PORT = PORT - 273;
const OPENSEARCH_PORT = PORT - 274;
const APP = PORT - 275;
const HANGING_ASSETS = PORT - 276;
const TIMEOUT_MS = 5000;
const ROOT = process.cwd();
const DATA = join(dirname(fileURLToPath(import.meta.url)), '../../emulators/data');
const E2E_STATIC = join(ROOT, process.env.DIST_DIR ?? 'dist', 'static');

const PRODUCT = '/en/products/testing-quality/crimp-quality/hm-20';
const OTHER_PRODUCT = '/en/products/testing-quality/crimp-quality/pt-50';
const CLASSIFICATION = '/en/products/testing-quality/harness-testing';

test.describe.configure({ mode: 'serial' });

/** One service of the stack: `down()` stops it (open connections cut), `up()` starts it again on the same port and data. */
interface Service { up(): Promise<void>; down(): Promise<void> }

function service(start: () => Promise<() => Promise<void>>): Service {
  let stop: (() => Promise<void>) | null = null;
  return {
    async up() { if (!stop) stop = await start(); },
    async down() { const st = stop; stop = null; await st?.(); },
  };
}

const closeServer = (server: Server) => () => new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); });

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; text: string }

/** A request to the stack's server on loopback (Host localhost). */
function call(path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: APP, path, method: opts.method ?? 'GET', agent: false, headers: { host: `localhost:${APP}`, ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** The spec's error page (public-site §2.6, §8) with 503: texts, Retry-After, nothing internal. */
function expectUnavailablePage(res: Answer, path: string, o: { title: string; heading: string } = { title: 'Error | Komax', heading: 'Sorry, something went wrong' }) {
  expect(res.status, path).toBe(503);
  expect(res.headers['content-type']).toContain('text/html');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['retry-after']).toBe('60');
  expect(res.text).toContain(`<title>${o.title}</title>`);
  expect(res.text).toMatch(new RegExp(`<h1[^>]*>${o.heading}</h1>`));
  expectNothingInternal(res.text.replace(/<style[^>]*>[\s\S]*?<\/style>/g, ''));
}

/** No stack trace, no address of the stack's services, no upstream error text, no file path. */
function expectNothingInternal(text: string) {
  expect(text).not.toMatch(/\n\s+at |ECONNREFUSED|unreachable|other side closed|\/work\/|\/tmp\//);
  for (const port of [HUB_PORT, CATALOGUE_PORT, IDENTITY_PORT, TICKETING_PORT, OPENSEARCH_PORT]) expect(text).not.toContain(`:${port}`);
}

/** The server's log lines (JSON, LOG_LEVEL info) since the mark. */
let output = '';
const logSince = (mark: number) => output.slice(mark);

/** Called on every request the content hub receives (to stop it in the middle of a revalidation). */
const hubRequests = new Set<() => void>();
const hub = service(async () => {
  const { server } = await startContentHub({ port: HUB_PORT, dataDir: join(DATA, 'content'), quiet: true });
  server.on('request', () => { for (const on of hubRequests) on(); });
  return closeServer(server);
});
const catalogue = service(async () => closeServer((await startCatalogue({ port: CATALOGUE_PORT, dataDir: join(DATA, 'catalogue'), quiet: true })).server));
/** The scratch folder (dist, identity and ticketing data), made in beforeAll. */
let scratch = '';
let dist = '';
const ISSUER = `http://localhost:${IDENTITY_PORT}/am/oauth2/realms/root/realms/alpha`;
const identity = service(async () => {
  const running = await startIdentity({ port: IDENTITY_PORT, appOrigins: [`http://localhost:${APP}`], dataDir: join(scratch, 'identity'), quiet: true });
  return () => running.close();
});
const ticketing = service(async () => {
  const running = await startTicketing({ port: TICKETING_PORT, issuer: ISSUER, dataDir: join(scratch, 'ticketing'), quiet: true, log: () => {} });
  return () => running.close();
});
/** The OpenSearch stub's indexes live in this engine, so a restart keeps them (as a cluster's disks would). */
const engine = new MemoryOpenSearch();
const opensearch = service(async () => (await startOpenSearchStub({ port: OPENSEARCH_PORT, engine })).close);
const services = [hub, catalogue, identity, ticketing, opensearch];
let server: ChildProcess | null = null;

/** The suite's live release, hard-linked into the scratch dist (retried when a revalidation of the suite replaces it meanwhile). */
async function copyLiveRelease(): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const id = readPointer(E2E_STATIC);
    if (!id) throw new Error(`no live release in ${E2E_STATIC}`);
    const target = join(dist, 'static', 'releases', id);
    try {
      await linkTree(join(E2E_STATIC, 'releases', id), target);
      await publishRelease(join(dist, 'static'), id);
      return id;
    } catch (err) {
      rmSync(target, { recursive: true, force: true });
      if (attempt === 3) throw err;
    }
  }
}

const SEARCH_DOCS: SearchDocument[] = [
  { id: 'faults-1', url: '/en/products/testing-quality/crimp-quality/hm-20', title: 'HM 20 | Komax', description: 'Digital crimp height micrometer', body: 'A crimp height micrometer with a data interface.', site: '', locale: 'en' },
  { id: 'faults-2', url: '/en/about-us', title: 'About us | Komax', description: 'The Komax group', body: 'Wire processing since 1975.', site: '', locale: 'en' },
];

test.beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'komax-service-faults-'));
  dist = join(scratch, 'dist');
  await Promise.all([hub.up(), catalogue.up(), identity.up(), opensearch.up()]);
  await ticketing.up();
  await publishSearchDocuments(SEARCH_DOCS, { engine: 'opensearch', indexDir: '', opensearchUrl: `http://127.0.0.1:${OPENSEARCH_PORT}` });
  // The suite's built app (linked: its packages resolve from the project) and its live release.
  mkdirSync(dist);
  const e2eDist = dirname(E2E_STATIC);
  symlinkSync(join(e2eDist, 'server'), join(dist, 'server'));
  symlinkSync(join(e2eDist, 'client'), join(dist, 'client'));
  await copyLiveRelease();

  const webServerEnv = (config.webServer as { env: Record<string, string> }).env;
  server = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      // The suite's render configuration and origins: a revalidation here plans like one of the suite's server.
      ...webServerEnv,
      PUBLIC_PORT: String(PORT),
      PORT: String(APP),
      DIST_DIR: dist,
      CONTENT_ENDPOINT: `http://127.0.0.1:${HUB_PORT}/graphql`,
      CATALOGUE_ENDPOINT: `http://127.0.0.1:${CATALOGUE_PORT}/graphql`,
      IDENTITY_ISSUER: ISSUER,
      IDENTITY_MANAGEMENT_URL: `http://localhost:${IDENTITY_PORT}/openidm`,
      IDENTITY_INTROSPECTION_CLIENT_ID: INTROSPECTION_CLIENT_ID,
      IDENTITY_INTROSPECTION_CLIENT_SECRET: LOCAL_INTROSPECTION_SECRET,
      // The longest window a read may reuse the provider's answer: the identity test's reads after
      // the provider went down fall well inside it, even on a busy machine.
      IDENTITY_INTROSPECTION_CACHE_SECONDS: '30',
      TICKETING_ENDPOINT: `http://127.0.0.1:${TICKETING_PORT}/graphql`,
      SEARCH_ENGINE: 'opensearch',
      OPENSEARCH_URL: `http://127.0.0.1:${OPENSEARCH_PORT}`,
      UPSTREAM_CONNECT_TIMEOUT_MS: '1000',
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const on = (c: Buffer) => { output += c.toString(); if (/Serving on/.test(output)) resolve(); };
    server!.stdout!.on('data', on);
    server!.stderr!.on('data', on);
    server!.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
  });
});

test.afterAll(async () => {
  server?.kill();
  await Promise.all(services.map((s) => s.down()));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('the content hub down: prerendered pages keep serving, cached records are served stale, the rest is the error page with 503; it recovers by itself', async () => {
  // Rendered on demand (a page parameter): its records are now in the server's data cache.
  const warm = await call('/en/about-us?page=2');
  expect(warm.status).toBe(200);
  expect(warm.headers['x-render']).toBe('on-demand');

  await hub.down();
  for (const path of ['/en', '/de', PRODUCT]) {
    const res = await call(path);
    expect(res.status, path).toBe(200);
    expect(res.headers['x-render'], path).toBe('prerendered');
  }
  const stale = await call('/en/about-us?page=2');
  expect(stale.status).toBe(200);
  expect(stale.text).toContain('<title>About us | Komax</title>');
  expectUnavailablePage(await call('/en/about-us/history?page=2'), 'an uncached page');
  expectUnavailablePage(await call('/de/no-such-page'), 'in German', { title: 'Fehler | Komax', heading: 'Leider ist ein Fehler aufgetreten' });

  await hub.up();
  await expect.poll(async () => (await call('/en/about-us/history?page=2')).status).toBe(200);
  expect((await call('/en/about-us/history?page=2')).text).toContain('<title>History | Komax</title>');
});

test('a revalidation while the content hub is down, or stopping in the middle of it: the previous release stays live and complete, the answer and the log say why', async () => {
  const staticRoot = join(dist, 'static');
  const live = readPointer(staticRoot);
  expect(live).not.toBeNull();

  // Down before the run.
  await hub.down();
  let mark = output.length;
  const refused = await post('/api/revalidate', {}, { 'x-revalidate-secret': REVALIDATE_SECRET });
  expect(refused.status).toBe(503);
  expect(refused.headers['retry-after']).toBe('60');
  expect(JSON.parse(refused.text)).toEqual({ error: 'unavailable', message: 'Revalidation failed, the previous build stays live: the content hub is unavailable (it could not be reached). Try again later.', live });
  expectNothingInternal(refused.text);
  await expect.poll(() => logSince(mark)).toMatch(new RegExp(`"component":"revalidate".*failed, the previous release ${live} stays live: Content hub unreachable`));
  expect(readPointer(staticRoot)).toBe(live);

  // Stopped in the middle of a full run: the hub answers the first requests of the collect, then goes.
  await hub.up();
  let requests = 0;
  const stopAfter = 3;
  const stopped = new Promise<void>((resolve) => {
    const onRequest = () => {
      if (++requests === stopAfter) void hub.down().then(resolve);
    };
    hubRequests.add(onRequest);
  });
  mark = output.length;
  const midway = await post('/api/revalidate', { all: true }, { 'x-revalidate-secret': REVALIDATE_SECRET });
  await stopped;
  hubRequests.clear();
  expect(midway.status).toBe(503);
  expect(JSON.parse(midway.text)).toMatchObject({ error: 'unavailable', message: expect.stringMatching(/^Revalidation failed, the previous build stays live: the content hub is unavailable/), live });
  expect(logSince(mark)).toMatch(/failed, the previous release .* stays live/);
  expect(readPointer(staticRoot)).toBe(live);
  expect(expectOneCompleteRelease(dist, 'after the failed revalidations')).toBe(live);
  const home = await call('/en');
  expect(home.status).toBe(200);
  expect(home.headers['x-render']).toBe('prerendered');
  // The live release's own page (an unchanged page keeps the id of the release that rendered it,
  // which is this one or an earlier one when the output folder has been published to before).
  const liveHome = releaseIdOf(join(staticRoot, 'releases', live!, 'localhost', 'en', 'index.html'));
  expect(liveHome! <= live!, 'rendered by the live release or an earlier one').toBe(true);
  expect(home.text).toContain(`<meta name="release-id" content="${liveHome}">`);
  await hub.up();
});

test('an asset store that accepts connections and never answers: /_image gives up in time instead of holding the request', async () => {
  const sockets = new Set<Socket>();
  const hanging = createTcpServer((s) => { sockets.add(s); s.on('error', () => {}); });
  await new Promise<void>((ok) => hanging.listen(HANGING_ASSETS, '127.0.0.1', ok));
  try {
    const res = await call(`/_image?href=${encodeURIComponent(`http://127.0.0.1:${HANGING_ASSETS}/assets/hero.jpg`)}&w=480&h=270&f=webp&q=90&fit=cover`);
    expect(res.status).toBeGreaterThanOrEqual(500);
    expect(res.text).not.toMatch(/\n\s+at /);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise((ok) => hanging.close(ok));
  }
});

test('the catalogue down: product pages on demand serve what is cached, the rest the error page with 503; it recovers by itself', async () => {
  const warm = await call(`${PRODUCT}?page=2`);
  expect(warm.status).toBe(200);
  expect(warm.headers['x-render']).toBe('on-demand');

  await catalogue.down();
  const prerendered = await call(PRODUCT);
  expect(prerendered.status).toBe(200);
  expect(prerendered.headers['x-render']).toBe('prerendered');
  const stale = await call(`${PRODUCT}?page=2`);
  expect(stale.status).toBe(200);
  expect(stale.text).toContain('<title>HM 20 | Komax</title>');
  expectUnavailablePage(await call(`${OTHER_PRODUCT}?page=2`), 'an uncached product');
  expectUnavailablePage(await call(`${CLASSIFICATION}?page=2`), 'an uncached classification');

  await catalogue.up();
  await expect.poll(async () => (await call(`${OTHER_PRODUCT}?page=2`)).status).toBe(200);
  expect((await call(`${CLASSIFICATION}?page=2`)).status).toBe(200);
});

test('the search backend down: the results page shows the spec\'s text with 502 and the API a clear 502; both recover by themselves', async () => {
  const query = { localeCode: 'en', siteSlug: '', query: 'micrometer' };
  const before = await call('/en/search?q=micrometer');
  expect(before.status).toBe(200);
  expect(before.text).toContain('/en/products/testing-quality/crimp-quality/hm-20');

  await opensearch.down();
  const page = await call('/en/search?q=micrometer');
  expect(page.status).toBe(502);
  expect(page.headers['cache-control']).toBe('no-store');
  expect(page.text).toContain('The search is not available right now. Please try again in a moment.');
  expect(page.text).toMatch(/<a class="btn btn--secondary" href="\/en\/search\?q=micrometer">Try again<\/a>/);
  expectNothingInternal(page.text.replace(/<style[^>]*>[\s\S]*?<\/style>/g, ''));
  const api = await post('/api/search-proxy/search', query);
  expect(api.status).toBe(502);
  expect(JSON.parse(api.text)).toEqual({ error: 'bad-gateway', message: 'The search service failed. Please try again in a moment.' });
  // The page without a query is static and keeps serving.
  expect((await call('/en/search')).status).toBe(200);

  await opensearch.up();
  await expect.poll(async () => (await post('/api/search-proxy/search', query)).status).toBe(200);
  expect(JSON.parse((await post('/api/search-proxy/search', query)).text).total).toBe(1);
  const after = await call('/en/search?q=micrometer');
  expect(after.status).toBe(200);
  expect(after.text).toContain('/en/products/testing-quality/crimp-quality/hm-20');
});

test('the identity provider down: the customer area still opens; a read reuses the provider\'s recent answer about the token, a write gets a clear 503 (the token never passes unchecked); account settings answer a clear 502; it recovers by itself', async () => {
  const tokens = await signIn({ issuer: ISSUER, redirectUri: `http://localhost:${APP}/en/callback`, username: DEMO_USERS.customer, password: DEMO_PASSWORD });
  const bearer = { authorization: `Bearer ${tokens.access_token}` };
  expect((await call('/api/mykomax/session', { headers: bearer })).status).toBe(200);
  expect((await call('/api/account/profile', { headers: bearer })).status).toBe(200);

  await identity.down();
  const shell = await call('/en/mykomax');
  expect(shell.status).toBe(200);
  expect(shell.headers['cache-control']).toBe('no-store');
  // The provider's keys were loaded and this token was introspected moments ago: a read reuses that (≤ 30 s).
  expect((await call('/api/mykomax/session', { headers: bearer })).status).toBe(200);
  // A write always asks the provider, which cannot answer: 503, never the write (its body would be a 422).
  const write = await call('/api/account/profile', { method: 'PATCH', headers: { ...bearer, 'content-type': 'application/json' }, body: '{"firstName":"","lastName":""}' });
  expect(write.status).toBe(503);
  expect(write.headers['retry-after']).toBe('30');
  expect(JSON.parse(write.text)).toEqual({ error: 'unavailable', message: 'The identity provider could not confirm the sign-in right now. Please try again in a moment.' });
  expectNothingInternal(write.text);
  const profile = await call('/api/account/profile', { headers: bearer });
  expect(profile.status).toBe(502);
  expect(JSON.parse(profile.text)).toEqual({ error: 'unavailable', message: 'The account service is not available right now.' });
  expectNothingInternal(profile.text);

  await identity.up();
  // The emulator keeps its grants in memory: its restart signed everybody out (a real provider's
  // would not), so the visitor signs in again; the server itself needs nothing.
  const again = await signIn({ issuer: ISSUER, redirectUri: `http://localhost:${APP}/en/callback`, username: DEMO_USERS.customer, password: DEMO_PASSWORD });
  const renewed = { authorization: `Bearer ${again.access_token}` };
  await expect.poll(async () => (await call('/api/account/profile', { headers: renewed })).status).toBe(200);
  expect((await call('/api/mykomax/session', { headers: renewed })).status).toBe(200);
});

test('ticketing down: the tickets list answers the proxy\'s 503 with a clear message; it recovers by itself', async () => {
  const tokens = await signIn({ issuer: ISSUER, redirectUri: `http://localhost:${APP}/en/callback`, username: DEMO_USERS.customer, password: DEMO_PASSWORD });
  const bearer = { authorization: `Bearer ${tokens.access_token}` };
  const list = () => post('/api/ticketing/graphql', { query: TICKETS_QUERY, variables: { first: 5 } }, bearer);
  const before = await list();
  expect(before.status).toBe(200);
  expect(JSON.parse(before.text).data).toBeTruthy();

  await ticketing.down();
  const down = await list();
  expect(down.status).toBe(503);
  expect(JSON.parse(down.text)).toEqual({ error: 'unavailable', message: 'The ticketing service is not reachable right now. Please try again later.' });
  expectNothingInternal(down.text);
  // The screen itself (the island shows the spec's text for this answer: tickets.spec.ts) keeps opening.
  expect((await call('/en/mykomax/tickets/list')).status).toBe(200);

  await ticketing.up();
  await expect.poll(async () => (await list()).status).toBe(200);
});

test('ticketing down: the tickets screen shows the spec\'s text, and the list again once it is back (a reload, no restart)', async ({ page }) => {
  const SPEC_ERROR = 'We apologize for the inconvenience. An error has occurred. Please try again later';
  // Signed in through the provider's login form, as a visitor would.
  await page.goto(`http://localhost:${APP}/en/mykomax`);
  await page.waitForURL((url) => url.port === String(IDENTITY_PORT));
  await page.locator('#username').fill(DEMO_USERS.customer);
  await page.locator('#password').fill(DEMO_PASSWORD);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(`http://localhost:${APP}/en/mykomax`);
  await page.goto(`http://localhost:${APP}/en/mykomax/tickets/list`);
  const rows = page.locator('tbody tr');
  await expect(rows.first()).toBeVisible();

  await ticketing.down();
  await page.reload();
  await expect(page.getByRole('alert').filter({ hasText: SPEC_ERROR })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Service tickets' })).toBeVisible();
  await expect(rows).toHaveCount(0);

  await ticketing.up();
  await page.reload();
  await expect(rows.first()).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: SPEC_ERROR })).toHaveCount(0);
});
