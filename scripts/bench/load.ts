// npm run bench:load [-- --duration 60] [-- --connections 200] [-- --soak] [-- --warmup 10] [-- --port 6400] [-- --prerender] [-- --inspect 9229] [-- --edge]
// Mixed traffic against the real server on loopback, with the emulators behind it: 70 % prerendered
// pages across the hosts and locales of the live release, 20 % search API (search and suggest,
// varied queries), 10 % on-demand answers (404s of ever new paths, redirects, customer-area
// shells). Prints requests/s, p50/p99 (overall and per kind), errors by status (an answer other
// than the one expected for that request: an expected 404 is no error) and the server's RSS at the
// start, the middle and the end of the run, beside the targets. --soak runs 10 minutes and prints
// a line per minute. Builds when the sources changed, prerenders when dist/ has no release (or
// with --prerender); never fails on a number. Ports: --port P for the server, P-1 … P-4 for the emulators.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildIfNeeded, distDir } from '../build-if-needed.ts';
import { hasPublishedRelease } from '../../src/server/boot/startup.ts';
import { CUSTOMER_AREA_PATHS } from '../../src/features/customer-area/paths.ts';
import type { BuildMeta, LatestBuild } from '../../src/server/delivery/static-site.ts';
import type { ReleaseHosts } from '../../src/server/release/release.ts';
import { arg, flag, loadNow, pad, rssMiB, send, spawnServer, waitFor } from './common.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SOAK = flag('soak');
const DURATION = Number(arg('duration', SOAK ? '600' : '60'));
const CONNECTIONS = Number(arg('connections', '200'));
const WARMUP = Number(arg('warmup', '10'));
const PORT = Number(arg('port', '6400'));
/** Targets printed beside the figures (never enforced). */
const TARGET_P99_MS = 100;
const TARGET_RSS_GROWTH = 0.05;

const children: ChildProcess[] = [];
const work = mkdtempSync(join(tmpdir(), 'komax-bench-load-'));
const cleanup = () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
};
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));

// ---------------------------------------------------------------------------------------------
// 1. The app, the emulators (in a process of their own: the load generator's event loop stays
//    free), and a release of this build.
const dist = distDir(root);
buildIfNeeded(root);

/** Starts the emulators as `npm start` does (scripts/local.ts), on P-1 … P-4, with throwaway data folders. */
async function startEmulatorProcess(): Promise<Record<string, string>> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `
    const { startLocalEmulators } = await import(${JSON.stringify(join(root, 'scripts/local.ts'))});
    await startLocalEmulators();
    const keys = ['CONTENT_ENDPOINT', 'CATALOGUE_ENDPOINT', 'IDENTITY_ISSUER', 'IDENTITY_MANAGEMENT_URL', 'IDENTITY_INTROSPECTION_CLIENT_ID', 'IDENTITY_INTROSPECTION_CLIENT_SECRET', 'TICKETING_ENDPOINT'];
    process.send(Object.fromEntries(keys.map((k) => [k, process.env[k]])));
    process.on('disconnect', () => process.exit(0));
  `], {
    env: {
      ...process.env, CI: '1', PORT: String(PORT),
      CONTENT_HUB_PORT: String(PORT - 1), CATALOGUE_PORT: String(PORT - 2), IDENTITY_PORT: String(PORT - 3), TICKETING_PORT: String(PORT - 4),
      IDENTITY_DATA_DIR: join(work, 'identity'), TICKETING_DATA_DIR: join(work, 'ticketing'), FORMS_DATA_DIR: join(work, 'forms'),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as Record<string, string>));
    child.once('exit', (code) => reject(new Error(`the emulators exited (${code}) before they were ready`)));
  });
}

if (process.env.CONTENT_ENDPOINT) {
  console.log(`services: CONTENT_ENDPOINT=${process.env.CONTENT_ENDPOINT} (no emulators started)`);
} else {
  const endpoints = await startEmulatorProcess();
  Object.assign(process.env, endpoints);
  console.log(`emulators: content hub ${endpoints.CONTENT_ENDPOINT}, catalogue ${endpoints.CATALOGUE_ENDPOINT}`);
}
// A release of an earlier build serves the same way (its pages were rendered by the older code):
// --prerender brings it up to date (npm start does that incrementally too).
if (!hasPublishedRelease(dist) || flag('prerender')) {
  process.env.PORT = String(PORT);
  const { runPrerenderCli } = await import('../prerender.ts');
  await runPrerenderCli({ rethrow: true });
}
const release = realpathSync(join(dist, 'static/live'));
const hosts = JSON.parse(readFileSync(join(release, 'hosts.json'), 'utf8')) as ReleaseHosts;
const mainHost = hosts.main ?? Object.keys(hosts.hosts)[0] ?? 'localhost';

// ---------------------------------------------------------------------------------------------
// 2. The requests: a weighted, shuffled sequence every connection goes through in turn.
type Kind = 'page' | 'search' | 'suggest' | 'notFound' | 'redirect' | 'shell';
const GROUP: Record<Kind, string> = { page: 'prerendered', search: 'search API', suggest: 'search API', notFound: 'on demand', redirect: 'on demand', shell: 'on demand' };
interface Planned {
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  host: string;
  body?: string;
  /** A fresh path or query per request (404s and some searches: nothing may grow with them). */
  fresh?: (n: number) => { path?: string; body?: string };
  /** Filled in by the probe: the status this request must answer. */
  expected?: number;
}

let seed = 0x5eed;
/** mulberry32: the same sample and order on every run. */
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const shuffle = <T>(xs: T[]): T[] => {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
};
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

// The live release's routes per host, grouped by their first segment (the locale).
const localesOf = new Map<string, string[]>();
const redirectsOf = new Map<string, BuildMeta['redirects']>();
const groups: { host: string; locale: string; paths: string[] }[] = [];
for (const host of Object.keys(hosts.hosts)) {
  const dir = join(release, host);
  const latest = JSON.parse(readFileSync(join(dir, 'builds/latest.json'), 'utf8')) as LatestBuild;
  const meta = JSON.parse(readFileSync(join(dir, `builds/meta/${latest.id}.json`), 'utf8')) as BuildMeta;
  const byLocale = new Map<string, string[]>();
  for (const path of Object.keys(meta.routes)) {
    const locale = path.split('/')[1] ?? '';
    if (!/^[a-z]{2}(-[a-z]{2})?$/.test(locale)) continue;
    byLocale.set(locale, [...(byLocale.get(locale) ?? []), path]);
  }
  localesOf.set(host, [...byLocale.keys()]);
  redirectsOf.set(host, meta.redirects);
  for (const [locale, paths] of byLocale) groups.push({ host, locale, paths });
}
const PAGE_SAMPLE = 600;
const perGroup = Math.max(3, Math.ceil(PAGE_SAMPLE / Math.max(1, groups.length)));
const pages: Planned[] = groups.flatMap((g) => shuffle([...g.paths]).slice(0, perGroup).map((path) => ({ kind: 'page' as const, method: 'GET' as const, path, host: g.host })));

const QUERIES: Record<string, string[]> = {
  en: ['crimping', 'cable processing', 'wire harness', 'zeta', 'alpha 550', 'quality', 'stripping', 'testing', 'automation', 'sigma', 'careers', 'crimp'],
  de: ['Kabelverarbeitung', 'Abisolieren', 'crimpen', 'Qualität', 'Prüfung', 'zeta'],
  fr: ['câble', 'sertissage', 'dénudage', 'qualité'],
  ja: ['ケーブル', '圧着', '品質'],
  zh: ['电缆', '压接', '质量'],
};
const queriesFor = (locale: string) => QUERIES[locale.split('-')[0]!] ?? QUERIES.en!;
const searches: Planned[] = [];
for (const [host, locales] of localesOf) {
  for (const locale of locales) {
    for (const kind of ['search', 'suggest'] as const) {
      const body = (query: string) => JSON.stringify({ localeCode: locale, siteSlug: '', query, ...(kind === 'search' ? { page: 1 } : {}) });
      for (const query of queriesFor(locale)) {
        const q = kind === 'suggest' ? query.slice(0, Math.max(2, Math.ceil(query.length / 2))) : query;
        searches.push({ kind, method: 'POST', path: `/api/search-proxy/${kind}`, host, body: body(q) });
      }
      // Ever new words (typos, part numbers): the analyzer's and the engine's memory must stay bounded.
      searches.push({ kind, method: 'POST', path: `/api/search-proxy/${kind}`, host, body: body(''), fresh: (n) => ({ body: body(`${pick(queriesFor(locale))} x${n.toString(36)}`) }) });
    }
  }
}

const onDemand: Planned[] = [];
for (const [host, locales] of localesOf) {
  for (const locale of locales) {
    onDemand.push({ kind: 'notFound', method: 'GET', path: `/${locale}/no-such-page`, host, fresh: (n) => ({ path: `/${locale}/no-such-page-${n.toString(36)}` }) });
    onDemand.push({ kind: 'notFound', method: 'GET', path: `/${locale}/products/no-such-product`, host });
  }
  for (const r of redirectsOf.get(host) ?? []) {
    if (!r.previousUrl.includes('#') && !r.previousUrl.includes('?')) onDemand.push({ kind: 'redirect', method: 'GET', path: r.previousUrl, host });
  }
}
// Trailing slashes and upper-case locales of sampled pages (answered by the server and the middleware).
for (const p of shuffle([...pages]).slice(0, 40)) {
  onDemand.push({ kind: 'redirect', method: 'GET', path: `${p.path}/`, host: p.host });
  onDemand.push({ kind: 'redirect', method: 'GET', path: p.path.replace(/^\/[a-z-]+/, (l) => l.toUpperCase()), host: p.host });
}
for (const locale of localesOf.get(mainHost) ?? []) {
  for (const path of Object.values(CUSTOMER_AREA_PATHS)) onDemand.push({ kind: 'shell', method: 'GET', path: `/${locale}${path}`, host: mainHost });
}

const HEADERS = { 'accept-encoding': 'br, gzip', accept: 'text/html,application/json;q=0.9,*/*;q=0.8', 'user-agent': 'komax-bench-load' };
const hostHeader = (host: string) => `${host}:${PORT}`;

// ---------------------------------------------------------------------------------------------
// 3. The server, and one probe of every planned request: the answer it must give under load.
// --inspect Q: the server's inspector on 127.0.0.1:Q (heap snapshots, CPU profiles while it runs).
const inspect = arg('inspect', '');
// --edge: the same load through nginx in front of WORKERS instances (default 2) on P-5, P-6, … (scripts/edge.ts).
const EDGE = flag('edge');
let serverPids: (number | undefined)[];
let closeEdge: (() => Promise<void>) | null = null;
if (EDGE) {
  const { startCluster } = await import('../edge.ts');
  const { ensureNginx } = await import('../system-package.ts');
  const workers = Number(process.env.WORKERS ?? 2);
  const cluster = await startCluster({
    root, dist, nginxPath: ensureNginx(), prefix: join(work, 'edge'), port: PORT, workers,
    upstreamPorts: Array.from({ length: workers }, (_, i) => PORT - 5 - i),
    env: { LOG_LEVEL: 'error', NODE_ENV: 'production' }, quiet: true,
  });
  closeEdge = cluster.close;
  process.on('exit', () => { for (const i of cluster.instances) i.process.kill('SIGTERM'); cluster.edge.process.kill('SIGQUIT'); });
  serverPids = cluster.instances.map((i) => i.process.pid);
  console.log(`edge: nginx on ${PORT} in front of ${workers} instances (${cluster.instances.map((i) => i.port).join(', ')})`);
} else {
  const server = spawnServer({ root, dist, port: PORT, execArgv: inspect ? [`--inspect=127.0.0.1:${inspect}`] : [] });
  children.push(server);
  serverPids = [server.pid];
}
const base = `http://127.0.0.1:${PORT}`;
await waitFor(`${base}/en`, { host: hostHeader(mainHost) });

const wanted: Record<Kind, (status: number) => boolean> = {
  page: (s) => s === 200,
  search: (s) => s === 200,
  suggest: (s) => s === 200,
  notFound: (s) => s === 404,
  redirect: (s) => s >= 300 && s < 400,
  shell: (s) => s === 200,
};
const dropped: string[] = [];
async function probe(p: Planned): Promise<boolean> {
  const res = await send(`${base}${p.fresh?.(0).path ?? p.path}`, {
    method: p.method,
    headers: { ...HEADERS, host: hostHeader(p.host), ...(p.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: p.fresh?.(0).body ?? p.body,
  });
  const render = res.headers['x-render'];
  if (!wanted[p.kind](res.status) || (p.kind === 'page' && render !== 'prerendered')) {
    dropped.push(`${p.kind} ${p.host}${p.path} → ${res.status}${render ? ` (${render})` : ''}`);
    return false;
  }
  p.expected = res.status;
  return true;
}
async function probeAll(list: Planned[]): Promise<Planned[]> {
  const out: Planned[] = [];
  for (let i = 0; i < list.length; i += 8) {
    const batch = list.slice(i, i + 8);
    const ok = await Promise.all(batch.map(probe));
    batch.forEach((p, j) => ok[j] && out.push(p));
  }
  return out;
}
const [okPages, okSearches, okOnDemand] = [await probeAll(pages), await probeAll(searches), await probeAll(onDemand)];
if (dropped.length) console.warn(`left out (answered other than expected before the load): ${dropped.length}\n  ${dropped.slice(0, 15).join('\n  ')}${dropped.length > 15 ? '\n  …' : ''}`);

/** 1,000 slots: 700 pages, 200 search API, 100 on demand, each list cycled, then shuffled. */
const cycle = <T>(xs: T[], n: number): T[] => (xs.length ? Array.from({ length: n }, (_, i) => xs[i % xs.length]!) : []);
const sequence = shuffle([...cycle(shuffle(okPages), 700), ...cycle(shuffle(okSearches), 200), ...cycle(shuffle(okOnDemand), 100)]);

// ---------------------------------------------------------------------------------------------
// 4. Counting: statuses per kind, errors (unexpected statuses), latency histograms per group.
/** Latencies in 0.1 ms steps up to 10 s (a bounded histogram, good for any run length). */
class Histogram {
  private counts = new Uint32Array(100_001);
  total = 0;
  record(ms: number) {
    this.counts[Math.min(100_000, Math.max(0, Math.round(ms * 10)))]!++;
    this.total++;
  }
  percentile(p: number): number {
    const rank = Math.ceil((p / 100) * this.total);
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i]!;
      if (seen >= rank && seen > 0) return i / 10;
    }
    return 0;
  }
}
interface Tally { statuses: Map<number, number>; errors: Map<number, number>; latency: Histogram }
const newTally = (): Tally => ({ statuses: new Map(), errors: new Map(), latency: new Histogram() });
const bump = (m: Map<number, number>, k: number) => m.set(k, (m.get(k) ?? 0) + 1);

let tallies = new Map<string, Tally>();
let minute = newTally();
let answered: Planned | null = null;
let fresh = 0;
const requests = sequence.map((p) => ({
  method: p.method,
  path: p.path,
  headers: { ...HEADERS, host: hostHeader(p.host), ...(p.body !== undefined ? { 'content-type': 'application/json' } : {}) },
  ...(p.body !== undefined ? { body: p.body } : {}),
  ...(p.fresh ? {
    setupRequest: <R extends { path: string; body?: string }>(req: R): R => ({ ...req, ...p.fresh!(++fresh) }),
  } : {}),
  // Called right before autocannon's own 'response' event for the same answer (see track()).
  onResponse: () => { answered = p; },
}));

function track(instance: autocannon.Instance) {
  instance.on('response', (_client, rawStatus, _bytes, ms) => {
    const p = answered;
    answered = null;
    if (!p) return;
    // 0: an answer autocannon could not parse a status from (a connection cut mid-answer).
    const status = Number(rawStatus) || 0;
    for (const key of [GROUP[p.kind], 'all']) {
      let t = tallies.get(key);
      if (!t) tallies.set(key, (t = newTally()));
      bump(t.statuses, status);
      if (status !== p.expected) bump(t.errors, status);
      t.latency.record(ms);
    }
    minute.latency.record(ms);
    if (status !== p.expected) bump(minute.errors, status);
  });
}
const errorCodes = new Map<string, number>();
const countErrors = (instance: autocannon.Instance) => instance.on('reqError', (err) => {
  const code = (err as NodeJS.ErrnoException).code ?? err.message;
  errorCodes.set(code, (errorCodes.get(code) ?? 0) + 1);
});

/**
 * Each connection starts the sequence at its own place (autocannon's connections all start at the
 * first request), so a short run still sees the whole mix.
 */
const setupClient = (client: autocannon.Client) => {
  const at = Math.floor(random() * requests.length);
  client.setRequests([...requests.slice(at), ...requests.slice(0, at)].map((r) => ({ ...r })));
};
const opts = { url: base, connections: CONNECTIONS, requests, setupClient, timeout: 10 };

// ---------------------------------------------------------------------------------------------
// 5. Warm-up, then the measured run with the server's RSS sampled every second.
/** RSS of the Node server(s): the sum over the instances with --edge. */
const rss = (): number => serverPids.reduce<number>((n, pid) => n + (rssMiB(pid) ?? Number.NaN), 0);
const rssIdle = rss();
const hostCount = new Set(okPages.map((p) => p.host)).size;
const localeCount = new Set(okPages.map((p) => `${p.host}/${p.path.split('/')[1]}`)).size;
console.log(`machine: ${cpus().length} cores, load ${loadNow()} (load generator and server share them: figures under load > 1.5 are not comparable)`);
console.log(`release ${release.split('/').pop()}: ${okPages.length} prerendered pages over ${hostCount} hosts and ${localeCount} host × locale trees; ${okSearches.length} search/suggest requests; ${okOnDemand.length} on-demand requests (404s, redirects, customer-area shells)`);
console.log(`server pid ${serverPids.join(', ')}; warm-up: ${WARMUP} s at ${CONNECTIONS} connections…`);
if (WARMUP > 0) {
  const w = autocannon({ ...opts, duration: WARMUP });
  track(w);
  countErrors(w);
  await w;
}
const warmupErrors = tallies.get('all')?.errors ?? new Map<number, number>();
tallies = new Map();
errorCodes.clear();
minute = newTally();

const samples: { t: number; mib: number }[] = [];
const started = Date.now();
samples.push({ t: 0, mib: rss() });
const load0 = loadNow();
console.log(`measuring: ${CONNECTIONS} connections × ${DURATION} s (70 % prerendered, 20 % search API, 10 % on demand)…`);
const run = autocannon({ ...opts, duration: DURATION });
track(run);
countErrors(run);
const perMinute: string[] = [];
// A line each time a minute boundary has passed (a late tick of the timer must not skip one), its
// rate over the seconds since the last line.
let lineAt = 0;
const sampler = setInterval(() => {
  const t = (Date.now() - started) / 1000;
  samples.push({ t, mib: rss() });
  if (SOAK && t >= (perMinute.length + 1) * 60) {
    const errs = [...minute.errors.values()].reduce((a, b) => a + b, 0);
    const line = `  min ${String(perMinute.length + 1).padStart(2)}: ${Math.round(minute.latency.total / (t - lineAt))} req/s, p50 ${minute.latency.percentile(50)} ms, p99 ${minute.latency.percentile(99)} ms, errors ${errs}, RSS ${rss().toFixed(0)} MiB, load ${loadNow()}`;
    console.log(line);
    perMinute.push(line);
    minute = newTally();
    lineAt = t;
  }
}, 1000);
const result = await run;
clearInterval(sampler);
samples.push({ t: (Date.now() - started) / 1000, mib: rss() });
const load1 = loadNow();

// ---------------------------------------------------------------------------------------------
// 6. The table.
const all = tallies.get('all') ?? newTally();
const fmtStatuses = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ') || '–';
const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const seconds = samples.at(-1)!.t;
console.log(`\n${pad('traffic', 13)}${pad('share', 7)}${pad('requests', 10)}${pad('req/s', 8)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('errors', 8)}statuses`);
for (const key of ['prerendered', 'search API', 'on demand', 'all']) {
  const t = tallies.get(key);
  if (!t) continue;
  const share = `${Math.round((t.latency.total / Math.max(1, all.latency.total)) * 100)} %`;
  console.log(`${pad(key, 13)}${pad(share, 7)}${pad(String(t.latency.total), 10)}${pad((t.latency.total / seconds).toFixed(0), 8)}${pad(String(t.latency.percentile(50)), 8)}${pad(String(t.latency.percentile(99)), 8)}${pad(String(sum(t.errors)), 8)}${fmtStatuses(t.statuses)}`);
}
const errorTotal = sum(all.errors) + result.errors;
console.log(`\nautocannon: ${result.requests.average.toFixed(0)} req/s average, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.errors} connection errors (${result.timeouts} timeouts${errorCodes.size ? `; ${[...errorCodes].map(([c, n]) => `${c} ${n}`).join(', ')}` : ''})`);
console.log(`errors by status (answers other than expected): ${sum(all.errors) ? [...tallies].filter(([k]) => k !== 'all' && sum(tallies.get(k)!.errors)).map(([k, t]) => `${k} ${fmtStatuses(t.errors)}`).join('; ') : 'none'}${sum(warmupErrors) ? ` (warm-up: ${fmtStatuses(warmupErrors)})` : ''}`);

const at = (frac: number) => samples.reduce((best, s) => (Math.abs(s.t - frac * seconds) < Math.abs(best.t - frac * seconds) ? s : best), samples[0]!).mib;
const [rStart, rMiddle, rEnd] = [at(0), at(0.5), samples.at(-1)!.mib];
const rMax = Math.max(...samples.map((s) => s.mib));
const growth = (rEnd - rMiddle) / rMiddle;
console.log(`server RSS (MiB): idle ${rssIdle.toFixed(0)}, after warm-up (start) ${rStart.toFixed(0)}, middle ${rMiddle.toFixed(0)}, end ${rEnd.toFixed(0)}, max ${rMax.toFixed(0)}; end vs middle ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %`);
console.log(`machine load (1 min) ${load0} → ${load1}`);

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
console.log(`\ntargets: 0 errors → ${errorTotal} (${met(errorTotal === 0)}); p99 < ${TARGET_P99_MS} ms → ${all.latency.percentile(99)} ms (${met(all.latency.percentile(99) < TARGET_P99_MS)}); RSS flat after warm-up (end ≤ middle + ${TARGET_RSS_GROWTH * 100} %) → ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} % (${met(growth <= TARGET_RSS_GROWTH)})`);
if (perMinute.length) console.log(`\nper minute:\n${perMinute.join('\n')}`);
await closeEdge?.();
process.exit(0);
