// No write that is reported as failed but happened (issue 28, item 4): a service hung and then
// resumed. The first attempt times out (the service got the request and does the work when it
// resumes, after our server gave up); the screen says truthfully that it is not known whether it
// was saved; the retry with the same idempotency key gets the first result; the list shows one
// ticket and one form submission, not two. And an upload the visitor stops sending gets 408 with
// a text saying the upload stalled.
//
// A stack of its own (ports E2E_PORT-280 … -287): the content hub, catalogue, identity and
// ticketing emulators in this worker, the hub and ticketing behind a relay that can hold every
// byte (a service that hangs) and let it through later (it resumes), and the server
// (src/server/main.ts over the suite's built app) as a child process over a scratch DIST_DIR whose
// live release is a hard-link copy of the suite's, as in service-faults.spec.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import config from '../../playwright.config.ts';
import { startCatalogue } from '../../emulators/catalogue/server.ts';
import { startContentHub } from '../../emulators/content-hub/server.ts';
import { signIn } from '../../emulators/identity/login-flow.ts';
import { INTROSPECTION_CLIENT_ID, LOCAL_INTROSPECTION_SECRET, startIdentity } from '../../emulators/identity/server.ts';
import { startPausableProxy, type PausableProxy } from '../../emulators/shared/pausable-proxy.ts';
import { startTicketing, type RunningTicketing } from '../../emulators/ticketing/server.ts';
import { linkTree, publishRelease, readPointer } from '../../src/server/release/release.ts';
import { test, expect, PORT } from './fixtures/index.ts';
import { DEMO_PASSWORD, DEMO_USERS } from './fixtures/identity.ts';

const HUB_PORT = PORT - 280;
const HUB_RELAY = PORT - 281;
const CATALOGUE_PORT = PORT - 282;
const IDENTITY_PORT = PORT - 283;
const TICKETING_PORT = PORT - 284;
const TICKETING_RELAY = PORT - 285;
const APP = PORT - 286;
const TIMEOUT_MS = 2000;
const ROOT = process.cwd();
const DATA = join(dirname(fileURLToPath(import.meta.url)), '../../emulators/data');
const E2E_DIST = join(ROOT, process.env.DIST_DIR ?? 'dist');
const ISSUER = `http://localhost:${IDENTITY_PORT}/am/oauth2/realms/root/realms/alpha`;
const UNKNOWN_TICKET = 'We do not know whether this was saved: the service did not answer in time. It is safe to send it again: it will not be saved twice.';
const UNKNOWN_FORM = 'We do not know whether your request was received: the service did not answer in time. It is safe to send it again: it will not be stored twice.';

test.describe.configure({ mode: 'serial' });

let scratch = '';
let server: ChildProcess | null = null;
let output = '';
let hub: Awaited<ReturnType<typeof startContentHub>> | null = null;
let ticketing: RunningTicketing | null = null;
let hubRelay: PausableProxy;
let ticketingRelay: PausableProxy;
const stops: (() => Promise<void>)[] = [];

interface Answer { status: number; text: string }
function call(path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: APP, path, method: opts.method ?? 'GET', agent: false, headers: { host: `localhost:${APP}`, ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  scratch = mkdtempSync(join(tmpdir(), 'komax-idempotency-'));
  const dist = join(scratch, 'dist');
  hub = await startContentHub({ port: HUB_PORT, dataDir: join(DATA, 'content'), quiet: true });
  stops.push(() => new Promise<void>((ok) => { hub!.server.closeAllConnections(); hub!.server.close(() => ok()); }));
  const catalogue = await startCatalogue({ port: CATALOGUE_PORT, dataDir: join(DATA, 'catalogue'), quiet: true });
  stops.push(() => new Promise<void>((ok) => { catalogue.server.closeAllConnections(); catalogue.server.close(() => ok()); }));
  const identity = await startIdentity({ port: IDENTITY_PORT, appOrigins: [`http://localhost:${APP}`], dataDir: join(scratch, 'identity'), quiet: true });
  stops.push(() => identity.close());
  ticketing = await startTicketing({ port: TICKETING_PORT, issuer: ISSUER, dataDir: join(scratch, 'ticketing'), quiet: true, log: () => {} });
  stops.push(() => ticketing!.close());
  hubRelay = await startPausableProxy(HUB_PORT, { port: HUB_RELAY });
  ticketingRelay = await startPausableProxy(TICKETING_PORT, { port: TICKETING_RELAY });
  stops.push(() => hubRelay.close(), () => ticketingRelay.close());

  // The suite's built app (linked: its packages resolve from the project) and its live release.
  mkdirSync(dist);
  symlinkSync(join(E2E_DIST, 'server'), join(dist, 'server'));
  symlinkSync(join(E2E_DIST, 'client'), join(dist, 'client'));
  if (existsSync(join(E2E_DIST, 'search'))) symlinkSync(join(E2E_DIST, 'search'), join(dist, 'search'));
  const id = readPointer(join(E2E_DIST, 'static'));
  if (!id) throw new Error(`no live release in ${E2E_DIST}/static`);
  await linkTree(join(E2E_DIST, 'static', 'releases', id), join(dist, 'static', 'releases', id));
  await publishRelease(join(dist, 'static'), id);

  const webServerEnv = (config.webServer as { env: Record<string, string> }).env;
  server = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...webServerEnv,
      PUBLIC_PORT: String(PORT),
      PORT: String(APP),
      DIST_DIR: dist,
      CONTENT_ENDPOINT: `http://127.0.0.1:${HUB_RELAY}/graphql`,
      CATALOGUE_ENDPOINT: `http://127.0.0.1:${CATALOGUE_PORT}/graphql`,
      IDENTITY_ISSUER: ISSUER,
      IDENTITY_MANAGEMENT_URL: `http://localhost:${IDENTITY_PORT}/openidm`,
      // Our APIs ask the provider whether a token is active (its introspection client).
      IDENTITY_INTROSPECTION_CLIENT_ID: INTROSPECTION_CLIENT_ID,
      IDENTITY_INTROSPECTION_CLIENT_SECRET: LOCAL_INTROSPECTION_SECRET,
      TICKETING_ENDPOINT: `http://127.0.0.1:${TICKETING_RELAY}/graphql`,
      UPSTREAM_CONNECT_TIMEOUT_MS: '1000',
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      UPLOAD_IDLE_TIMEOUT_MS: '1000',
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
  hubRelay?.resume();
  ticketingRelay?.resume();
  server?.kill();
  for (const stop of stops.reverse()) await stop().catch(() => {});
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const ticketsWithSubject = (subject: string) =>
  (ticketing!.store.db.prepare('SELECT id FROM tickets WHERE subject = ?').all(subject) as { id: string }[]).map((r) => r.id);

test('a new ticket while ticketing hangs: the screen says it is not known whether it was saved; sent again once the service resumed, it is the one ticket the service made, and the list shows one', async ({ page }) => {
  await page.goto(`http://localhost:${APP}/en/mykomax`);
  await page.waitForURL((url) => url.port === String(IDENTITY_PORT));
  await page.locator('#username').fill(DEMO_USERS.customer);
  await page.locator('#password').fill(DEMO_PASSWORD);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(`http://localhost:${APP}/en/mykomax`);

  await page.goto(`http://localhost:${APP}/en/mykomax/tickets/newticket`);
  const subject = `Hung then resumed ${Date.now()}`;
  await page.getByLabel('Location').selectOption({ label: 'Dierikon plant (Dierikon)' });
  await page.getByLabel('Ticket type').selectOption({ label: 'Repair' });
  await page.getByLabel('Machine concerned').selectOption({ index: 1 });
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Description').fill('The first attempt timed out.');

  ticketingRelay.pause();
  await page.getByRole('button', { name: 'Create ticket' }).click();
  // Our server gave up (504): the screen does not claim the ticket was not created.
  await expect(page.getByRole('alert').filter({ hasText: UNKNOWN_TICKET })).toBeVisible();
  expect(ticketsWithSubject(subject)).toEqual([]);

  // The service resumes and works through the request it held: the ticket now exists.
  ticketingRelay.resume();
  await expect.poll(() => ticketsWithSubject(subject).length).toBe(1);
  const [made] = ticketsWithSubject(subject);

  // The visitor follows the advice and sends it again: the same key, the same ticket.
  await page.getByRole('button', { name: 'Create ticket' }).click();
  await page.waitForURL(/\/en\/mykomax\/tickets\/SR-\d+$/);
  expect(page.url().split('/').pop()).toBe(made);
  await expect(page.getByRole('heading', { level: 2, name: subject })).toBeVisible();
  expect(ticketsWithSubject(subject)).toEqual([made]);

  await page.goto(`http://localhost:${APP}/en/mykomax/tickets/list?q=${encodeURIComponent(subject)}`);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  await expect(page.locator('tbody tr').first()).toContainText(made!);
});

test('a contact form while the content hub hangs: 504 with "not known whether it was received"; the retry with the same key after it resumed is the stored one, stored once', async () => {
  const contact = { lang: 'en', name: 'Ada Lovelace', email: 'ada@example.com', company: 'AE', country: 'CH', topic: 'products', message: `Hung hub ${Date.now()}`, consent: true };
  const stored = async () => {
    const res = await fetch(hub!.url, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query { formSubmissions(kind: "contact", first: 500) { id fields { name value } } }' }),
    });
    const body = (await res.json()) as { data: { formSubmissions: { id: string; fields: { name: string; value: string }[] }[] } };
    return body.data.formSubmissions.filter((s) => s.fields.some((f) => f.name === 'message' && f.value === contact.message)).map((s) => s.id);
  };
  const send = (key: string) => call('/api/forms/contact', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(contact) });
  // The server's system data (countries) is loaded before the hub hangs.
  expect((await call('/api/forms/contact', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"lang":"en"}' })).status).toBe(400);

  const key = `"${randomUUID()}"`;
  hubRelay.pause();
  const first = await send(key);
  expect(first.status).toBe(504);
  expect(JSON.parse(first.text)).toEqual({ ok: false, error: 'upstream-timeout', message: UNKNOWN_FORM });

  hubRelay.resume();
  await expect.poll(async () => (await stored()).length).toBe(1);
  const retry = await send(key);
  expect(retry.status).toBe(200);
  expect(JSON.parse(retry.text)).toMatchObject({ ok: true });
  expect((await stored()).length).toBe(1);
  // Once more, for good measure: the first answer again, nothing new stored.
  expect((await send(key)).status).toBe(200);
  expect((await stored()).length).toBe(1);
});

test('an upload the visitor stops sending: 408 saying the upload stalled, not that the service is unreachable', async () => {
  const tokens = await signIn({ issuer: ISSUER, redirectUri: `http://localhost:${APP}/en/callback`, username: DEMO_USERS.customer, password: DEMO_PASSWORD });
  const answer = await new Promise<Answer>((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: APP, path: '/api/ticketing/graphql', method: 'POST', agent: false,
      // As the browser sends it (a form-like type needs its Origin: Astro's checkOrigin).
      headers: {
        host: `localhost:${APP}`, origin: `http://localhost:${APP}`, authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'multipart/form-data; boundary=xyz', 'transfer-encoding': 'chunked',
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => { req.destroy(); resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }); });
    });
    req.on('error', reject);
    // The start of a file, then nothing more: the visitor's connection stalled.
    req.write('--xyz\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":"mutation Add($ticketId: ID!, $file: Upload!) { addAttachment(ticketId: $ticketId, file: $file) { attachment { id } } }"');
  });
  expect(answer.status).toBe(408);
  const body = JSON.parse(answer.text) as { message: string };
  expect(body.message).toBe('The upload stalled: no data arrived from your browser for a while, so it was stopped and nothing was saved. Check your connection and send it again.');
  expect(body.message).not.toMatch(/not reachable/);
});
