import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'integrations/**/*.test.ts', 'emulators/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/unit/**/*.test.ts', 'tests/support/**/*.test.ts'],
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
  },
});
