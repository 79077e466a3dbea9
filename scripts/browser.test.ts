import { describe, expect, it } from 'vitest';
import { findBrowser, headlessShellPlan, installPlan, type BrowserProbe } from './browser.ts';

const probe = (executables: string[], env: Record<string, string> = {}, cached: string | null = '/root/.cache/ms-playwright/chromium-1/chrome'): BrowserProbe => ({
  env,
  isExecutable: (p) => executables.includes(p),
  playwrightChromium: () => cached,
});

describe('findBrowser', () => {
  it('prefers CHROMIUM_PATH', () => {
    expect(findBrowser(probe(['/opt/chrome', '/usr/bin/chromium'], { CHROMIUM_PATH: '/opt/chrome' }))).toEqual({ path: '/opt/chrome', source: 'CHROMIUM_PATH' });
  });

  it('refuses a CHROMIUM_PATH that is not executable instead of silently using another browser', () => {
    expect(() => findBrowser(probe(['/usr/bin/chromium'], { CHROMIUM_PATH: '/nope' }))).toThrow(/CHROMIUM_PATH=\/nope/);
  });

  it('prefers Debian\'s headless shell (the binary, not its wrapper script) to the full Chromium', () => {
    expect(findBrowser(probe(['/usr/bin/chromium', '/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell']))).toEqual({ path: '/usr/lib/chromium/chromium-headless-shell', source: 'headless-shell' });
  });

  it('uses the system Chromium, then Playwright\'s cache', () => {
    expect(findBrowser(probe(['/usr/bin/chromium']))?.source).toBe('system');
    expect(findBrowser(probe(['/usr/bin/google-chrome']))?.path).toBe('/usr/bin/google-chrome');
    expect(findBrowser(probe(['/root/.cache/ms-playwright/chromium-1/chrome']))).toEqual({ path: '/root/.cache/ms-playwright/chromium-1/chrome', source: 'playwright' });
  });

  it('finds nothing on a fresh machine (the case that failed every e2e test)', () => {
    expect(findBrowser(probe([]))).toBeNull();
    expect(findBrowser(probe([], {}, null))).toBeNull();
  });
});

describe('installPlan', () => {
  it('installs the Debian package first when root on Debian, then tries Playwright\'s download', () => {
    const plan = installPlan({ isRoot: true, isDebian: true, npx: 'npx' });
    expect(plan.map((s) => s.args.join(' '))).toEqual([expect.stringContaining('apt-get install -y -qq chromium chromium-headless-shell'), 'playwright install chromium']);
    expect(plan[0]!.args.join(' ')).toContain('apt-get update');
  });

  it('only tries Playwright without root or outside Debian', () => {
    expect(installPlan({ isRoot: false, isDebian: true, npx: 'npx' }).map((s) => s.command)).toEqual(['npx']);
    expect(installPlan({ isRoot: true, isDebian: false, npx: 'npx' }).map((s) => s.command)).toEqual(['npx']);
  });
});

describe('headlessShellPlan', () => {
  it('adds the headless shell beside a full Debian Chromium when root, and nothing otherwise', () => {
    const full = { path: '/usr/bin/chromium', source: 'system' } as const;
    expect(headlessShellPlan(full, { isRoot: true, isDebian: true })?.args.join(' ')).toMatch(/apt-get update .*apt-get install -y -qq chromium-headless-shell/);
    expect(headlessShellPlan(full, { isRoot: false, isDebian: true })).toBeNull();
    expect(headlessShellPlan(full, { isRoot: true, isDebian: false })).toBeNull();
    expect(headlessShellPlan({ path: '/usr/lib/chromium/chromium-headless-shell', source: 'headless-shell' }, { isRoot: true, isDebian: true })).toBeNull();
    expect(headlessShellPlan({ path: '/opt/chrome', source: 'CHROMIUM_PATH' }, { isRoot: true, isDebian: true })).toBeNull();
  });
});
