// Finds a Chromium for the e2e tests, or installs one, so `npm test` passes on a fresh machine.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { aptInstallCommand, isDebian, isExecutable, isRoot } from './system-package.ts';

/**
 * Debian's headless shell (package chromium-headless-shell: the same Chromium build without the
 * browser's UI, GPU and compositor processes; what Playwright itself uses for headless runs). A
 * page load costs about a third of the CPU of the full browser's headless mode, and the e2e suite
 * spends most of its CPU in the browser. The binary, not the /usr/bin wrapper (a shell script that
 * does not exec, so the browser would not be the process Playwright stops).
 */
export const HEADLESS_SHELL_PATHS = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell'];
/** Where a full system Chromium usually lives (Debian's package first). */
export const SYSTEM_CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'];

export interface BrowserProbe {
  env: Record<string, string | undefined>;
  /** True when the file exists and may be executed. */
  isExecutable(path: string): boolean;
  /** Playwright's own Chromium in its browser cache (it may not have been downloaded). */
  playwrightChromium(): string | null;
}

export type BrowserChoice = { path: string; source: 'CHROMIUM_PATH' | 'headless-shell' | 'system' | 'playwright' };

/**
 * The browser the e2e tests use: `CHROMIUM_PATH` when set (an error when it does not point at an
 * executable, so a typo is not silently replaced), else the system's headless shell, else a full
 * system Chromium, else Playwright's cache.
 */
export function findBrowser(probe: BrowserProbe): BrowserChoice | null {
  const configured = probe.env.CHROMIUM_PATH;
  if (configured) {
    if (!probe.isExecutable(configured)) throw new Error(`CHROMIUM_PATH=${configured} is not an executable file`);
    return { path: configured, source: 'CHROMIUM_PATH' };
  }
  const shell = HEADLESS_SHELL_PATHS.find((p) => probe.isExecutable(p));
  if (shell) return { path: shell, source: 'headless-shell' };
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
 * How to install a browser on this machine, in order: Debian's `chromium` package with its headless
 * shell when running as root on Debian (the registry mirror always has them), then Playwright's own
 * download.
 */
export function installPlan(facts: { isRoot: boolean; isDebian: boolean; npx: string }): InstallStep[] {
  const steps: InstallStep[] = [];
  if (facts.isRoot && facts.isDebian) {
    steps.push({ say: 'e2e: no Chromium found; installing the Debian packages "chromium" and "chromium-headless-shell" (apt-get update first)', command: 'sh', args: ['-c', aptInstallCommand(['chromium', 'chromium-headless-shell', 'fonts-dejavu-core'])] });
  }
  steps.push({ say: 'e2e: no Chromium found; trying Playwright\'s download ("playwright install chromium")', command: facts.npx, args: ['playwright', 'install', 'chromium'] });
  return steps;
}

/**
 * With a full Chromium but no headless shell, as root on Debian: the shell is installed beside it
 * (the full browser works too, at about three times the CPU per page).
 */
export function headlessShellPlan(found: BrowserChoice, facts: { isRoot: boolean; isDebian: boolean }): InstallStep | null {
  if (found.source !== 'system' || !facts.isRoot || !facts.isDebian) return null;
  return { say: 'e2e: installing the Debian package "chromium-headless-shell" beside the full Chromium (a third of its CPU per page)', command: 'sh', args: ['-c', aptInstallCommand(['chromium-headless-shell'])] };
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
  if (found) {
    const shell = headlessShellPlan(found, { isRoot: isRoot(), isDebian: isDebian() });
    if (!shell) return found.path;
    console.log(shell.say);
    spawnSync(shell.command, shell.args, { stdio: 'inherit', timeout: 10 * 60_000 });
    const after = findBrowser(probe);
    if (after?.source === 'headless-shell') console.log(`e2e: using ${after.path}`);
    return (after ?? found).path;
  }
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
