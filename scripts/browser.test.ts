import { describe, expect, it } from 'vitest';
import { findBrowser, installPlan, type BrowserProbe } from './browser.ts';

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
    expect(plan.map((s) => s.args.join(' '))).toEqual([expect.stringContaining('apt-get install -y -qq chromium'), 'playwright install chromium']);
    expect(plan[0]!.args.join(' ')).toContain('apt-get update');
  });

  it('only tries Playwright without root or outside Debian', () => {
    expect(installPlan({ isRoot: false, isDebian: true, npx: 'npx' }).map((s) => s.command)).toEqual(['npx']);
    expect(installPlan({ isRoot: true, isDebian: false, npx: 'npx' }).map((s) => s.command)).toEqual(['npx']);
  });
});
