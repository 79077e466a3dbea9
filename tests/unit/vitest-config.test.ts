// The unit suite shares workers between test files (vitest.config.ts: isolate false), which halves
// its CPU. A file that changes global state (stubs a global, fakes the clock, spies on a shared
// object, re-imports modules, sets an environment variable) would leak into the next file of its
// worker: such a file must be listed in ISOLATED, where it gets a fresh worker of its own.
import { readFileSync, existsSync } from 'node:fs';
import { globSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { INCLUDE, ISOLATED } from '../../vitest.config.ts';

const GLOBAL_STATE = [
  /\bvi\.(?:stubGlobal|stubEnv|resetModules|doMock|mock|useFakeTimers|spyOn)\(/,
  /\bprocess\.env(?:\.[A-Za-z_]\w*|\[[^\]]+\])\s*=(?!=)/,
  /\bdelete\s+process\.env\b/,
  /\bglobalThis\.[A-Za-z_]\w*\s*=(?!=)/,
  /\bObject\.defineProperty\(\s*globalThis\b/,
];

/** Test files whose source matches a pattern of global state. */
function changesGlobalState(source: string): boolean {
  return GLOBAL_STATE.some((re) => re.test(source));
}

describe('vitest configuration', () => {
  const files = INCLUDE.flatMap((pattern) => globSync(pattern)).sort();

  it('finds the test files', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(files).toContain('tests/unit/vitest-config.test.ts');
  });

  it('lists every file that changes global state as isolated, and only existing files', () => {
    const needIsolation = files.filter((f) => f !== 'tests/unit/vitest-config.test.ts' && changesGlobalState(readFileSync(f, 'utf8')));
    expect(needIsolation.filter((f) => !ISOLATED.includes(f))).toEqual([]);
    expect(ISOLATED.filter((f) => !existsSync(f))).toEqual([]);
  });

  it('recognises the kinds of global state', () => {
    expect(changesGlobalState("vi.stubGlobal('fetch', f)")).toBe(true);
    expect(changesGlobalState('beforeEach(() => vi.useFakeTimers());')).toBe(true);
    expect(changesGlobalState("process.env.PORT = '1'")).toBe(true);
    expect(changesGlobalState("process.env['PORT'] = '1'")).toBe(true);
    expect(changesGlobalState('globalThis.fetch = f')).toBe(true);
    expect(changesGlobalState("if (process.env.CI === 'true') {}")).toBe(false);
    expect(changesGlobalState('const x = vi.fn()')).toBe(false);
  });
});
