// Finds a Chromium for the e2e tests, or installs one, so `npm test` passes on a fresh machine.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { aptInstallCommand, isDebian, isExecutable, isRoot } from './system-package.ts';

/** Where a system Chromium usually lives (Debian's package first). */
export const SYSTEM_CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];

export interface BrowserProbe {
  env: Record<string, string | undefined>;
  /** True when the file exists and may be executed. */
  isExecutable(path: string): boolean;
  /** Playwright's own Chromium in its browser cache (it may not have been downloaded). */
  playwrightChromium(): string | null;
}

export type BrowserChoice = { path: string; source: 'CHROMIUM_PATH' | 'system' | 'playwright' };

/**
 * The browser the e2e tests use: `CHROMIUM_PATH` when set (an error when it does not point at an
 * executable, so a typo is not silently replaced), else a system Chromium, else Playwright's cache.
 */
export function findBrowser(probe: BrowserProbe): BrowserChoice | null {
  const configured = probe.env.CHROMIUM_PATH;
  if (configured) {
    if (!probe.isExecutable(configured)) throw new Error(`CHROMIUM_PATH=${configured} is not an executable file`);
    return { path: configured, source: 'CHROMIUM_PATH' };
  }
  const system = SYSTEM_CHROMIUM_PATHS.find((p) => probe.isExecutable(p));
  if (system) return { path: system, source: 'system' };
  const cached = probe.playwrightChromium();
  if (cached && probe.isExecutable(cached)) return { path: cached, source: 'playwright' };
  return null;
}

export interface InstallStep {
  /** What the step does, printed before it runs. */
  say: string;
  command: string;
  args: string[];
}

/**
 * How to install a browser on this machine, in order: Debian's `chromium` package when running as
 * root on Debian (the registry mirror always has it), then Playwright's own download.
 */
export function installPlan(facts: { isRoot: boolean; isDebian: boolean; npx: string }): InstallStep[] {
  const steps: InstallStep[] = [];
  if (facts.isRoot && facts.isDebian) {
    steps.push({ say: 'e2e: no Chromium found; installing the Debian package "chromium" (apt-get update first)', command: 'sh', args: ['-c', aptInstallCommand(['chromium', 'fonts-dejavu-core'])] });
  }
  steps.push({ say: 'e2e: no Chromium found; trying Playwright\'s download ("playwright install chromium")', command: facts.npx, args: ['playwright', 'install', 'chromium'] });
  return steps;
}

export const NO_BROWSER_MESSAGE = 'e2e: no Chromium found and none could be installed: install the Debian package (as root: apt-get update && apt-get install chromium) or run "npx playwright install chromium" where its download is reachable, or set CHROMIUM_PATH to a Chromium executable.';

function playwrightChromium(): string | null {
  try {
    const require = createRequire(import.meta.url);
    const { chromium } = require('playwright-core') as { chromium: { executablePath(): string } };
    return chromium.executablePath();
  } catch {
    return null;
  }
}

/** Finds or installs a browser; returns its path, or null after printing what to do. */
export function ensureBrowser(env: Record<string, string | undefined> = process.env): string | null {
  const probe: BrowserProbe = { env, isExecutable, playwrightChromium };
  const found = findBrowser(probe);
  if (found) return found.path;
  const plan = installPlan({ isRoot: isRoot(), isDebian: isDebian(), npx: 'npx' });
  for (const step of plan) {
    console.log(step.say);
    // Bounded: a download that cannot reach its host must not hang the test run.
    const run = spawnSync(step.command, step.args, { stdio: 'inherit', timeout: 10 * 60_000 });
    const after = findBrowser(probe);
    if (run.status === 0 && after) {
      console.log(`e2e: using ${after.path}`);
      return after.path;
    }
  }
  console.error(NO_BROWSER_MESSAGE);
  return null;
}
