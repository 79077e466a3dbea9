// A prerender killed at any step never leaves a half-written release live. The prerender CLI runs
// in a child process over a scratch DIST_DIR (the built app linked) against content-hub and
// catalogue emulators of its own over a small copy of the demo data (fixtures/small-dataset.ts:
// the same hosts and kinds of page, ~500 routes; the other e2e tests edit the suite's content hub
// meanwhile, which would change what the restart has to render). `PRERENDER_KILL_AT=<step>` makes
// the child SIGKILL itself when its run reaches that step (run.ts PRERENDER_STEPS), so every step
// is hit on every machine, however fast or busy: no timing decides where a kill lands.
//
// The killed runs render with a tag manager id the live release was not rendered with (part of
// every fingerprint, visible in the HTML), so each one has every page to write. Killed before
// its publish, none of that may show, and the restart must render and publish every route; killed
// at or after its publish, its release is live and complete, and the restart renders nothing. Each
// restart removes whatever the killed runs left behind.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import config from '../../playwright.config.ts';
import { startEmulators, type RunningEmulators } from '../../emulators/start.ts';
import { PRERENDER_STEPS, type PrerenderStep } from '../../src/server/prerender/run.ts';
import { stagedBase } from '../../src/server/release.ts';
import { test, expect, PORT } from './fixtures/index.ts';
import { expectOneCompleteRelease, releaseIdOf, walk, type Meta } from './fixtures/release.ts';
import { writeSmallDataset } from './fixtures/small-dataset.ts';

const ROOT = process.cwd();
const E2E_DIST = join(ROOT, process.env.DIST_DIR ?? 'dist');
/** Part of every route's fingerprint and visible in the HTML: the child's runs must re-render every route. */
const GTM = 'GTM-CRASHTEST';
const PUBLISHED_AT = PRERENDER_STEPS.indexOf('published');
let emulators: RunningEmulators | null = null;

interface Run { killed: boolean; code: number | null; output: string }

function runPrerender(dist: string, opts: { all?: boolean; killAt?: PrerenderStep; gtm?: string }): Promise<Run> {
  const webServerEnv = (config.webServer as { env: Record<string, string> }).env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/prerender.ts'), ...(opts.all ? ['--all'] : [])], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...webServerEnv,
        DIST_DIR: dist,
        CONTENT_ENDPOINT: emulators!.contentEndpoint,
        CATALOGUE_ENDPOINT: emulators!.catalogueEndpoint,
        SEARCH_INDEX_DIR: join(dist, 'search'),
        TAG_MANAGER_ID: opts.gtm ?? '',
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

/** Every live page of every host was rendered with the killed runs' configuration, by a published release. */
function expectEveryPageTagged(dist: string, live: string, taggedSince: string): void {
  const release = join(dist, 'static', 'releases', live);
  for (const host of ['localhost', 'events.localhost', 'partner.localhost']) {
    const meta = JSON.parse(readFileSync(join(release, host, 'builds/meta', `${live}.json`), 'utf8')) as Meta;
    const stale = Object.keys(meta.routes).filter((route) => (releaseIdOf(join(release, host, route, 'index.html')) ?? '') < taggedSince);
    expect(stale.slice(0, 10), `${host}: routes not re-rendered (${stale.length})`).toEqual([]);
  }
  expect(readFileSync(join(release, 'localhost/en/index.html'), 'utf8')).toContain(`data-gtm-id="${GTM}"`);
}

test('a prerender killed at each step leaves one complete release live; the next run publishes what was lost and cleans up', async () => {
  // Eleven runs of ~500 routes: a few seconds each on an idle machine, more on a busy one.
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

    const seed = await runPrerender(dist, {});
    expect(seed.code, seed.output).toBe(0);
    const seedId = expectOneCompleteRelease(dist, 'seed');

    // Killed before the publish: the seed stays live, whatever the run had written.
    for (const step of PRERENDER_STEPS.slice(0, PUBLISHED_AT)) {
      const run = await runPrerender(dist, { all: true, killAt: step, gtm: GTM });
      expect(run.killed, `killed at ${step}:\n${run.output}`).toBe(true);
      expect(expectOneCompleteRelease(dist, `killed at ${step}`), `killed at ${step}`).toBe(seedId);
    }
    // The restart with the killed runs' configuration: none of their work was published, so it
    // renders and publishes every route, and removes what they left.
    const restart = await runPrerender(dist, { gtm: GTM });
    expect(restart.code, restart.output).toBe(0);
    const { rendered, total } = counts(restart.output);
    expect(rendered).toBe(total);
    const tagged = expectOneCompleteRelease(dist, 'after the first restart');
    expect(tagged).not.toBe(seedId);
    expectEveryPageTagged(dist, tagged, tagged);
    expectCleanedUp(dist, tagged);

    // Killed at or after the publish: the run's release is live and complete.
    let live = tagged;
    for (const step of PRERENDER_STEPS.slice(PUBLISHED_AT)) {
      const run = await runPrerender(dist, { all: true, killAt: step, gtm: GTM });
      expect(run.killed, `killed at ${step}:\n${run.output}`).toBe(true);
      const now = expectOneCompleteRelease(dist, `killed at ${step}`);
      expect(now, `killed at ${step}: its release is live`).not.toBe(live);
      live = now;
    }
    // The restart has nothing to render, and removes what the killed runs left.
    const last = await runPrerender(dist, { gtm: GTM });
    expect(last.code, last.output).toBe(0);
    expect(counts(last.output).rendered, last.output).toBe(0);
    expect(expectOneCompleteRelease(dist, 'after the last restart')).toBe(live);
    expectEveryPageTagged(dist, live, tagged);
    expectCleanedUp(dist, live);
  } finally {
    await emulators?.close();
    rmSync(dist, { recursive: true, force: true });
  }
});
