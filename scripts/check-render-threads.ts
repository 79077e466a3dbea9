// npx node scripts/check-render-threads.ts [-- --port 5690]: the real built App over DIST_DIR's live release
// (build and prerender first, e.g. npm run bench:load) answering the same on-demand requests on
// the serving thread (RENDER_THREADS=0, port P) and on a render thread (RENDER_THREADS=1, port P+1),
// with the emulators on P-1 … P-4; then renders kept by src/server/render-pool/shared-renders.ts
// against fresh ones. Prints what differs (status, headers but Date, X-Request-Id and the framing,
// body); exits 1 when anything does.
import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { arg } from './bench/common.ts';
import { distDir } from './build-if-needed.ts';

const PORT = Number(arg('port', '5690'));
const work = mkdtempSync(join(tmpdir(), 'komax-render-threads-'));
Object.assign(process.env, {
  CI: '1', PORT: String(PORT), LOG_LEVEL: 'error',
  CONTENT_HUB_PORT: String(PORT - 1), CATALOGUE_PORT: String(PORT - 2), IDENTITY_PORT: String(PORT - 3), TICKETING_PORT: String(PORT - 4),
  IDENTITY_DATA_DIR: join(work, 'identity'), TICKETING_DATA_DIR: join(work, 'ticketing'), FORMS_DATA_DIR: join(work, 'forms'),
});
const dist = distDir(resolve(import.meta.dirname, '..'));
const { startLocalEmulators } = await import('./local.ts');
const emulators = await startLocalEmulators();
const { startServer } = await import('../src/server/main.ts');
const inProcess = await startServer({ distDir: dist, env: { ...process.env, PORT: String(PORT), RENDER_THREADS: '0' } });
const threaded = await startServer({ distDir: dist, env: { ...process.env, PORT: String(PORT + 1), RENDER_THREADS: '1' } });
const hosts = JSON.parse(readFileSync(join(dist, 'static/live/hosts.json'), 'utf8')) as { main: string; hosts: Record<string, unknown> };

interface Answer { status: number; headers: Record<string, unknown>; body: string; kept: boolean }
const IGNORED = ['date', 'x-request-id', 'transfer-encoding', 'content-length', 'connection', 'keep-alive', 'server-timing'];
const get = (port: number, host: string, path: string, headers: Record<string, string> = {}) => new Promise<Answer>((ok, fail) => {
  const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: `${host}:${PORT}`, ...headers } }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      const kept = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !IGNORED.includes(k)));
      // Compared decoded: a kept render is compressed once (harder), a fresh one on the fly.
      const raw = Buffer.concat(chunks);
      const coding = res.headers['content-encoding'];
      const body = coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw;
      ok({ status: res.statusCode!, headers: kept, body: body.toString('base64'), kept: /\bkept-render\b/.test(String(res.headers['server-timing'] ?? '')) });
    });
  });
  req.on('error', fail);
  req.end();
});
let differences = 0;
const compare = (what: string, a: Answer, b: Answer) => {
  // Headers in any order (an answer compressed once has its Content-Encoding where the App put it).
  const canonical = (x: Answer) => JSON.stringify({ ...x, kept: false, headers: Object.fromEntries(Object.entries(x.headers).sort(([k], [l]) => k.localeCompare(l))) });
  if (canonical(a) === canonical(b)) return true;
  differences++;
  const headers = Object.keys({ ...a.headers, ...b.headers }).filter((k) => a.headers[k] !== b.headers[k]);
  console.log(`differs: ${what}: status ${a.status} / ${b.status}; headers ${headers.join(', ') || 'same'}; body ${a.body === b.body ? 'same' : 'differs'}`);
  return false;
};

// 1. The same request on the serving thread and on a render thread.
const paths: [string, string][] = [];
for (const host of Object.keys(hosts.hosts)) {
  for (const l of ['en', 'de', 'ja']) paths.push([host, `/${l}/no-such-page-${l}`], [host, `/${l}/products/no-such-product`], [host, `/${l}/mykomax`]);
}
for (const p of ['/en/mykomax/account', '/en/mykomax/tickets/list', '/de/mykomax/tickets/newticket', '/en/callback', '/EN/about-us', '/fr/mykomax/inventory', '/en/mykomax/tickets/123']) paths.push([hosts.main, p]);
const headerSets: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip' }, { cookie: 'locale=de; measurement=imperial' }];
let same = 0;
for (const [host, path] of paths) {
  for (const headers of headerSets) {
    if (compare(`${host}${path} ${JSON.stringify(headers)}`, await get(PORT, host, path, headers), await get(PORT + 1, host, path, headers))) same++;
  }
}
console.log(`serving thread vs render thread: ${same} of ${paths.length * headerSets.length} answers the same`);

// 2. A kept render (the serving-thread server, after two renders of its key) against a fresh one (the other server, first time).
let keptSame = 0;
let kept = 0;
/** The answer of the server that kept the render: it must say so (Server-Timing), or the comparison proves nothing. */
const keptAnswer = async (what: string, host: string, path: string, headers: Record<string, string> = {}) => {
  const answer = await get(PORT, host, path, headers);
  if (!answer.kept) {
    differences++;
    console.log(`not kept: ${what}`);
  }
  return answer;
};
for (const host of Object.keys(hosts.hosts)) {
  // A locale the site has (under another, the path's first segment is no locale: nothing is filled in, nothing kept).
  for (const l of ['en', 'de', 'fr', 'zh'].filter((locale) => existsSync(join(dist, 'static/live', host, locale)))) {
    await get(PORT, host, `/${l}/kept-probe-one`);
    await get(PORT, host, `/${l}/kept-probe-two`);
    kept++;
    if (compare(`kept 404 ${host}/${l}`, await keptAnswer(`404 ${host}/${l}`, host, `/${l}/kept-probe-three/deeper`), await get(PORT + 1, host, `/${l}/kept-probe-three/deeper`))) keptSame++;
  }
}
for (const p of ['/en/mykomax/inventory', '/de/mykomax/account', '/ja/mykomax/tickets/newticket']) {
  await get(PORT, hosts.main, p);
  await get(PORT, hosts.main, p);
  for (const headers of [{}, { 'accept-encoding': 'gzip' }, { 'accept-encoding': 'br, gzip' }] as Record<string, string>[]) {
    kept++;
    if (compare(`kept shell ${p} ${JSON.stringify(headers)}`, await keptAnswer(`shell ${p}`, hosts.main, p, headers), await get(PORT + 1, hosts.main, p, headers))) keptSame++;
  }
}
console.log(`kept renders vs fresh renders: ${keptSame} of ${kept} the same`);
await inProcess.close();
await threaded.close();
await emulators?.close();
rmSync(work, { recursive: true, force: true });
process.exit(differences ? 1 : 0);
