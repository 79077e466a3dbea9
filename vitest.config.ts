import { defineConfig } from 'vitest/config';

export const INCLUDE = ['src/**/*.test.ts', 'integrations/**/*.test.ts', 'emulators/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/unit/**/*.test.ts', 'tests/support/**/*.test.ts'];

/**
 * Files that replace globals (window, document, fetch, storage), fake the clock or re-import
 * modules: each runs in a fresh worker of its own, so nothing it changes reaches another file.
 */
export const ISOLATED = [
  'src/components/memo.test.ts',
  'src/features/basket/store.test.ts',
  'src/features/platform/cookies.test.ts',
  'src/lib/cache/data-cache.test.ts',
  'src/lib/http/upload-guard.test.ts',
  'src/lib/identity/storage.test.ts',
  'src/server/boot/startup.test.ts',
  'src/server/revalidate/revalidate.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    pool: 'threads',
    // Every core (vitest's default leaves one free: on a 2-core machine that is one file at a time).
    maxWorkers: '100%',
    // Limits that only catch a hang: vitest's 5 s / 10 s defaults fail a sign-in against the identity
    // emulator or a seed of its users on a busy machine. Tests wait for conditions, not for time.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The server logger stays quiet in unit tests; tests that check log lines capture them (tests/support/log.ts).
    env: { LOG_LEVEL: 'none' },
    projects: [
      {
        extends: true,
        // A fresh worker per file cost half the unit suite's CPU (a new thread and the whole module
        // graph evaluated again for each of ~250 files). The files below need no fresh worker: they
        // change no global state, and a unit test in `tests/unit/vitest-config.test.ts` keeps it so.
        test: { name: 'shared', include: INCLUDE, exclude: ISOLATED, isolate: false },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, isolate: true },
      },
    ],
  },
});
