import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'integrations/**/*.test.ts', 'emulators/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    environment: 'node',
    pool: 'threads',
    // The server logger stays quiet in unit tests; tests that check log lines capture them (src/lib/log/testing.ts).
    env: { LOG_LEVEL: 'none' },
  },
});
