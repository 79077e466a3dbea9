// npm run bench:serve [-- --duration 20] [-- --connections 100] [-- --prerender]
// Serves the SAME prerendered tree (the live release of dist/static, host localhost) with our
// server and with nginx on loopback and loads both with autocannon: requests/s and p99 latency
// per server and their ratio. Builds (and prerenders, with the emulators) only when dist/ has no
// release yet. Then both again at one fixed rate (half the slower one's maximum): the latency of a
// request when neither is saturated. Never fails on a number.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { buildIfNeeded, distDir } from '../build-if-needed.ts';
import { hasPublishedRelease } from '../../src/server/startup.ts';
import { SECURITY_HEADERS } from '../../src/server/headers.ts';
import { arg, loadNow, pad, spawnServer, waitFor } from './common.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const DURATION = Number(arg('duration', '20'));
const CONNECTIONS = Number(arg('connections', '100'));
const OUR_PORT = Number(arg('port', '6300'));
const NGINX_PORT = OUR_PORT + 1;
/** A few pages of the main site, a payload: the same list on both servers. */
const PATHS = ['/en', '/en/about-us', '/en/about-us/history', '/de-ch', '/en/about-us/_payload.json'];
// nginx-light has no brotli module: both sides are asked for gzip (precompressed siblings on both).
const HEADERS = { host: 'localhost', 'accept-encoding': 'gzip' };

const children: ChildProcess[] = [];
const work = mkdtempSync(join(tmpdir(), 'komax-bench-serve-'));
const cleanup = () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
};
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));

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

// 2. Our server in a process of its own (autocannon must not share its event loop).
const ours = spawnServer({ root, dist, port: OUR_PORT });
children.push(ours);

// 3. nginx over the same tree (installed from Debian when missing and we are root).
function findNginx(): string | null {
  const which = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx 2>/dev/null'], { encoding: 'utf8' });
  const path = which.stdout.trim().split('\n')[0];
  return path || null;
}
let nginx = findNginx();
let nginxPid: number | null = null;
if (!nginx) {
  if (process.getuid?.() === 0) {
    console.log('nginx: not installed, installing Debian nginx-light (apt-get)…');
    try {
      execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
      execFileSync('apt-get', ['install', '-y', '-qq', 'nginx-light'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    } catch (err) {
      console.warn(`nginx: install failed (${(err as Error).message}); measuring our server only`);
    }
    nginx = findNginx();
  } else {
    console.warn('nginx: not installed and not root (apt-get install nginx-light needs root); measuring our server only');
  }
}
if (nginx) {
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(work, d));
  writeFileSync(join(work, 'nginx.conf'), `
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
  # What a production nginx in front of these files would do: the precompressed siblings, file
  # descriptors and metadata cached, the same security headers as ours, Vary on the coding.
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
  const proc = spawn(nginx, ['-p', work, '-c', join(work, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(proc);
  nginxPid = proc.pid ?? null;
}

await waitFor(`http://127.0.0.1:${OUR_PORT}/en`, HEADERS);
if (nginx) await waitFor(`http://127.0.0.1:${NGINX_PORT}/en`, HEADERS);

// 4. The same check on both: each path answers 200, gzip-encoded, with the same bytes (the same .gz sibling).
const sent = new Map<string, number>();
for (const [name, port] of [['ours', OUR_PORT], ...(nginx ? [['nginx', NGINX_PORT]] : [])] as const) {
  for (const p of PATHS) {
    const res = await fetch(`http://127.0.0.1:${port}${p}`, { headers: HEADERS });
    const bytes = Number(res.headers.get('content-length'));
    await res.arrayBuffer();
    if (res.status !== 200 || res.headers.get('content-encoding') !== 'gzip') console.warn(`${name} ${p}: ${res.status} ${res.headers.get('content-encoding') ?? 'identity'}`);
    if (sent.has(p) && sent.get(p) !== bytes) console.warn(`${p}: ours sends ${sent.get(p)} bytes, ${name} ${bytes}`);
    sent.set(p, bytes);
  }
}
console.log(`gzip bytes per path (both sides): ${PATHS.map((p) => `${p} ${sent.get(p)}`).join(', ')}`);

interface Row { server: string; rps: number; p50: number; p99: number; mbps: number; errors: number; non2xx: number; load: string; cpuUs: number | null }

/**
 * CPU time (user + system, ms) of a process and its children (nginx's workers), from /proc: the
 * server's cost per request, which a shared machine's load does not change much. Null off Linux.
 */
function cpuMs(pid: number | null): number | null {
  if (pid === null) return null;
  try {
    const own = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    // Fields 14 and 15 (utime, stime) in clock ticks, 100 per second on Linux.
    return (Number(own[11]) + Number(own[12])) * 10 + kids.reduce((n, k) => n + (cpuMs(k) ?? 0), 0);
  } catch {
    return null;
  }
}
async function load(server: string, port: number, pid: number | null, overallRate?: number): Promise<Row> {
  // A short warm-up (caches, JIT), then the measured run.
  await autocannon({ url: `http://127.0.0.1:${port}`, connections: 10, duration: 2, headers: HEADERS, requests: PATHS.map((path) => ({ method: 'GET', path })) });
  const before = loadNow();
  const cpuBefore = cpuMs(pid);
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: DURATION,
    headers: HEADERS,
    requests: PATHS.map((path) => ({ method: 'GET', path })),
    ...(overallRate ? { overallRate } : {}),
  });
  return { server, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, mbps: r.throughput.average / 1048576, errors: r.errors + r.timeouts, non2xx: r.non2xx, load: `${before}→${loadNow()}`,
    cpuUs: cpuBefore === null ? null : Math.round(((cpuMs(pid) ?? cpuBefore) - cpuBefore) * 1000 / r.requests.total) };
}

console.log(`machine: ${cpus().length} cores, load ${loadNow()} (autocannon needs one core; numbers under load > 1.5 are not comparable)`);
console.log(`autocannon: ${CONNECTIONS} connections × ${DURATION} s over ${PATHS.join(', ')} (Accept-Encoding: gzip on both: nginx-light has no brotli)`);
const rows: Row[] = [await load('ours (node)', OUR_PORT, ours.pid ?? null)];
if (nginx) rows.push(await load('nginx-light', NGINX_PORT, nginxPid));
// At 100 connections both servers are saturated, and a closed loop's latency is then the queue:
// connections / (requests/s) (100 / 4,500 ≈ 22 ms), whatever the server. So the same load again
// at a fixed rate both sustain (half the slower one's maximum): the latency of a request itself.
const rate = Math.round(Math.min(...rows.map((r) => r.rps)) / 2 / 100) * 100;
const paced: Row[] = [await load('ours (node)', OUR_PORT, ours.pid ?? null, rate)];
if (nginx) paced.push(await load('nginx-light', NGINX_PORT, nginxPid, rate));

console.log(`\n${pad('server', 14)}${pad('req/s', 10)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('MB/s', 8)}${pad('CPU µs/req', 12)}${pad('errors/non-2xx', 16)}load (1 min, before→after)`);
const line = (r: Row) => console.log(`${pad(r.server, 14)}${pad(r.rps.toFixed(0), 10)}${pad(String(r.p50), 9)}${pad(String(r.p99), 9)}${pad(r.mbps.toFixed(1), 8)}${pad(String(r.cpuUs ?? '–'), 12)}${pad(`${r.errors}/${r.non2xx}`, 16)}${r.load}`);
console.log(`as fast as each can (${CONNECTIONS} connections, closed loop):`);
rows.forEach(line);
console.log(`at ${rate} requests/s for both (${CONNECTIONS} connections, paced):`);
paced.forEach(line);
if (rows[1]) {
  const ratio = rows[0]!.rps / rows[1].rps;
  console.log(`\nours / nginx: ${ratio.toFixed(2)}× the requests/s; p99 ${rows[0]!.p99} ms vs ${rows[1].p99} ms saturated, ${paced[0]!.p99} ms vs ${paced[1]!.p99} ms at ${rate} requests/s`);
  console.log(`targets: ≥ 0.5× nginx (${ratio >= 0.5 ? 'met' : 'NOT met'}), p99 < 10 ms (saturated: ${rows[0]!.p99 < 10 ? 'met' : 'NOT met'}; paced: ${paced[0]!.p99 < 10 ? 'met' : 'NOT met'})`);
}
process.exit(0);
