import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { hashPasswordSync } from './src/lib/crypto/password.ts';
import { HEADLESS_SHELL_PATHS } from './scripts/browser.ts';
import { isExecutable } from './scripts/system-package.ts';

/** E2E runs against the real server and emulators on loopback, in the system Chromium (no browser download). */
/** E2E_PORT lets several suites run side by side (each with its own DIST_DIR). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
export const E2E_HUB_PORT = E2E_PORT - 200;
/** The identity emulator's port and data folder: a fresh folder per run (removed when the runner loads this file, not in its workers). */
export const E2E_IDENTITY_PORT = E2E_PORT - 202;
const E2E_IDENTITY_DATA_DIR = fileURLToPath(new URL(`dist-e2e-identity-${E2E_PORT}`, import.meta.url));
if (!process.env.KMX_E2E_IDENTITY_FRESH) {
  process.env.KMX_E2E_IDENTITY_FRESH = '1';
  rmSync(E2E_IDENTITY_DATA_DIR, { recursive: true, force: true });
}
/** The ticketing emulator's port and data folder: also fresh per run (tickets and attachments created by earlier runs are gone). */
export const E2E_TICKETING_PORT = E2E_PORT - 203;
const E2E_TICKETING_DATA_DIR = fileURLToPath(new URL(`dist-e2e-ticketing-${E2E_PORT}`, import.meta.url));
if (!process.env.KMX_E2E_TICKETING_FRESH) {
  process.env.KMX_E2E_TICKETING_FRESH = '1';
  rmSync(E2E_TICKETING_DATA_DIR, { recursive: true, force: true });
}
/** The content hub's forms data folder (submissions of the request forms): fresh per run as well. */
export const E2E_FORMS_DATA_DIR = fileURLToPath(new URL(`dist-e2e-forms-${E2E_PORT}`, import.meta.url));
if (!process.env.KMX_E2E_FORMS_FRESH) {
  process.env.KMX_E2E_FORMS_FRESH = '1';
  rmSync(E2E_FORMS_DATA_DIR, { recursive: true, force: true });
}

/**
 * The editor-area password of the e2e server (its hash is made once per run). Tests get editor
 * sessions by signing in with it (tests/e2e/fixtures/editor.ts).
 */
export const E2E_EDITOR_PASSWORD = 'e2e-editor-password';
process.env.KMX_E2E_EDITOR_HASH ??= hashPasswordSync(E2E_EDITOR_PASSWORD, { N: 2 ** 14, r: 8, p: 1 });

/** The spec files that take longest (about a minute each on an idle 2-core machine). */
const LONG_SPECS = ['**/tickets.spec.ts', '**/user-admin.spec.ts', '**/release-crash.spec.ts', '**/static-delivery.spec.ts', '**/sign-in.spec.ts', '**/locations.spec.ts', '**/upstream-faults.spec.ts', '**/service-faults.spec.ts'];

export default defineConfig({
  testDir: 'tests/e2e',
  // Tests wait for conditions, never for time: these limits only catch a hang, and are far above
  // what any test needs on a busy 2-core machine (a sign-in, a revalidation, axe on a long page).
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: process.env.CI ? 2 : undefined,
  // No retries anywhere: a test that passes only on a retry is a failing test.
  retries: 0,
  reporter: [['list']],
  // Workers take spec files in order, one file at a time. The longest files go first, so the run
  // does not end with one worker still busy with a long file while the other has nothing left.
  projects: [
    { name: 'long', testMatch: LONG_SPECS },
    { name: 'other', testIgnore: LONG_SPECS },
  ],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? HEADLESS_SHELL_PATHS.find(isExecutable) ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
    // A failed test keeps a trace of its actions, network and console, and a screenshot of the end.
    // No screencast or DOM snapshots: recording them for every test (kept only on failure) cost
    // 40 % of the browser's and the test workers' CPU (catalogue + dashboard specs: 26.3 CPU-s with
    // them, 16.2 without, 15.4 with no trace at all).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node scripts/start.ts',
    url: `http://127.0.0.1:${E2E_PORT}/en`,
    // A fresh checkout builds the app and prerenders every route (~9,000) before the first test.
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      CONTENT_HUB_PORT: String(E2E_HUB_PORT),
      CATALOGUE_PORT: String(E2E_HUB_PORT - 1),
      IDENTITY_PORT: String(E2E_IDENTITY_PORT),
      IDENTITY_DATA_DIR: E2E_IDENTITY_DATA_DIR,
      TICKETING_PORT: String(E2E_TICKETING_PORT),
      TICKETING_DATA_DIR: E2E_TICKETING_DATA_DIR,
      FORMS_DATA_DIR: E2E_FORMS_DATA_DIR,
      REVALIDATE_SECRET: 'e2e-revalidate-secret-0123456789',
      EDITOR_PASSWORD_HASH: process.env.KMX_E2E_EDITOR_HASH,
      PAGE_GRANT_SECRET: 'e2e-page-grant-secret-0123456789abcdef',
      LOG_LEVEL: 'error',
      // The emulators share two cores with the browser, the server and its prerender: a healthy
      // local service may need more than the production default of 5 s on a busy machine. The
      // specs that prove the timeouts start servers of their own with short ones.
      UPSTREAM_TIMEOUT_MS: '30000',
      // Every browser of the suite is one client address (127.0.0.1): together they start more
      // image renders a minute than one visitor's limit (120). The limit itself is unit-tested.
      IMAGE_RENDERS_PER_CLIENT_MINUTE: '5000',
      // Third-party scripts served by the content hub emulator, to prove when they load and when not.
      COOKIE_CONSENT_SCRIPT_URL: `http://127.0.0.1:${E2E_HUB_PORT}/assets/scripts/consent.js`,
      MONITORING_SCRIPT_URL: `http://127.0.0.1:${E2E_HUB_PORT}/assets/scripts/monitoring.js`,
    },
  },
});
