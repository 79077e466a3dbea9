// npm run bench:prerender [-- --routes 10000] [-- --no-baseline] [-- --port 4398] [-- --profile [dir]] [-- --threads N]
// Measures, in one run: a full prerender (pages/s); one content change live, from the webhook
// request (POST /api/revalidate naming the changed record, to the real server) to the new HTML
// being served; a run where nothing changed; and, as the peer baseline, Astro's own static build
// (output: 'static' + getStaticPaths) of the same content, then the same one change rebuilt by its
// experimental incrementalBuild with a warm cache. Prints one table; never fails on time.
// --profile takes CPU profiles of the full run (this thread and every render thread) and of the
// server during the one change (all its threads), into dir (default: a folder in the temp dir),
// and prints their top entries (self and inclusive time) with the CPU ms per page.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from '../build-if-needed.ts';
import { startContentHub } from '../../emulators/content-hub/server.ts';
import { startCatalogue } from '../../emulators/catalogue/server.ts';
import { prerender, type PrerenderResult } from '../../src/server/prerender/run.ts';
import { hashOf } from '../../src/server/prerender/fingerprint.ts';
import { collect } from '../../src/server/prerender/collect.ts';
import { parseServerEnv, servicesFromEnv } from '../../src/server/boot/env.ts';
import { Session } from 'node:inspector/promises';
import { formatSummary, readProfiles, summarize } from './cpu-profile.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : fallback;
};
const targetRoutes = Number(arg('routes', '10000'));
const baseline = !process.argv.includes('--no-baseline');
const work = join(tmpdir(), 'komax-bench-prerender');
// --port P uses P (the public port), P-2, P-3 and P-4 (emulators): keep them inside your port block.
const PORT = Number(arg('port', '4398'));
const HUB_PORT = PORT - 2;
const profileAt = process.argv.indexOf('--profile');
const profileDir = profileAt < 0 ? null : (process.argv[profileAt + 1] && !process.argv[profileAt + 1]!.startsWith('--') ? process.argv[profileAt + 1]! : join(tmpdir(), 'komax-bench-prerender-profile'));
if (profileDir) {
  rmSync(profileDir, { recursive: true, force: true });
  mkdirSync(join(profileDir, 'full'), { recursive: true });
  mkdirSync(join(profileDir, 'one-change'), { recursive: true });
}

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
buildIfNeeded(root);

// 1. A scaled dataset: the demo content plus generated main-site pages (each page is one route per main-site locale).
const dataDir = join(work, 'content');
cpSync(join(root, 'emulators/data/content'), dataDir, { recursive: true });
const pagesFile = join(dataDir, 'pages.json');
const pages = JSON.parse(readFileSync(pagesFile, 'utf8')) as { id: string; site: string | null; slug: string; parent: string | null; content: Record<string, unknown> }[];
const template = pages.find((p) => p.site === 'site-main' && p.parent && Object.keys(p.content).length === 3)!;

const catalogue = await startCatalogue({ port: HUB_PORT - 2, dataDir: join(root, 'emulators/data/catalogue'), quiet: true });
process.env.CATALOGUE_ENDPOINT = catalogue.url;
// Count the demo routes on a throwaway hub (its own port, so no pooled connection outlives it).
const probe = await startContentHub({ port: HUB_PORT + 1, dataDir, quiet: true });
const demo = await collect(servicesFromEnv(parseServerEnv({ CONTENT_ENDPOINT: probe.url, CATALOGUE_ENDPOINT: catalogue.url })), { mode: 'local', port: PORT });
probe.server.closeAllConnections();
await new Promise((r) => probe.server.close(r));
const mainLocales = new Set(demo.routes.filter((r) => r.siteId === 'site-main').map((r) => r.locale.code)).size;
const extra = Math.max(0, Math.ceil((targetRoutes - demo.routes.length) / mainLocales));
for (let i = 0; i < extra; i++) {
  pages.push({ ...structuredClone(template), id: `cbench${String(i).padStart(19, '0')}`, slug: `bench-page-${i}`, parent: null });
}
writeFileSync(pagesFile, JSON.stringify(pages));
const hub = await startContentHub({ port: HUB_PORT, dataDir, quiet: true });
const env = parseServerEnv({ ...process.env, CONTENT_ENDPOINT: hub.url, CATALOGUE_ENDPOINT: catalogue.url });
const services = servicesFromEnv(env);

// 2. Our prerender into a scratch dist (the built app is shared through links).
const dist = join(work, 'dist');
mkdirSync(dist);
symlinkSync(join(root, 'dist/server'), join(dist, 'server'));
symlinkSync(join(root, 'dist/client'), join(dist, 'client'));
// --threads N renders the full run on N threads (default: one per core), to see how it scales.
const threads = process.argv.includes('--threads') ? Number(arg('threads', '0')) : undefined;
const opts = { distDir: dist, env, mode: 'local' as const, port: PORT, ...(threads ? { threads } : {}) };

let full: PrerenderResult;
if (profileDir) {
  // This thread through the inspector (only around the run), the render threads with --cpu-prof.
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  full = await prerender({ ...opts, workerExecArgv: ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, 'full')}`, '--cpu-prof-interval=500'] });
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(join(profileDir, 'full', 'main.cpuprofile'), JSON.stringify(profile));
  session.disconnect();
} else {
  full = await prerender(opts);
}

// 3. The peer baseline: Astro's static build of the main host's routes, through the same components,
// with its incremental build on (a cache key per page: the hash of its model).
const CHANGED_ID = 'cbench0000000000000000000';
const CHANGED_TITLE = 'Changed for the benchmark';
let astro: { routes: number; seconds: number } | null = null;
let astroOne: { seconds: number } | string | null = null;
const astroProject = join(root, '.bench/astro-static');
const astroConfig = join(root, '.bench-astro-static.config.mjs');
const routesFile = join(work, 'astro-routes.json');
const writeAstroRoutes = async () => {
  const collected = await collect(services, { mode: 'local', port: PORT });
  const routes = collected.routes.filter((r) => r.host === 'localhost').map((r) => ({ path: r.path, model: r.model, cacheKey: hashOf(r.model) }));
  writeFileSync(routesFile, JSON.stringify(routes));
  return routes.length;
};
const astroBuild = async (): Promise<{ ok: boolean; seconds: number; log: string }> => {
  const started = performance.now();
  // Asynchronously: the content hub the build asks lives in this process.
  const res = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--config', '.bench-astro-static.config.mjs'], {
      cwd: root,
      env: { ...process.env, CONTENT_ENDPOINT: hub.url, LOG_LEVEL: 'error', ASTRO_TELEMETRY_DISABLED: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
  return { ok: res.status === 0, seconds: (performance.now() - started) / 1000, log: `${(res.stdout ?? '').slice(-2000)}\n${(res.stderr ?? '').slice(-2000)}` };
};
if (baseline) {
  // Inside the project root: Astro's compiler wants srcDir below the root.
  const project = astroProject;
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  // Same project root (so packages resolve as usual), a copy of src/ whose only page is a static one.
  cpSync(join(root, 'src'), join(project, 'src'), { recursive: true });
  cpSync(join(root, 'locales'), join(project, 'locales'), { recursive: true });
  // src/ imports the client directive's helpers from integrations/ (relative to src/).
  cpSync(join(root, 'integrations'), join(project, 'integrations'), { recursive: true });
  rmSync(join(project, 'src/pages'), { recursive: true });
  mkdirSync(join(project, 'src/pages'));
  const routeCount = await writeAstroRoutes();
  writeFileSync(join(project, 'src/pages/[...path].astro'), `---
import { readFileSync } from 'node:fs';
import ContentPageView from '../features/content-page/ContentPageView.astro';
export const prerender = true;
export function getStaticPaths() {
  const routes = JSON.parse(readFileSync(${JSON.stringify(routesFile)}, 'utf8'));
  return routes.map((r) => ({ params: { path: r.path.slice(1) }, props: { model: r.model }, cacheKey: r.cacheKey }));
}
---
<ContentPageView model={Astro.props.model} />
`);
  writeFileSync(astroConfig, `import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import interactionDirective from './integrations/interaction/index.ts';
export default defineConfig({ output: 'static', site: 'http://localhost:${PORT}', srcDir: ${JSON.stringify(join(project, 'src'))}, outDir: ${JSON.stringify(join(project, 'dist'))}, cacheDir: ${JSON.stringify(join(project, 'cache'))}, integrations: [react(), interactionDirective()], session: false, compressHTML: true, markdown: { syntaxHighlight: false }, trailingSlash: 'never', build: { inlineStylesheets: 'never', format: 'directory' }, security: { csp: true }, experimental: { incrementalBuild: true } });
`);
  const res = await astroBuild();
  if (res.ok) astro = { routes: routeCount, seconds: res.seconds };
  else console.error(`astro static build failed:\n${res.log}`);
}

// 4. One content change live: the real server (warmed by one earlier webhook), the webhook naming
// the changed record, then the page polled until it shows the new title.
const SECRET = 'bench-revalidation-secret';
const server = spawn(process.execPath, [
  // Profiled: SIGTERM must end the server by process.exit, so the profiles get written.
  ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, 'one-change')}`, '--import', 'data:text/javascript,process.once("SIGTERM",()=>process.exit(0))'] : []),
  join(root, 'src/server/main.ts')], {
  cwd: root,
  env: { ...process.env, CONTENT_ENDPOINT: hub.url, CATALOGUE_ENDPOINT: catalogue.url, PORT: String(PORT), HOST: '127.0.0.1', DIST_DIR: dist, REVALIDATE_SECRET: SECRET, PRERENDER_HOSTS: 'local', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const base = `http://localhost:${PORT}`;
const pageUrl = `${base}/en/bench-page-0`;
const get = (url: string) => fetch(url).then(async (r) => ({ status: r.status, text: await r.text() }));
for (let i = 0; ; i++) {
  if ((await get(pageUrl).catch(() => ({ status: 0, text: '' }))).status === 200) break;
  if (i > 600) throw new Error('the server did not start');
  await new Promise((r) => setTimeout(r, 50));
}
const changeTitle = (id: string, title: string) => fetch(hub.url, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query: `mutation { updatePageTitle(id: "${id}", language: "en", title: "${title}") { id } }` }),
});
const webhook = (id: string) => fetch(`${base}/api/revalidate`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-revalidate-secret': SECRET },
  body: JSON.stringify({ records: [{ model: 'page', id, stage: 'PUBLISHED' }] }),
}).then((r) => r.json() as Promise<PrerenderResult>);
// A server that has been up: one earlier webhook (another page) has run, and the link copy it
// staged for the next change is ready (a real webhook rarely follows the last within seconds).
const WARM_ID = 'cbench0000000000000000001';
await changeTitle(WARM_ID, 'Warm-up change');
const warm = await webhook(WARM_ID);
for (const started = performance.now(); warm.releaseId && performance.now() - started < 120_000;) {
  const releases = join(dist, 'static/releases');
  if (readdirSync(releases).some((id) => existsSync(join(releases, id, '.staged')))) break;
  await new Promise((r) => setTimeout(r, 50));
}
await changeTitle(CHANGED_ID, CHANGED_TITLE);
const webhookStart = performance.now();
const answer = webhook(CHANGED_ID);
let liveSeconds = 0;
for (;;) {
  const page = await get(pageUrl);
  if (page.text.includes(CHANGED_TITLE)) { liveSeconds = (performance.now() - webhookStart) / 1000; break; }
  if (performance.now() - webhookStart > 120_000) throw new Error('the change never went live');
}
const one = await answer;
// The search text follows the page (a targeted run writes the index after the swap).
let searchSeconds = 0;
for (;;) {
  const res = await fetch(`${base}/api/search-proxy/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ localeCode: 'en', siteSlug: '', query: CHANGED_TITLE }) });
  if ((await res.text()).includes(CHANGED_TITLE)) { searchSeconds = (performance.now() - webhookStart) / 1000; break; }
  if (performance.now() - webhookStart > 120_000) { searchSeconds = Number.NaN; break; }
  await new Promise((r) => setTimeout(r, 20));
}
// 5. Nothing changed, on the same server (its prerender thread warm, the services answering from
// this process on the other core, as remote services would): a webhook naming a record whose
// content is as the live release has it (the second of two), and webhooks naming nothing, which
// run what the periodic safety net runs: the first after the webhooks' releases collects
// everything and finds every fingerprint unchanged; the next asks that collect's service calls
// again and stops at the same answers. Each timed from the request to the answer.
const once = async (send: () => Promise<PrerenderResult>) => {
  const at = performance.now();
  const result = await send();
  return { result, wall: (performance.now() - at) / 1000 };
};
const timed = async (send: () => Promise<PrerenderResult>) => {
  await send();
  return once(send);
};
const noneTargeted = await timed(() => webhook(CHANGED_ID));
const everything = () => fetch(`${base}/api/revalidate`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-revalidate-secret': SECRET },
  body: '{}',
}).then((r) => r.json() as Promise<PrerenderResult>);
// The first full run after the webhooks' releases collects everything; the next asks its calls again.
const noneCollected = await once(everything);
const none = await once(everything);
server.kill('SIGTERM');
await new Promise((r) => server.once('exit', r));

// 6. The same change rebuilt by Astro's incremental build (its cache warm from step 3).
if (baseline && astro) {
  await writeAstroRoutes();
  const res = await astroBuild();
  astroOne = res.ok ? { seconds: res.seconds } : `failed: ${res.log.slice(-300)}`;
}
rmSync(astroConfig, { force: true });
if (!process.env.BENCH_KEEP) rmSync(join(root, '.bench'), { recursive: true, force: true });

hub.server.closeAllConnections();
hub.server.close();
catalogue.server.closeAllConnections();
catalogue.server.close();

const ours = full.rendered / full.seconds;
const rows: [string, string][] = [
  ['routes (all hosts)', `${full.total}`],
  ['full prerender, total', `${full.seconds.toFixed(2)} s`],
  ['full prerender, render phase', `${full.renderSeconds.toFixed(2)} s`],
  ['full prerender, pages/s (total)', `${Math.round(ours)}`],
  ['full prerender, pages/s (render phase)', `${Math.round(full.pagesPerSecond)}`],
  ['one change live: webhook request → new HTML served', `${liveSeconds.toFixed(2)} s`],
  ['  the run: scope, re-rendered routes', `${one.scope}${one.scopeReason ? ` (${one.scopeReason})` : ''}, ${one.rendered} rendered, ${one.unchanged} kept`],
  ['  the run: seconds to publish', `${one.seconds.toFixed(2)} s`],
  ['  of which collect / link copy / render', `${one.collectSeconds.toFixed(2)} / ${one.linkSeconds.toFixed(2)} / ${one.renderSeconds.toFixed(2)} s`],
  [`  search finds the change: webhook request → search answer (index written ${one.searchAfterPublish ? 'after' : 'before'} the swap)`, `${searchSeconds.toFixed(2)} s`],
  ['link copy staged after each publish (off the change\'s path)', `${full.stageSeconds.toFixed(2)} s`],
  ['nothing changed, a webhook naming an unchanged record: request → answer', `${noneTargeted.wall.toFixed(2)} s (run ${noneTargeted.result.seconds.toFixed(2)} s, ${noneTargeted.result.scope}, ${noneTargeted.result.rendered} rendered)`],
  ['nothing changed, a webhook naming nothing (the safety net\'s full run)', `${none.wall.toFixed(2)} s (run ${none.result.seconds.toFixed(2)} s, ${none.result.replayed ? 'the last full collect\'s calls asked again: same answers' : `collect ${none.result.collectSeconds.toFixed(2)} s`}, ${none.result.rendered} rendered)`],
  ['  the same, collecting everything (the first full run after a release went live)', `${noneCollected.wall.toFixed(2)} s (run ${noneCollected.result.seconds.toFixed(2)} s, collect ${noneCollected.result.collectSeconds.toFixed(2)} s, ${noneCollected.result.rendered} rendered)`],
];
if (astro) {
  const theirs = astro.routes / astro.seconds;
  rows.push(['astro static build (main host routes)', `${astro.routes} routes in ${astro.seconds.toFixed(1)} s`]);
  rows.push(['astro static build, pages/s', `${Math.round(theirs)}`]);
  rows.push(['speed-up (pages/s, ours / astro)', `${(ours / theirs).toFixed(1)}×`]);
  if (typeof astroOne === 'string') rows.push(['astro incrementalBuild, one change', astroOne]);
  else if (astroOne) {
    rows.push(['astro incrementalBuild, one change (warm cache)', `${astroOne.seconds.toFixed(2)} s`]);
    rows.push(['one change: ours (live) / astro incremental', `${(liveSeconds / astroOne.seconds).toFixed(2)}×`]);
  }
}
const width = Math.max(...rows.map(([k]) => k.length));
console.log(`\nprerender benchmark (${process.env.npm_package_name ?? 'komax'}; node ${process.version}; ${existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8').match(/model name\s*:\s*(.*)/)?.[1] : ''})`);
for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
if (profileDir) {
  console.log(`\nfull run, ${formatSummary(summarize(readProfiles(join(profileDir, 'full'))), full.rendered)}`);
  const serverProfiles = readProfiles(join(profileDir, 'one-change'));
  if (serverProfiles.length) console.log(`\none change, the server (start, prerender thread, serving), ${formatSummary(summarize(serverProfiles), one.rendered)}`);
  console.log(`\nprofiles in ${profileDir} (open them in Chrome DevTools → Performance)`);
}
process.exit(0);
