// A prerender killed at any step never leaves a half-written release live. The prerender CLI runs
// in a child process over a scratch DIST_DIR (the built app linked) against content-hub and
// catalogue emulators of its own over a small copy of the demo data (fixtures/small-dataset.ts:
// the same hosts and kinds of page, ~500 routes; the other e2e tests edit the suite's content hub
// meanwhile, which would change what the restart has to render). `PRERENDER_KILL_AT=<step>` makes
// the child SIGKILL itself when its run reaches that step (run.ts PRERENDER_STEPS), so every step
// is hit on every machine, however fast or busy: no timing decides where a kill lands.
//
// Before each killed run the page's title changes in the hub, so the run has that page's routes to
// render (under every locale of the main site) and a release to write; the rest stays as published.
// Killed before its publish, none of its work may show, and the restart must render the page again
// (its unpublished renders and fingerprints count for nothing) and publish it; killed at or after
// its publish, its release is live and complete, and the restart renders nothing. Each restart
// removes whatever the killed runs left behind. The release's completeness is checked route by route.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import config from '../../playwright.config.ts';
import { startEmulators, type RunningEmulators } from '../../emulators/start.ts';
import { PRERENDER_STEPS, type PrerenderStep } from '../../src/server/prerender/run.ts';
import { stagedBase } from '../../src/server/release/release.ts';
import { test, expect, PORT, hubAt, DATA } from './fixtures/index.ts';
import { expectOneCompleteRelease, releaseIdOf, walk } from './fixtures/release.ts';
import { writeSmallDataset } from './fixtures/small-dataset.ts';

const ROOT = process.cwd();
const E2E_DIST = join(ROOT, process.env.DIST_DIR ?? 'dist');
/** The page whose title each killed run changes: English only, so shown under /en, /de and /de-ch. */
const PAGE = DATA.englishOnlyPage;
const PAGE_ROUTES = ['/en', '/de', '/de-ch'].map((locale) => `${locale}${PAGE.path}`);
const PUBLISHED_AT = PRERENDER_STEPS.indexOf('published');
let emulators: RunningEmulators | null = null;

interface Run { killed: boolean; code: number | null; output: string }

function runPrerender(dist: string, opts: { killAt?: PrerenderStep } = {}): Promise<Run> {
  const webServerEnv = (config.webServer as { env: Record<string, string> }).env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/prerender.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...webServerEnv,
        DIST_DIR: dist,
        CONTENT_ENDPOINT: emulators!.contentEndpoint,
        CATALOGUE_ENDPOINT: emulators!.catalogueEndpoint,
        SEARCH_INDEX_DIR: join(dist, 'search'),
        PRERENDER_KILL_AT: opts.killAt ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ killed: signal === 'SIGKILL', code, output }));
  });
}

/** `prerender: N rendered, … of M routes` of a finished run. */
function counts(output: string): { rendered: number; total: number } {
  const [, rendered, total] = /prerender: (\d+) rendered, \d+ unchanged, \d+ removed of (\d+) routes/.exec(output) ?? [];
  expect(rendered, output).toBeDefined();
  return { rendered: Number(rendered), total: Number(total) };
}

/** Only live, previous and at most one staged copy of live are kept; no lock, no temporary file. */
function expectCleanedUp(dist: string, live: string): void {
  const output = join(dist, 'static');
  const staged = readdirSync(join(output, 'releases')).filter((id) => stagedBase(output, id) === live);
  expect(staged.length).toBeLessThanOrEqual(1);
  const kept = [live, ...(existsSync(join(output, 'previous')) ? [readlinkSync(join(output, 'previous')).slice('releases/'.length)] : []), ...staged];
  expect(readdirSync(join(output, 'releases')).sort()).toEqual([...new Set(kept)].sort());
  expect(readdirSync(output).filter((n) => n !== 'previous').sort()).toEqual(['live', 'releases']);
  expect([...walk(output), ...walk(join(dist, 'search'))].filter((f) => f.endsWith('.tmp'))).toEqual([]);
}

/** Gives the page a new title in the small dataset's hub; returns it. */
async function retitle(n: number): Promise<string> {
  const title = `Trade fair 2026, edition ${n}`;
  await hubAt(emulators!.contentEndpoint, 'mutation($id: ID!, $t: String!) { updatePageTitle(id: $id, language: "en", title: $t) { id } }', { id: PAGE.id, t: title });
  return title;
}

/** The live release shows the page with `title` under every locale, rendered by `since` or later. */
function expectPageTitled(dist: string, live: string, title: string, since: string): void {
  const release = join(dist, 'static', 'releases', live);
  for (const route of PAGE_ROUTES) {
    const file = join(release, 'localhost', route, 'index.html');
    expect(readFileSync(file, 'utf8'), route).toContain(title);
    expect(releaseIdOf(file)! >= since, `${route} rendered by ${releaseIdOf(file)}, before ${since}`).toBe(true);
  }
}

test('a prerender killed at each step leaves one complete release live; the next run publishes what was lost and cleans up', async () => {
  // A full run of ~500 routes, then ten that each render one page's routes.
  test.setTimeout(600_000);
  const dist = mkdtempSync(join(tmpdir(), 'komax-release-crash-'));
  try {
    // The built app (linked: its packages resolve from the project) and the small dataset's emulators.
    symlinkSync(join(E2E_DIST, 'server'), join(dist, 'server'));
    symlinkSync(join(E2E_DIST, 'client'), join(dist, 'client'));
    const data = join(dist, 'data');
    emulators = await startEmulators({
      ports: { contentHub: PORT - 250, catalogue: PORT - 251 }, identityPort: PORT - 252, ticketingPort: PORT - 253,
      identityDataDir: join(data, 'identity'), ticketingDataDir: join(data, 'ticketing'), formsDataDir: join(data, 'forms'),
      ...writeSmallDataset(data), quiet: true,
    });

    const seed = await runPrerender(dist);
    expect(seed.code, seed.output).toBe(0);
    const seedId = expectOneCompleteRelease(dist, 'seed');
    let edition = 0;

    // Killed before the publish: the seed stays live, whatever the run had written.
    for (const step of PRERENDER_STEPS.slice(0, PUBLISHED_AT)) {
      await retitle(++edition);
      const run = await runPrerender(dist, { killAt: step });
      expect(run.killed, `killed at ${step}:\n${run.output}`).toBe(true);
      expect(expectOneCompleteRelease(dist, `killed at ${step}`), `killed at ${step}`).toBe(seedId);
    }
    // The restart: none of the killed runs' work was published, so it renders the page's routes
    // again, publishes them, and removes what the runs left.
    const restart = await runPrerender(dist);
    expect(restart.code, restart.output).toBe(0);
    const { rendered, total } = counts(restart.output);
    expect(rendered, restart.output).toBeGreaterThanOrEqual(PAGE_ROUTES.length);
    expect(rendered).toBeLessThan(total / 10);
    const restarted = expectOneCompleteRelease(dist, 'after the first restart');
    expect(restarted).not.toBe(seedId);
    expectPageTitled(dist, restarted, `edition ${edition}`, restarted);
    expectCleanedUp(dist, restarted);

    // Killed at or after the publish: the run's release is live and complete.
    let live = restarted;
    for (const step of PRERENDER_STEPS.slice(PUBLISHED_AT)) {
      await retitle(++edition);
      const run = await runPrerender(dist, { killAt: step });
      expect(run.killed, `killed at ${step}:\n${run.output}`).toBe(true);
      const now = expectOneCompleteRelease(dist, `killed at ${step}`);
      expect(now, `killed at ${step}: its release is live`).not.toBe(live);
      expectPageTitled(dist, now, `edition ${edition}`, now);
      live = now;
    }
    // The restart has nothing to render, and removes what the killed runs left.
    const last = await runPrerender(dist);
    expect(last.code, last.output).toBe(0);
    expect(counts(last.output).rendered, last.output).toBe(0);
    expect(expectOneCompleteRelease(dist, 'after the last restart')).toBe(live);
    expectPageTitled(dist, live, `edition ${edition}`, live);
    expectCleanedUp(dist, live);
  } finally {
    await emulators?.close();
    rmSync(dist, { recursive: true, force: true });
  }
});
