// The edge (npm run start:edge): nginx in front of two Node instances, over a hard-link copy of
// the suite's live release (no build, no prerender of its own; the built app linked). No browser:
// plain HTTP with the Host header of each site.
//
// - Parity: for a sample of ≥ 500 prerendered routes over every host of the release (and each
//   host's files, misses and dynamic requests), the edge answers what one instance alone answers:
//   status, body and the headers that matter.
// - The rate limits behind the edge count each client nginx forwards (TRUST_PROXY=loopback).
// - One of the two instances killed under traffic: no request fails (nginx retries on the other).
// - A release published under traffic: every answer is the old page or the new one, whole (its
//   body, ETag and CSP from one release), none missing; once the edge serves it, only the new one.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { join } from 'node:path';
import { gunzipSync, gzipSync, brotliCompressSync, brotliDecompressSync, constants as zlibConstants } from 'node:zlib';
import config from '../../playwright.config.ts';
import { startCluster, type RunningCluster } from '../../scripts/edge.ts';
import { ensureNginx } from '../../scripts/system-package.ts';
import { SECURITY_HEADERS } from '../../src/server/http/headers.ts';
import { HOSTS_FILE, linkTree, publishRelease, readPointer, releaseDir, setPointer, newReleaseId, type ReleaseHosts } from '../../src/server/release/release.ts';
import type { BuildMeta, LatestBuild } from '../../src/server/delivery/static-site.ts';
import { test, expect, PORT } from './fixtures/index.ts';

const ROOT = process.cwd();
const E2E_DIST = join(ROOT, process.env.DIST_DIR ?? 'dist');
/** The edge and its two instances: ports of this suite's range nothing else uses. */
const EDGE_PORT = PORT - 10;
const INSTANCE_PORTS = [PORT - 11, PORT - 12];

test.describe.configure({ mode: 'serial' });

let dist = '';
let cluster: RunningCluster | null = null;
let hosts: ReleaseHosts;
let releaseA = '';
/** The sampled routes per host (the copy holds their files). */
const samples = new Map<string, string[]>();
// One keep-alive pool per target, as a browser or a CDN would talk to the edge.
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/** The status of an answer whose body was cut after its head was sent. */
const CUT = -1;

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }

/** A GET to the edge or an instance, with the Host of a site (as the release names it) and gzip accepted. */
function get(port: number, host: string, path: string, headers: Record<string, string> = { 'accept-encoding': 'gzip' }, retried = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: retried ? false : agent, headers: { host: `${host}:${PORT}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      // The head came, the body was cut (its instance killed while it was being sent).
      res.on('aborted', () => resolve({ status: CUT, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // An idle keep-alive connection the server closed as the request went out (nginx's old
      // workers close theirs on a reload): sent again once on a new connection, as browsers do
      // (RFC 9112 9.3.1). A request that failed on a fresh connection fails.
      if (req.reusedSocket && !retried && (err.code === 'ECONNRESET' || err.message === 'socket hang up')) resolve(get(port, host, path, headers, true));
      else reject(err);
    });
    req.end();
  });
}

const decoded = (a: Answer) => (a.headers['content-encoding'] === 'gzip' ? gunzipSync(a.body) : a.headers['content-encoding'] === 'br' ? brotliDecompressSync(a.body) : a.body);

/** The headers whose value must be the same through the edge and from Node alone. */
const SAME_HEADERS = ['content-type', 'content-encoding', 'cache-control', 'content-security-policy', 'x-render', 'vary', 'location', ...Object.keys(SECURITY_HEADERS).map((h) => h.toLowerCase())];

/** The build meta of a host in a release folder. */
function metaOf(releaseFolder: string, host: string): BuildMeta {
  const dir = join(releaseFolder, host, 'builds');
  const latest = JSON.parse(readFileSync(join(dir, 'latest.json'), 'utf8')) as LatestBuild;
  return JSON.parse(readFileSync(join(dir, 'meta', `${latest.id}.json`), 'utf8')) as BuildMeta;
}

/** Every n-th of a sorted list, so the sample spans the whole list. */
const spread = <T>(list: T[], count: number): T[] => (list.length <= count ? list : Array.from({ length: count }, (_, i) => list[Math.floor((i * list.length) / count)]!));

async function pool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const nginxPath = ensureNginx();
  // The built app linked (its packages resolve from the project), the live release hard-linked.
  dist = mkdtempSync(join(ROOT, 'dist-edge-'));
  symlinkSync(join(E2E_DIST, 'server'), join(dist, 'server'));
  symlinkSync(join(E2E_DIST, 'client'), join(dist, 'client'));
  releaseA = readPointer(join(E2E_DIST, 'static'))!;
  expect(releaseA, 'the suite has a live release').toBeTruthy();
  const suiteRelease = releaseDir(join(E2E_DIST, 'static'), releaseA);
  hosts = JSON.parse(readFileSync(join(suiteRelease, HOSTS_FILE), 'utf8')) as ReleaseHosts;
  // The sampled routes' files, each host's manifests and own files: a copy of the release in
  // which every other route has no file (Node renders those on demand, through the edge too).
  const keepDirs = new Set<string>();
  const keepFiles = new Set<string>();
  for (const host of Object.keys(hosts.hosts)) {
    const routes = Object.keys(metaOf(suiteRelease, host).routes).sort();
    samples.set(host, spread(routes, host === hosts.main ? 420 : 60));
    keepDirs.add(host);
    for (const route of samples.get(host)!) {
      const parts = route.split('/').filter(Boolean);
      for (let i = 1; i <= parts.length; i++) keepDirs.add([host, ...parts.slice(0, i)].join('/'));
      keepFiles.add([host, ...parts].join('/'));
    }
  }
  const keep = (rel: string) => {
    const parent = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
    return parent === '' || keepDirs.has(rel) || keepFiles.has(parent) || /^[^/]+\/builds(?:\/|$)/.test(rel) || (!parent.includes('/') && !keepDirs.has(rel) && /\.[a-z]+$/.test(rel));
  };
  await linkTree(suiteRelease, releaseDir(join(dist, 'static'), releaseA), { skip: (rel) => !keep(rel) });
  await setPointer(join(dist, 'static'), 'live', releaseA);
  const webServerEnv = (config.webServer as { env: Record<string, string> }).env;
  cluster = await startCluster({
    root: ROOT, dist, nginxPath, prefix: join(dist, 'edge'), port: EDGE_PORT, workers: 2, upstreamPorts: INSTANCE_PORTS,
    env: { ...webServerEnv, PUBLIC_PORT: String(PORT), LOG_LEVEL: 'error' }, quiet: true,
  });
});

test.afterAll(async () => {
  await cluster?.close();
  agent.destroy();
  // Tens of thousands of links: removed in the background, the run does not wait for it.
  if (dist) spawn('rm', ['-rf', dist], { detached: true, stdio: 'ignore' }).unref();
});

test('the edge answers what one instance alone answers: ≥ 500 routes over every host, their files, misses and dynamic requests', async () => {
  const siteHosts = Object.keys(hosts.hosts);
  expect(siteHosts.length).toBeGreaterThan(1);
  const cases: { host: string; path: string; page: boolean; headers?: Record<string, string> }[] = [];
  for (const host of siteHosts) {
    const sample = samples.get(host)!;
    for (const path of sample) cases.push({ host, path, page: true });
    // The same pages without compression, with a query no policy knows, with a matching If-None-Match;
    // in br as a browser asks, when the edge has the brotli module (Debian's, which the edge installs).
    for (const path of sample.slice(0, 3)) {
      cases.push({ host, path, page: true, headers: {} });
      cases.push({ host, path: `${path}?utm_source=edge`, page: true });
      if (cluster!.edge.brotli) cases.push({ host, path, page: true, headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    }
    const payload = sample.find((p) => p !== '/');
    cases.push(
      { host, path: '/sitemap.xml', page: false },
      { host, path: '/robots.txt', page: false },
      { host, path: `${payload}/_payload.json`, page: false },
      { host, path: `${payload}/`, page: false },
      { host, path: '/builds/no-such-build.json', page: false },
      { host, path: '/_astro/no-such-asset.js', page: false },
      { host, path: `${payload}?nextRelease=1`, page: false },
    );
  }
  expect(cases.filter((c) => c.page).length).toBeGreaterThanOrEqual(500);
  const [instance] = INSTANCE_PORTS;
  const differences: string[] = [];
  await pool(cases, 8, async (c) => {
    const [edge, node] = await Promise.all([get(EDGE_PORT, c.host, c.path, c.headers), get(instance!, c.host, c.path, c.headers)]);
    const where = `${c.host}${c.path}${c.headers ? ` (accept-encoding: ${c.headers['accept-encoding'] ?? 'none'})` : ''}`;
    if (edge.status !== node.status) differences.push(`${where}: status ${edge.status} at the edge, ${node.status} from Node`);
    for (const h of SAME_HEADERS) {
      if (edge.headers[h] !== node.headers[h]) differences.push(`${where}: ${h} ${JSON.stringify(edge.headers[h])} at the edge, ${JSON.stringify(node.headers[h])} from Node`);
    }
    if (c.page) {
      if (edge.headers['x-render'] !== 'prerendered') differences.push(`${where}: not served from the release`);
      if (edge.headers.etag !== node.headers.etag) differences.push(`${where}: ETag ${edge.headers.etag} at the edge, ${node.headers.etag} from Node`);
      if (!decoded(edge).equals(decoded(node))) differences.push(`${where}: the bodies differ`);
    } else if (edge.status === 200 && node.headers['x-render'] !== 'on-demand' && !decoded(edge).equals(decoded(node))) {
      differences.push(`${where}: the bodies differ`);
    }
  });
  expect(differences).toEqual([]);
  // A revalidation by the browser: the page's ETag (in the coding sent) gives a 304 at the edge as from Node.
  const [first] = cases;
  const page = await get(EDGE_PORT, first!.host, first!.path);
  for (const port of [EDGE_PORT, instance!]) {
    expect((await get(port, first!.host, first!.path, { 'accept-encoding': 'gzip', 'if-none-match': String(page.headers.etag) })).status, `port ${port}`).toBe(304);
  }
  if (cluster!.edge.brotli) {
    const br = await get(EDGE_PORT, first!.host, first!.path, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    for (const port of [EDGE_PORT, instance!]) {
      expect((await get(port, first!.host, first!.path, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) })).status, `port ${port}`).toBe(304);
    }
  }
});

test('a release published under traffic: each answer is the old page or the new one, whole; then only the new one', async () => {
  test.setTimeout(90_000);
  const host = hosts.main!;
  const metaA = metaOf(releaseDir(join(dist, 'static'), releaseA), host);
  // Half the pages are first asked for only once the release is published: nginx has nothing
  // of theirs open or cached then, and an edge reading the new files with the old rules shows.
  const pages = spread(samples.get(host)!, 24);
  const active = pages.slice(0, 12);
  // Release B: the same files (hard links), the sampled pages changed (new files, never written in place).
  const staticRoot = join(dist, 'static');
  const releaseB = newReleaseId();
  // Made beside the output and moved in complete (an instance's clean-up removes unfinished releases).
  const dirB = join(dist, `release-${releaseB}`);
  await linkTree(releaseDir(staticRoot, releaseA), dirB);
  const metaB: BuildMeta = structuredClone(metaA);
  const before = new Map<string, Buffer>();
  const after = new Map<string, Buffer>();
  const replace = (file: string, bytes: Buffer) => { writeFileSync(`${file}.tmp`, bytes); renameSync(`${file}.tmp`, file); };
  for (const path of pages) {
    const file = join(dirB, host, path === '/' ? '' : path, 'index.html');
    const old = readFileSync(file);
    const changed = Buffer.from(old.toString('utf8').replace('</body>', `<p data-release="${releaseB}">${path}</p></body>`));
    before.set(path, old);
    after.set(path, changed);
    replace(file, changed);
    replace(`${file}.gz`, gzipSync(changed));
    replace(`${file}.br`, brotliCompressSync(changed, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } }));
    metaB.routes[path] = { ...metaB.routes[path]!, fingerprint: `${metaA.routes[path]!.fingerprint}B` };
  }
  const latest = JSON.parse(readFileSync(join(dirB, host, 'builds/latest.json'), 'utf8')) as LatestBuild;
  mkdirSync(join(dirB, host, 'builds/meta'), { recursive: true });
  replace(join(dirB, host, 'builds/meta', `${latest.id}.json`), Buffer.from(JSON.stringify(metaB)));
  // Its compressed siblings are only for HTTP clients of /builds/ (none here): not rewritten, removed.
  for (const sibling of ['.gz', '.br']) rmSync(join(dirB, host, 'builds/meta', `${latest.id}.json${sibling}`), { force: true });

  renameSync(dirB, releaseDir(staticRoot, releaseB));

  const problems: string[] = [];
  let served = 0;
  let sinceSwitch = 0;
  let switched = false;
  const check = async (path: string) => {
    const startedAfter = switched;
    const a = await get(EDGE_PORT, host, path).catch((err: Error) => ({ status: 0, headers: {}, body: Buffer.from(err.message) }) as Answer);
    served++;
    if (switched) sinceSwitch++;
    if (a.status !== 200) return void problems.push(`${path}: ${a.status} ${a.body.toString().slice(0, 80)}`);
    const body = decoded(a);
    const isOld = body.equals(before.get(path)!);
    const isNew = body.equals(after.get(path)!);
    const etag = a.headers.etag;
    if (isOld && etag !== `"${metaA.routes[path]!.fingerprint}-gzip"`) problems.push(`${path}: the old page with the ETag ${etag}`);
    else if (isNew && etag !== `"${metaB.routes[path]!.fingerprint}-gzip"`) problems.push(`${path}: the new page with the ETag ${etag}`);
    else if (!isOld && !isNew) problems.push(`${path}: neither the old page nor the new one`);
    else if (isOld && startedAfter) problems.push(`${path}: the old page after the edge serves the new release`);
  };
  // Traffic over the changed pages until the switch is done and every page was asked again after it.
  let stop = false;
  const traffic = Promise.all(Array.from({ length: 6 }, async (_, w) => {
    for (let i = w; !stop; i++) await check(active[i % active.length]!);
  }));
  await expect.poll(() => served, { timeout: 30_000 }).toBeGreaterThan(50);
  await publishRelease(staticRoot, releaseB);
  active.push(...pages.slice(12));
  await cluster!.edge.serving(releaseB);
  // What the instances read before a revalidation answers (EDGE_SERVING_FILE): the edge serves B.
  expect(readFileSync(join(dist, 'edge', 'serving'), 'utf8')).toBe(releaseB);
  switched = true;
  await expect.poll(() => sinceSwitch, { timeout: 30_000 }).toBeGreaterThan(pages.length * 4);
  stop = true;
  await traffic;
  expect(problems).toEqual([]);
  expect(cluster!.edge.release).toBe(releaseB);
});

/** A revalidation webhook with a wrong secret, posted to the edge from a loopback address of its own (a client of its own, as nginx sees it). */
function postWrongSecret(from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: EDGE_PORT, localAddress: from, method: 'POST', path: '/api/revalidate', agent: false, headers: { host: `${hosts.main}:${PORT}`, 'content-type': 'application/json', 'x-revalidate-secret': 'not-the-secret', 'x-forwarded-for': '203.0.113.1' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

test('the instances count each client nginx forwards on its own for their rate limits (TRUST_PROXY), never what a client claims', async () => {
  // Two loopback addresses of this run's own (a retry within the minute gets fresh ones, with shared counters too).
  const octet = () => 1 + Math.floor(Math.random() * 254);
  const [a, b] = [`127.${octet()}.${octet()}.2`, `127.${octet()}.${octet()}.3`];
  // 25 wrong secrets from one client: past the wrong-secret budget (10 a minute) on each instance, whichever nginx picked.
  const first: number[] = [];
  for (let i = 0; i < 25; i++) first.push(await postWrongSecret(a));
  expect(first.slice(0, 10), 'the first 10 are checked').toEqual(Array(10).fill(401));
  expect(first.slice(-4)).toEqual([429, 429, 429, 429]);
  // Another client (its own X-Forwarded-For claim is overwritten by nginx, as the first's was) has its own budget.
  expect(await postWrongSecret(b)).toBe(401);
});

test('one of the two instances killed under traffic: no request fails', async () => {
  test.setTimeout(90_000);
  const host = hosts.main!;
  const routes = spread(samples.get(host)!, 20);
  // Static pages, and requests only Node answers: on-demand renders (a miss, a dynamic query) and an API.
  const paths = [...routes, '/en/no-such-page-for-the-edge', `${routes[1]}?nextRelease=1`, '/api/news-feed'];
  const expected = new Map<string, number>();
  for (const p of paths) {
    const a = await get(EDGE_PORT, host, p);
    expected.set(p, a.status);
    if (!routes.includes(p)) expect(a.headers['x-render'] ?? 'not a page', `${p} is Node's`).not.toBe('prerendered');
  }
  const failures: string[] = [];
  const cut: string[] = [];
  let done = 0;
  let stop = false;
  let killed = false;
  const CONNECTIONS = 8;
  const traffic = Promise.all(Array.from({ length: CONNECTIONS }, async (_, w) => {
    for (let i = w; !stop; i++) {
      const p = paths[i % paths.length]!;
      const sentAfterKill = killed;
      const a = await get(EDGE_PORT, host, p).catch((err: Error) => ({ status: 0, headers: {}, body: Buffer.from(err.message) }) as Answer);
      done++;
      // An answer the killed instance was sending when it died cannot be taken back by any proxy
      // (its head is with the client): at most one per connection in flight, never one sent after.
      if (a.status === CUT && !sentAfterKill) cut.push(p);
      else if (a.status !== expected.get(p)) failures.push(`${p}: ${a.status === CUT ? 'cut' : a.status} instead of ${expected.get(p)}${a.status === 0 ? ` (${a.body.toString()})` : ''}${sentAfterKill ? ' (sent after the kill)' : ''}`);
    }
  }));
  await expect.poll(() => done, { timeout: 30_000 }).toBeGreaterThan(100);
  const victim = cluster!.instances[0]!;
  victim.process.kill('SIGKILL');
  await victim.exited;
  killed = true;
  const atKill = done;
  await expect.poll(() => done - atKill, { timeout: 60_000 }).toBeGreaterThan(300);
  stop = true;
  await traffic;
  expect(failures).toEqual([]);
  expect(cut.length, `answers cut by the kill: ${cut.join(', ')}`).toBeLessThanOrEqual(CONNECTIONS);
  if (cut.length) test.info().annotations.push({ type: 'cut by the kill', description: cut.join(', ') });
});
