// Two server instances over one release tree and one Redis (issue 31, item 3): a webhook sent to
// either is run by one writer, and the other instance serves the new page and finds it in its own
// search; a rate limit counts the hits on both. No browser: two `node src/server/main.ts` processes
// (each its own memory, as in production) over a scratch DIST_DIR with the suite's built app
// linked, against emulators of their own over the small dataset (fixtures/small-dataset.ts, ~500
// routes: a full prerender takes seconds) and a redis-server of its own (tests/support/redis.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulators, type RunningEmulators } from '../../emulators/start.ts';
import { ensureRedisServer, startRedis, type RunningRedis } from '../support/redis.ts';
import { test, expect, PORT, hubAt, DATA, REVALIDATE_SECRET } from './fixtures/index.ts';
import { writeSmallDataset } from './fixtures/small-dataset.ts';

const ROOT = process.cwd();
const E2E_DIST = join(ROOT, process.env.DIST_DIR ?? 'dist');
const [HUB, CATALOGUE, IDENTITY, TICKETING, A, B] = [PORT - 230, PORT - 231, PORT - 232, PORT - 233, PORT - 234, PORT - 235];
const PAGE = DATA.englishOnlyPage;
const redisServer = ensureRedisServer();

let emulators: RunningEmulators | null = null;
let redis: RunningRedis | null = null;
let dist = '';
const servers: ChildProcess[] = [];

/** `node src/server/main.ts` on `port`; resolves once it serves. */
async function startInstance(port: number): Promise<void> {
  const child = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env, CI: '1', PORT: String(port), DIST_DIR: dist, REDIS_URL: redis!.url, REVALIDATE_SECRET, LOG_LEVEL: 'info', UPSTREAM_TIMEOUT_MS: '30000',
      // Both write the same pages (links to one public origin), whichever runs the queue.
      PUBLIC_PORT: String(A),
      CONTENT_ENDPOINT: emulators!.contentEndpoint, CATALOGUE_ENDPOINT: emulators!.catalogueEndpoint, SEARCH_INDEX_DIR: join(dist, 'search'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push(child);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const on = (c: Buffer) => { output += c.toString(); if (/Serving on/.test(output)) resolve(); };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (code) => reject(new Error(`server on ${port} exited with ${code}:\n${output}`)));
  });
}

const revalidate = (port: number, body: unknown, secret = REVALIDATE_SECRET) => fetch(`http://127.0.0.1:${port}/api/revalidate`, {
  method: 'POST', headers: { 'content-type': 'application/json', 'x-revalidate-secret': secret }, body: JSON.stringify(body),
});
/** How many pages an instance's search finds for `query` (-1 while it has no index: 503). */
const found = async (port: number, query: string): Promise<number> => {
  const res = await fetch(`http://127.0.0.1:${port}/api/search-proxy/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ localeCode: 'en', siteSlug: '', query }) });
  if (res.status !== 200) return -1;
  return ((await res.json()) as { total: number }).total;
};

test.describe('several instances sharing Redis', () => {
  test.skip('skip' in redisServer, 'skip' in redisServer ? redisServer.skip : '');

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dist = mkdtempSync(join(tmpdir(), 'komax-shared-state-'));
    symlinkSync(join(E2E_DIST, 'server'), join(dist, 'server'));
    symlinkSync(join(E2E_DIST, 'client'), join(dist, 'client'));
    const data = join(dist, 'data');
    [emulators, redis] = await Promise.all([
      startEmulators({
        ports: { contentHub: HUB, catalogue: CATALOGUE }, identityPort: IDENTITY, ticketingPort: TICKETING,
        identityDataDir: join(data, 'identity'), ticketingDataDir: join(data, 'ticketing'), formsDataDir: join(data, 'forms'),
        ...writeSmallDataset(data), quiet: true,
      }),
      startRedis((redisServer as { path: string }).path),
    ]);
    await Promise.all([startInstance(A), startInstance(B)]);
  });

  test.afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise<void>((ok) => {
      if (s.exitCode !== null || s.signalCode !== null) return ok();
      s.once('exit', () => ok());
      s.kill();
    })));
    await emulators?.close();
    await redis?.stop();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  test('a webhook to either instance is run by one writer; the other serves the new page and its search finds it', async () => {
    test.setTimeout(120_000);
    const word = `quokkafest${randomBytes(3).toString('hex')}`;
    const title = `Trade fair ${word}`;
    await hubAt(emulators!.contentEndpoint, 'mutation($id: ID!, $t: String!) { updatePageTitle(id: $id, language: "en", title: $t) { id } }', { id: PAGE.id, t: title });
    // The content hub's webhook reaches both instances at once (the first release: nothing is
    // published yet, B has no search index). One writer runs them (the file lock would refuse a
    // second one with 409), and each is answered with its run's result.
    const answers = await Promise.all([revalidate(A, { ids: [PAGE.id] }), revalidate(B, { ids: [PAGE.id] })]);
    for (const res of answers) expect(res.status, await res.clone().text()).toBe(200);

    // B serves the page of the new release and finds it in its own search; so does A.
    const page = await fetch(`http://127.0.0.1:${B}/en${PAGE.path}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(title);
    await expect.poll(() => found(B, word)).toBeGreaterThan(0);
    await expect.poll(() => found(A, word)).toBeGreaterThan(0);
  });

  test('a rate limit counts a client\'s requests on both instances', async () => {
    // Wrong secrets: 10 a minute per client (src/server/revalidate/revalidate.ts WRONG_SECRET_LIMIT), all on A.
    for (let i = 0; i < 10; i++) expect((await revalidate(A, {}, 'not-the-secret-0123456789')).status).toBe(401);
    const eleventh = await revalidate(B, {}, 'not-the-secret-0123456789');
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
