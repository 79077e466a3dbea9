// A prerender killed at any point never leaves a half-written release live: the prerender CLI runs
// in a child process over a scratch DIST_DIR (the built app linked, a first complete run as the
// starting point) against content-hub and catalogue emulators of its own (the other e2e tests edit
// the suite's content hub meanwhile, which would change what the restart has to render), is
// SIGKILLed at random moments, and after each
// kill the live tree must be one complete release. A last run without a kill must then render
// everything the killed runs did not publish and clean up what they left.
//
// The killed runs render with a tag manager id the live release was not rendered with (part of
// every fingerprint, visible in the HTML), so each one has every page to write and none of it may
// show. CRASH_ROUNDS (default 4) sets the number of kills; CRASH_RUN_SECONDS the expected length
// of a full run (kills land between 2 % and 105 % of it; a run that finishes first updates it).
// The restart runs with the live release's configuration (nothing to render: quick); with
// CRASH_RESTART=rerender it keeps the killed runs' configuration and must render and publish
// every route (a full render: minutes on a busy machine).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import config from '../../playwright.config.ts';
import { startEmulators, type RunningEmulators } from '../../emulators/start.ts';
import { stagedBase } from '../../src/server/release.ts';
import { test, expect, PORT } from './fixtures/index.ts';
import { expectOneCompleteRelease, releaseIdOf, walk, type Meta } from './fixtures/release.ts';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 4);
let expectedSeconds = Number(process.env.CRASH_RUN_SECONDS ?? 45);
const ROOT = process.cwd();
const E2E_DIST = join(ROOT, process.env.DIST_DIR ?? 'dist');
/** Part of every route's fingerprint and visible in the HTML: the child's runs must re-render every route. */
const GTM = 'GTM-CRASHTEST';
const RERENDER = process.env.CRASH_RESTART === 'rerender';
let emulators: RunningEmulators | null = null;

function runPrerender(dist: string, args: string[], killAfterMs: number | null, gtm: string | undefined = GTM): Promise<{ killed: boolean; code: number | null; seconds: number; output: string }> {
  const webServerEnv = (config.webServer as { env: Record<string, string> }).env;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // At the lowest priority, so the other e2e tests running meanwhile keep their share of the CPU
    // (nice execs node: the pid killed is the prerender's).
    const child = spawn('nice', ['-n', '19', process.execPath, join(ROOT, 'scripts/prerender.ts'), ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...webServerEnv,
        DIST_DIR: dist,
        CONTENT_ENDPOINT: emulators!.contentEndpoint,
        CATALOGUE_ENDPOINT: emulators!.catalogueEndpoint,
        SEARCH_INDEX_DIR: join(dist, 'search'),
        TAG_MANAGER_ID: gtm ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    let killed = false;
    const timer = killAfterMs === null ? null : setTimeout(() => {
      killed = child.kill('SIGKILL');
    }, killAfterMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ killed: killed && code === null, code, seconds: (performance.now() - started) / 1000, output });
    });
  });
}

test('a prerender killed at any point leaves the previous release complete and live; the next run completes the work and cleans up', async () => {
  test.setTimeout((ROUNDS * 90 + (RERENDER ? 480 : 120) + 120) * 1000);
  const dist = mkdtempSync(join(tmpdir(), 'komax-release-crash-'));
  try {
    // The built app (linked: its packages resolve from the project), and a first complete run
    // against this test's own emulators as the starting point.
    symlinkSync(join(E2E_DIST, 'server'), join(dist, 'server'));
    symlinkSync(join(E2E_DIST, 'client'), join(dist, 'client'));
    const output = join(dist, 'static');
    emulators = await startEmulators({ ports: { contentHub: PORT - 250, catalogue: PORT - 251 }, quiet: true });
    const first = await runPrerender(dist, [], null, undefined);
    expect(first.code, first.output).toBe(0);
    if (!process.env.CRASH_RUN_SECONDS) expectedSeconds = first.seconds;
    const seedId = expectOneCompleteRelease(dist, 'seed');

    /** The first release published with the killed runs' configuration (a run that finished before its kill). */
    let taggedSince: string | null = null;
    for (let round = 1; round <= ROUNDS; round++) {
      const fraction = 0.02 + Math.random() * 1.03;
      const run = await runPrerender(dist, ['--all'], Math.round(fraction * expectedSeconds * 1000));
      if (!run.killed) {
        expect(run.code, `round ${round} finished on its own:\n${run.output}`).toBe(0);
        expectedSeconds = run.seconds;
      }
      const live = expectOneCompleteRelease(dist, `round ${round}`);
      if (!run.killed) taggedSince ??= live;
      console.log(`[release-crash] round ${round}: ${run.killed ? `killed after ${run.seconds.toFixed(1)} s` : `finished in ${run.seconds.toFixed(1)} s`} (${Math.round(fraction * 100)} % of ${expectedSeconds.toFixed(0)} s), live ${live}`);
    }

    // The restart: an ordinary incremental run removes what the killed runs left and publishes
    // exactly what differs from the live release. With the live release's configuration that is
    // nothing (or what other tests edited in the content hub meanwhile); with the killed runs'
    // configuration, when none of them finished, it is every route: none of their work was published.
    const tagged = RERENDER || taggedSince !== null;
    const last = await runPrerender(dist, [], null, tagged ? GTM : undefined);
    expect(last.code, last.output).toBe(0);
    const live = expectOneCompleteRelease(dist, 'after the restart');
    if (tagged && !taggedSince) {
      expect(last.output).toMatch(/, release [0-9a-z]+/);
      expect(live).not.toBe(seedId);
      taggedSince = live;
    } else {
      // The content did not change: nothing to render, and without a finished round the seed is still live.
      const [, rendered] = /prerender: (\d+) rendered, \d+ unchanged, \d+ removed of (\d+) routes/.exec(last.output) ?? [];
      expect(Number(rendered), last.output).toBe(0);
      if (!taggedSince) expect(live).toBe(seedId);
    }
    if (taggedSince) {
      // Every live page was rendered with the new configuration, by a published release.
      const release = join(output, 'releases', live);
      for (const host of ['localhost', 'events.localhost', 'partner.localhost']) {
        const meta = JSON.parse(readFileSync(join(release, host, 'builds/meta', `${live}.json`), 'utf8')) as Meta;
        const stale = Object.keys(meta.routes).filter((route) => (releaseIdOf(join(release, host, route, 'index.html')) ?? '') < taggedSince!);
        expect(stale.slice(0, 10), `${host}: routes not re-rendered (${stale.length})`).toEqual([]);
      }
      expect(readFileSync(join(release, 'localhost/en/index.html'), 'utf8')).toContain(`data-gtm-id="${GTM}"`);
    }
    // Besides live and previous, at most the staged link copy of live that a publish leaves for the
    // next change (none when the last run published nothing after a run that took the copy).
    const staged = readdirSync(join(output, 'releases')).filter((id) => stagedBase(output, id) === live);
    expect(staged.length).toBeLessThanOrEqual(1);
    const kept = [live, ...(existsSync(join(output, 'previous')) ? [readlinkSync(join(output, 'previous')).slice('releases/'.length)] : []), ...staged];
    expect(readdirSync(join(output, 'releases')).sort()).toEqual(kept.sort());
    console.log(`[release-crash] restart: ${last.output.trim().split('\n').pop()}`);
    // No unfinished release (checked above), no lock, no temporary file anywhere.
    expect(readdirSync(output).filter((n) => n !== 'previous').sort()).toEqual(['live', 'releases']);
    expect([...walk(output), ...walk(join(dist, 'search'))].filter((f) => f.endsWith('.tmp'))).toEqual([]);
  } finally {
    await emulators?.close();
    rmSync(dist, { recursive: true, force: true });
  }
});
