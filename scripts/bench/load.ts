// npm run bench:load [-- --duration 60] [-- --connections 200] [-- --soak] [-- --warmup 10] [-- --port 6400] [-- --prerender] [-- --inspect 9229] [-- --edge] [-- --only search]
// Mixed traffic against the real server on loopback, with the emulators behind it: 70 % prerendered
// pages across the hosts and locales of the live release, 20 % search API (search and suggest,
// varied queries), 10 % on-demand answers (404s of ever new paths, redirects, customer-area
// shells), driven by wrk (native: the load generator must not be what is measured), one process
// per kind with the connections split 70/20/10 (wrk-mix.ts). Prints per kind requests/s, p50/p99,
// errors by status (an answer other than the one expected for that request: an expected 404 is no
// error) and socket errors, the overall p99, the servers' CPU per request (from /proc: nginx and
// the instances) and their RSS at the start, the middle and the end of the run, beside the
// targets. --soak runs 10 minutes and prints a line per minute. Builds when the sources changed,
// prerenders when dist/ has no release (or with --prerender); never fails on a number. Ports:
// --port P for the server (nginx with --edge), P-1 … P-4 for the emulators, P-5, P-6 … the instances.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded, distDir } from '../build-if-needed.ts';
import { hasPublishedRelease } from '../../src/server/boot/startup.ts';
import { CUSTOMER_AREA_PATHS } from '../../src/features/customer-area/paths.ts';
import type { BuildMeta, LatestBuild } from '../../src/server/delivery/static-site.ts';
import type { ReleaseHosts } from '../../src/server/release/release.ts';
import { arg, cpuOf, flag, loadNow, pad, rssMiB, send, spawnServer, waitFor } from './common.ts';
import { ensureWrk } from '../system-package.ts';
import { addCounts, mergedPercentile, parseWrkReport, splitConnections, wrkScript, type WrkReport } from './wrk-mix.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const SOAK = flag('soak');
const DURATION = Number(arg('duration', SOAK ? '600' : '60'));
const CONNECTIONS = Number(arg('connections', '200'));
const WARMUP = Number(arg('warmup', '10'));
const PORT = Number(arg('port', '6400'));
// --only <part of a kind's name> (prerendered, search, 404, redirect, shell): that kind alone, on its
// share of the connections: its own CPU per request, without the others' load.
const ONLY = arg('only', '');
/** Targets printed beside the figures (never enforced). */
const TARGET_P99_MS = 100;
const TARGET_PAGE_P99_MS = 50;
const TARGET_ON_DEMAND_P99_MS = 300;
const TARGET_RSS_GROWTH = 0.05;

/** A log file's lines, each made a message by `message`, counted: the 8 most frequent first. */
function countedLog(file: string, what: string, message: (line: string) => string): string {
  const lines = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()) : [];
  if (!lines.length) return `${what} logged nothing`;
  const counts = new Map<string, number>();
  for (const line of lines) {
    const m = message(line).replace(/\d{3,}/g, 'N').slice(0, 200);
    counts.set(m, (counts.get(m) ?? 0) + 1);
  }
  const top = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([m, n]) => `  ${n} × ${m}`);
  return `${what} logged ${lines.length} lines:\n${top.join('\n')}`;
}

/** The instances' log (errors only: JSON lines, or pretty text) by message. */
const loggedErrors = (file: string) => countedLog(file, 'the instances', (line) => {
  try {
    const parsed = JSON.parse(line) as { msg?: string; err?: { message?: string } };
    return [parsed.msg, parsed.err?.message].filter(Boolean).join(': ') || line;
  } catch {
    return line;
  }
});

/** nginx's error log (warnings and worse) by message, without the time, process, request and client. */
const edgeErrors = (file: string) => countedLog(file, 'the edge', (line) => line.replace(/^\S+ \S+ /, '').replace(/\d+#\d+: \*?\d* ?/, '').replace(/, client: .*$/, ''));

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
interface Planned {
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  host: string;
  body?: string;
  /** A fresh path or query per request, `{n}` in `path` or `body` replaced by a new tag (404s and some searches: nothing may grow with them). */
  fresh?: boolean;
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
      searches.push({ kind, method: 'POST', path: `/api/search-proxy/${kind}`, host, body: body(`${pick(queriesFor(locale))} x{n}`), fresh: true });
    }
  }
}

const onDemand: Planned[] = [];
for (const [host, locales] of localesOf) {
  for (const locale of locales) {
    onDemand.push({ kind: 'notFound', method: 'GET', path: `/${locale}/no-such-page-{n}`, host, fresh: true });
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
/** The processes whose CPU time is the servers': the instances, and nginx (its workers with it) with --edge. */
let cpuPids: (number | undefined)[];
let closeEdge: (() => Promise<void>) | null = null;
/** The instances' log with --edge (errors only): summed up after the run. */
const instanceLog = join(work, 'instances.log');
if (EDGE) {
  const { startCluster } = await import('../edge.ts');
  const { ensureNginx } = await import('../system-package.ts');
  const workers = Number(process.env.WORKERS ?? 2);
  const cluster = await startCluster({
    root, dist, nginxPath: ensureNginx(), prefix: join(work, 'edge'), port: PORT, workers,
    upstreamPorts: Array.from({ length: workers }, (_, i) => PORT - 5 - i),
    env: { LOG_LEVEL: 'error', NODE_ENV: 'production' }, logFile: instanceLog,
  });
  closeEdge = cluster.close;
  process.on('exit', () => { for (const i of cluster.instances) i.process.kill('SIGTERM'); cluster.edge.process.kill('SIGQUIT'); });
  serverPids = cluster.instances.map((i) => i.process.pid);
  cpuPids = [...serverPids, cluster.edge.process.pid];
  console.log(`edge: nginx on ${PORT} in front of ${workers} instances (${cluster.instances.map((i) => i.port).join(', ')})`);
} else {
  const server = spawnServer({ root, dist, port: PORT, execArgv: inspect ? [`--inspect=127.0.0.1:${inspect}`] : [] });
  children.push(server);
  serverPids = [server.pid];
  cpuPids = serverPids;
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
const probeTag = (s: string) => s.replaceAll('{n}', 'probe0');
async function probe(p: Planned): Promise<boolean> {
  const res = await send(`${base}${probeTag(p.path)}`, {
    method: p.method,
    headers: { ...HEADERS, host: hostHeader(p.host), ...(p.body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: p.body === undefined ? undefined : probeTag(p.body),
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

// ---------------------------------------------------------------------------------------------
// 4. The load generator: wrk, one process per kind of traffic with its own expected statuses
//    (wrk-mix.ts says why), the connections split by the mix (70 % prerendered, 20 % search API,
//    10 % on demand, that share split by how many on-demand requests each kind has).
interface Stream { name: string; group: string; list: Planned[]; connections: number; script: string }
const wrkPath = ensureWrk();
const onDemandKinds = [['notFound', 'on demand: 404'], ['redirect', 'on demand: redirect'], ['shell', 'on demand: shell']] as const;
const plannedStreams = [
  { name: 'prerendered', group: 'prerendered', list: okPages },
  { name: 'search API', group: 'search API', list: okSearches },
  ...onDemandKinds.map(([kind, name]) => ({ name, group: 'on demand', list: okOnDemand.filter((p) => p.kind === kind) })),
].filter((s) => s.list.length && (!ONLY || s.name.includes(ONLY)));
if (!plannedStreams.length) throw new Error(`--only ${ONLY}: no kind of traffic has that name`);
const [pageConns, searchConns, onDemandConns] = splitConnections(CONNECTIONS, [70, 20, 10]) as [number, number, number];
const onDemandStreams = plannedStreams.filter((s) => s.group === 'on demand');
const onDemandSplit = onDemandStreams.length ? splitConnections(Math.max(onDemandConns, onDemandStreams.length), onDemandStreams.map((s) => s.list.length)) : [];
const streams: Stream[] = plannedStreams.map((s) => {
  const connections = s.group === 'prerendered' ? pageConns : s.group === 'search API' ? searchConns : onDemandSplit[onDemandStreams.indexOf(s)]!;
  const script = join(work, `${s.name.replace(/\W+/g, '-')}.lua`);
  const expected = [...new Set(s.list.map((p) => p.expected!))].sort();
  const headers = { Accept: HEADERS.accept, 'Accept-Encoding': HEADERS['accept-encoding'], 'User-Agent': HEADERS['user-agent'] };
  writeFileSync(script, wrkScript(shuffle([...s.list]).map((p) => ({ method: p.method, path: p.path, host: hostHeader(p.host), body: p.body, fresh: p.fresh })), expected, headers, s.name.replace(/\W+/g, '').slice(0, 3)));
  return { ...s, connections, script };
});

interface StreamResult { stream: Stream; report: WrkReport }
/** All streams at once for `seconds`; resolves with each one's report. */
async function runMix(seconds: number): Promise<StreamResult[]> {
  return Promise.all(streams.map((stream) => new Promise<StreamResult>((resolve, reject) => {
    const child = spawn(wrkPath, ['-t', '1', '-c', String(stream.connections), '-d', `${seconds}s`, '--timeout', '10s', '-s', stream.script, base], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', () => {
      try {
        resolve({ stream, report: parseWrkReport(out) });
      } catch (err) {
        reject(err as Error);
      }
    });
  })));
}

// ---------------------------------------------------------------------------------------------
// 5. Warm-up, then the measured run (--soak: minute by minute) with the servers' RSS sampled every
//    second and their CPU time read before and after.
/** RSS of the Node server(s): the sum over the instances with --edge. */
const rss = (): number => serverPids.reduce<number>((n, pid) => n + (rssMiB(pid) ?? Number.NaN), 0);
const rssIdle = rss();
const hostCount = new Set(okPages.map((p) => p.host)).size;
const localeCount = new Set(okPages.map((p) => `${p.host}/${p.path.split('/')[1]}`)).size;
console.log(`machine: ${cpus().length} cores, load ${loadNow()} (wrk and the servers share them: compare CPU per request when the load is not the same)`);
console.log(`release ${release.split('/').pop()}: ${okPages.length} prerendered pages over ${hostCount} hosts and ${localeCount} host × locale trees; ${okSearches.length} search/suggest requests; ${okOnDemand.length} on-demand requests (404s, redirects, customer-area shells)`);
console.log(`wrk: ${streams.map((s) => `${s.name} ${s.connections}`).join(', ')} connections (one process each)`);
console.log(`server pid ${serverPids.join(', ')}${cpuPids.length > serverPids.length ? ` (+ nginx ${cpuPids.at(-1)})` : ''}; warm-up: ${WARMUP} s…`);
const warmup = WARMUP > 0 ? await runMix(WARMUP) : [];
const warmupErrors = warmup.reduce((m, r) => addCounts(m, r.report.unexpected), new Map<number, number>());

const samples: { t: number; mib: number }[] = [];
const started = Date.now();
samples.push({ t: 0, mib: rss() });
const load0 = loadNow();
const cpu0 = cpuOf(cpuPids);
console.log(`measuring: ${CONNECTIONS} connections × ${DURATION} s (70 % prerendered, 20 % search API, 10 % on demand by connections)…`);
const sampler = setInterval(() => samples.push({ t: (Date.now() - started) / 1000, mib: rss() }), 1000);
const chunks: StreamResult[][] = [];
const perMinute: string[] = [];
// --soak: minute-long runs in a row, a line after each (the last one the rest of the duration).
for (let left = DURATION; left > 0;) {
  const seconds = SOAK ? Math.min(60, left) : left;
  const cpuBefore = cpuOf(cpuPids);
  const chunk = await runMix(seconds);
  chunks.push(chunk);
  left -= seconds;
  if (SOAK) {
    const requests = chunk.reduce((n, r) => n + r.report.requests, 0);
    const cpu = cpuOf(cpuPids);
    const errs = chunk.reduce((n, r) => n + Object.values(r.report.unexpected).reduce((a, b) => a + b, 0), 0);
    const line = `  min ${String(chunks.length).padStart(2)}: ${Math.round(requests / seconds)} req/s, p50 ${mergedPercentile(chunk.map((r) => r.report), 50)} ms, p99 ${mergedPercentile(chunk.map((r) => r.report), 99)} ms, errors ${errs}, CPU ${cpu === null || cpuBefore === null ? '–' : Math.round(((cpu - cpuBefore) * 1000) / Math.max(1, requests))} µs/req, RSS ${rss().toFixed(0)} MiB, load ${loadNow()}`;
    console.log(line);
    perMinute.push(line);
  }
}
clearInterval(sampler);
const cpu1 = cpuOf(cpuPids);
samples.push({ t: (Date.now() - started) / 1000, mib: rss() });
const load1 = loadNow();

// ---------------------------------------------------------------------------------------------
// 6. The table.
/** One stream's reports over the chunks, as one: its requests and statuses added, its curve the merged one. */
const results = streams.map((stream) => {
  const reports = chunks.map((c) => c.find((r) => r.stream === stream)!.report);
  return { stream, reports };
});
const sum = (m: Map<number, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const fmtStatuses = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ') || '–';
interface Row { requests: number; p50: number; p99: number; statuses: Map<number, number>; errors: Map<number, number>; socket: number }
function row(rs: typeof results): Row {
  const reports = rs.flatMap((r) => r.reports);
  return {
    requests: reports.reduce((n, r) => n + r.requests, 0),
    p50: mergedPercentile(reports, 50),
    p99: mergedPercentile(reports, 99),
    statuses: reports.reduce((m, r) => addCounts(m, r.statuses), new Map<number, number>()),
    errors: reports.reduce((m, r) => addCounts(m, r.unexpected), new Map<number, number>()),
    socket: reports.reduce((n, r) => n + r.socket.connect + r.socket.read + r.socket.write + r.socket.timeout, 0),
  };
}
const seconds = samples.at(-1)!.t;
const rows: [string, Row][] = [
  ...results.map((r) => [r.stream.name, row([r])] as [string, Row]),
  ...(results.some((r) => r.stream.group === 'on demand') ? [['on demand', row(results.filter((r) => r.stream.group === 'on demand'))] as [string, Row]] : []),
  ['all', row(results)],
];
const all = rows.at(-1)![1];
const byName = new Map(rows);
console.log(`\n${pad('traffic', 22)}${pad('conns', 7)}${pad('share', 7)}${pad('requests', 10)}${pad('req/s', 8)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('errors', 8)}statuses`);
for (const [name, r] of rows) {
  const conns = streams.filter((s) => name === 'all' || s.name === name || s.group === name).reduce((n, s) => n + s.connections, 0);
  const share = `${Math.round((r.requests / Math.max(1, all.requests)) * 100)} %`;
  console.log(`${pad(name, 22)}${pad(String(conns), 7)}${pad(share, 7)}${pad(String(r.requests), 10)}${pad((r.requests / seconds).toFixed(0), 8)}${pad(String(r.p50), 9)}${pad(String(r.p99), 9)}${pad(String(sum(r.errors) + r.socket), 8)}${fmtStatuses(r.statuses)}`);
}
const cpuPerRequest = cpu0 === null || cpu1 === null || !all.requests ? null : Math.round(((cpu1 - cpu0) * 1000) / all.requests);
const socketErrors = rows.slice(0, results.length).filter(([, r]) => r.socket).map(([n, r]) => `${n} ${r.socket}`);
console.log(`\nservers' CPU (${EDGE ? 'nginx and the instances' : 'the server'}, from /proc): ${cpuPerRequest ?? '–'} µs per request (${cpu0 === null || cpu1 === null ? '–' : ((cpu1 - cpu0) / 1000 / seconds).toFixed(2)} cores busy on average)`);
console.log(`errors by status (answers other than expected): ${sum(all.errors) ? rows.slice(0, results.length).filter(([, r]) => sum(r.errors)).map(([k, r]) => `${k} ${fmtStatuses(r.errors)}`).join('; ') : 'none'}; socket errors (connect, read, write, timeout): ${socketErrors.length ? socketErrors.join(', ') : 'none'}${sum(warmupErrors) ? ` (warm-up: ${fmtStatuses(warmupErrors)})` : ''}`);

const at = (frac: number) => samples.reduce((best, s) => (Math.abs(s.t - frac * seconds) < Math.abs(best.t - frac * seconds) ? s : best), samples[0]!).mib;
const [rStart, rMiddle, rEnd] = [at(0), at(0.5), samples.at(-1)!.mib];
const rMax = Math.max(...samples.map((s) => s.mib));
const growth = (rEnd - rMiddle) / rMiddle;
console.log(`server RSS (MiB): idle ${rssIdle.toFixed(0)}, after warm-up (start) ${rStart.toFixed(0)}, middle ${rMiddle.toFixed(0)}, end ${rEnd.toFixed(0)}, max ${rMax.toFixed(0)}; end vs middle ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} %`);
console.log(`machine load (1 min) ${load0} → ${load1}`);

const errorTotal = sum(all.errors) + all.socket;
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
const target = (name: string, r: Row | undefined, limit: number) => (r ? `${name} p99 < ${limit} ms → ${r.p99} ms (${met(r.p99 < limit)})` : `${name}: –`);
console.log(`\ntargets: 0 errors → ${errorTotal} (${met(errorTotal === 0)}); ${target('prerendered', byName.get('prerendered'), TARGET_PAGE_P99_MS)}; ${target('on demand', byName.get('on demand'), TARGET_ON_DEMAND_P99_MS)}; ${target('all', all, TARGET_P99_MS)}; RSS flat after warm-up (end ≤ middle + ${TARGET_RSS_GROWTH * 100} %) → ${growth >= 0 ? '+' : ''}${(growth * 100).toFixed(1)} % (${met(growth <= TARGET_RSS_GROWTH)})`);
if (perMinute.length) console.log(`\nper minute:\n${perMinute.join('\n')}`);
if (EDGE) console.log(`\n${loggedErrors(instanceLog)}\n${edgeErrors(join(work, 'edge', 'error.log'))}`);
await closeEdge?.();
process.exit(0);
