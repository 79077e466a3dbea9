// npm run bench:serve [-- --duration 10] [-- --connections 50] [-- --threads 2] [-- --prerender]
// Serves the SAME prerendered tree (the live release of dist/static, host localhost) three ways and
// loads each with wrk (a native load generator: a Node one saturates below what nginx serves and
// would measure itself): our Node server alone, nginx alone on the tree (a plain static config),
// and the edge (npm run start:edge: nginx from the generated configuration in front of WORKERS
// instances, default 2). Prints requests/s, p50/p99 and the servers' CPU per request (from /proc,
// before and after, every process of the server: nginx's master and workers, the instances),
// with the machine's load. Builds (and prerenders, with the emulators) only when dist/ has no
// release yet. Never fails on a number.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded, distDir } from '../build-if-needed.ts';
import { hasPublishedRelease } from '../../src/server/boot/startup.ts';
import { SECURITY_HEADERS } from '../../src/server/http/headers.ts';
import { ensureNginx, ensureWrk } from '../system-package.ts';
import { startCluster, type RunningCluster } from '../edge.ts';
import { arg, cpuOf, loadNow, pad, spawnServer, waitFor } from './common.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const DURATION = Number(arg('duration', '10'));
const CONNECTIONS = Number(arg('connections', '50'));
const THREADS = Number(arg('threads', '2'));
const OUR_PORT = Number(arg('port', '6300'));
const NGINX_PORT = OUR_PORT + 1;
const EDGE_PORT = OUR_PORT + 5;
const WORKERS = Number(process.env.WORKERS ?? 2);
/** A few pages of the main site, a payload: the same list on every server. */
const PATHS = ['/en', '/en/about-us', '/en/about-us/history', '/de-ch', '/en/about-us/_payload.json'];
// Every server is asked for gzip, so all three send the same precompressed .gz (the edge sends the
// .br to a br client when nginx has the brotli module; the plain configuration never does).
const HEADERS = { host: 'localhost', 'accept-encoding': 'gzip' };

const children: ChildProcess[] = [];
let cluster: RunningCluster | null = null;
const work = mkdtempSync(join(tmpdir(), 'komax-bench-serve-'));
const cleanup = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  for (const i of cluster?.instances ?? []) i.process.kill('SIGTERM');
  cluster?.edge.process.kill('SIGQUIT');
  rmSync(work, { recursive: true, force: true });
};
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));

const wrk = ensureWrk();
const nginx = ensureNginx();

// 1. The app and a release to serve.
const dist = distDir(root);
buildIfNeeded(root);
if (!hasPublishedRelease(dist) || process.argv.includes('--prerender')) {
  process.env.PORT ??= String(OUR_PORT);
  process.env.CONTENT_HUB_PORT ??= String(OUR_PORT + 10);
  process.env.CATALOGUE_PORT ??= String(OUR_PORT + 11);
  const { startLocalEmulators } = await import('../local.ts');
  const emulators = await startLocalEmulators();
  const { runPrerenderCli } = await import('../prerender.ts');
  await runPrerenderCli({});
  await emulators?.close();
}
const release = realpathSync(join(dist, 'static/live'));
const hostTree = join(release, 'localhost');
console.log(`serving ${hostTree}`);

// 2. Our server in a process of its own.
const ours = spawnServer({ root, dist, port: OUR_PORT });
children.push(ours);

// 3. nginx alone over the same tree: what a production nginx in front of these files would do
//    (the precompressed siblings, file descriptors cached, the same security headers, Vary).
for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(work, d));
writeFileSync(join(work, 'nginx.conf'), `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes auto;
daemon off;
pid ${work}/nginx.pid;
error_log ${work}/error.log error;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path ${work}/body;
  proxy_temp_path ${work}/proxy;
  fastcgi_temp_path ${work}/fastcgi;
  uwsgi_temp_path ${work}/uwsgi;
  scgi_temp_path ${work}/scgi;
  types { text/html html; application/json json; text/javascript js; text/css css; application/xml xml; text/plain txt; image/svg+xml svg; }
  default_type application/octet-stream;
  gzip_static on;
  gzip_vary on;
  open_file_cache max=10000 inactive=60s;
  open_file_cache_valid 60s;
  open_file_cache_errors on;
  etag on;
${Object.entries(SECURITY_HEADERS).map(([k, v]) => `  add_header ${k} "${v.replace(/["\\]/g, '\\$&')}" always;`).join('\n')}
  server {
    listen 127.0.0.1:${NGINX_PORT};
    server_name localhost;
    root ${hostTree};
    location /_astro/ { root ${join(dist, 'client')}; }
    location / { try_files $uri $uri/index.html =404; }
  }
}
`);
const plain = spawn(nginx, ['-p', work, '-c', join(work, 'nginx.conf'), '-e', join(work, 'error.log')], { stdio: ['ignore', 'inherit', 'inherit'] });
children.push(plain);

// 4. The edge: the generated configuration in front of WORKERS instances.
// The edge's workers at the default priority, as nginx alone's: this run is static pages only, with
// no render or search to give way to (start:edge runs them at nice 5 beside the instances).
cluster = await startCluster({ root, dist, nginxPath: nginx, prefix: join(work, 'edge'), port: EDGE_PORT, workers: WORKERS, env: { LOG_LEVEL: 'error', NODE_ENV: 'production' }, quiet: true, workerPriority: 0 });

await waitFor(`http://127.0.0.1:${OUR_PORT}/en`, HEADERS);
await waitFor(`http://127.0.0.1:${NGINX_PORT}/en`, HEADERS);
await waitFor(`http://127.0.0.1:${EDGE_PORT}/en`, HEADERS);

// 5. The same check on all: each path answers 200, gzip-encoded, with the same bytes (the same .gz sibling).
const sent = new Map<string, number>();
for (const [name, port] of [['ours', OUR_PORT], ['nginx', NGINX_PORT], ['edge', EDGE_PORT]] as const) {
  for (const p of PATHS) {
    const res = await fetch(`http://127.0.0.1:${port}${p}`, { headers: HEADERS });
    const bytes = Number(res.headers.get('content-length'));
    await res.arrayBuffer();
    if (res.status !== 200 || res.headers.get('content-encoding') !== 'gzip') console.warn(`${name} ${p}: ${res.status} ${res.headers.get('content-encoding') ?? 'identity'}`);
    if (sent.has(p) && sent.get(p) !== bytes) console.warn(`${p}: ours sends ${sent.get(p)} bytes, ${name} ${bytes}`);
    sent.set(p, bytes);
  }
}
console.log(`gzip bytes per path (all three): ${PATHS.map((p) => `${p} ${sent.get(p)}`).join(', ')}`);

interface Row { server: string; rps: number; p50: number; p99: number; mbps: number; errors: string; load: string; cpuUs: number | null }

/** A wrk script: the paths in turn (each thread from its own start), the Host and Accept-Encoding of HEADERS. */
const script = join(work, 'paths.lua');
writeFileSync(script, `
local paths = { ${PATHS.map((p) => JSON.stringify(p)).join(', ')} }
local i = 0
wrk.headers["Host"] = "${HEADERS.host}"
wrk.headers["Accept-Encoding"] = "${HEADERS['accept-encoding']}"
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
`);

/** wrk's "50%  1.23ms" style durations in ms. */
const ms = (v: string, unit: string) => Number(v) * ({ us: 0.001, ms: 1, s: 1000, m: 60_000 } as Record<string, number>)[unit]!;
function runWrk(port: number, seconds: number, connections: number): { rps: number; p50: number; p99: number; mbps: number; requests: number; errors: string } {
  const run = spawnSync(wrk, ['-t', String(THREADS), '-c', String(connections), '-d', `${seconds}s`, '--latency', '-s', script, `http://127.0.0.1:${port}`], { encoding: 'utf8' });
  const out = run.stdout;
  const pct = (p: string) => { const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)`, 'm').exec(out); return m ? ms(m[1]!, m[2]!) : Number.NaN; };
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const transfer = /Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB)/.exec(out);
  const errors = [/Socket errors:[^\n]*/.exec(out)?.[0], /Non-2xx or 3xx responses: \d+/.exec(out)?.[0]].filter(Boolean).join('; ') || '0';
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0), p50: pct('50'), p99: pct('99'), requests, errors,
    mbps: transfer ? Number(transfer[1]) * ({ B: 1 / 1048576, KB: 1 / 1024, MB: 1, GB: 1024 } as Record<string, number>)[transfer[2]!]! : 0,
  };
}

function load(server: string, port: number, pids: (number | undefined)[]): Row {
  // A short warm-up (caches, JIT, nginx's open-file cache), then the measured run.
  runWrk(port, 2, 10);
  const before = loadNow();
  const cpuBefore = cpuOf(pids);
  const r = runWrk(port, DURATION, CONNECTIONS);
  const cpuAfter = cpuOf(pids);
  return { server, rps: r.rps, p50: r.p50, p99: r.p99, mbps: r.mbps, errors: r.errors, load: `${before}→${loadNow()}`,
    cpuUs: cpuBefore === null || cpuAfter === null || !r.requests ? null : Math.round(((cpuAfter - cpuBefore) * 1000) / r.requests) };
}

console.log(`machine: ${cpus().length} cores, load ${loadNow()} (wrk shares the cores with the servers; numbers under a load above the core count are not comparable)`);
console.log(`wrk: ${THREADS} threads, ${CONNECTIONS} connections × ${DURATION} s over ${PATHS.join(', ')} (Accept-Encoding: gzip everywhere: the same .gz from all three)`);
/**
 * Waits (30 s at most) until `pids` use at most 10 ms of CPU in a second: an instance loads for
 * ~20 s after it listens, and that work would be counted against the edge's static run.
 */
async function settle(pids: (number | undefined)[]): Promise<void> {
  for (let i = 0; i < 30; i++) {
    const before = cpuOf(pids);
    await new Promise((r) => setTimeout(r, 1000));
    const after = cpuOf(pids);
    if (before === null || after === null || after - before <= 10) return;
  }
}

const rows: Row[] = [load('ours (node)', OUR_PORT, [ours.pid]), load('nginx alone', NGINX_PORT, [plain.pid])];
const instancePids = cluster.instances.map((i) => i.process.pid);
await settle(instancePids);
rows.push(load(`edge (nginx + ${WORKERS} node)`, EDGE_PORT, [cluster.edge.process.pid, ...instancePids]));
console.log(`\n${pad('server', 24)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('MB/s', 8)}${pad('CPU µs/req', 12)}${pad('errors', 10)}load (1 min, before→after)`);
for (const r of rows) console.log(`${pad(r.server, 24)}${pad(r.rps.toFixed(0), 10)}${pad(r.p50.toFixed(2), 9)}${pad(r.p99.toFixed(2), 9)}${pad(r.mbps.toFixed(1), 8)}${pad(String(r.cpuUs ?? '–'), 12)}${pad(r.errors, 10)}${r.load}`);
const [node, alone, edge] = rows as [Row, Row, Row];
const ratio = (a: Row) => a.rps / alone.rps;
console.log(`\nedge / nginx alone: ${ratio(edge).toFixed(2)}× the requests/s (target ≥ 0.9: ${ratio(edge) >= 0.9 ? 'met' : 'NOT met'})`);
console.log(`node alone / nginx alone: ${ratio(node).toFixed(2)}× (target ≥ 0.3: ${ratio(node) >= 0.3 ? 'met' : 'NOT met'}); CPU per static request ${node.cpuUs ?? '–'} µs (target ≤ 30: ${node.cpuUs !== null && node.cpuUs <= 30 ? 'met' : 'NOT met'})`);
console.log(`uptime: ${spawnSync('uptime', { encoding: 'utf8' }).stdout.trim()}`);
process.exit(0);
