import { describe, expect, it } from 'vitest';
import { memorySharedState } from './index.ts';

describe('memorySharedState', () => {
  it('a key is recorded until its expiry; only the first claim of a live key wins', async () => {
    let now = 1_000;
    const state = memorySharedState(() => now);
    expect(await state.has('a')).toBe(false);
    expect(await state.claim('a', 2_000)).toBe(true);
    expect(await state.claim('a', 5_000)).toBe(false);
    expect(await state.has('a')).toBe(true);
    expect(await state.has('b')).toBe(false);
    now = 2_000;
    expect(await state.has('a')).toBe(false);
    expect(await state.claim('a', 3_000)).toBe(true);
  });

  it('stays bounded by the live entries: expired ones are swept as the map grows', async () => {
    let now = 0;
    const state = memorySharedState(() => now);
    for (let i = 0; i < 5_000; i++) {
      await state.claim(`k${i}`, now + 10);
      now += 1;
    }
    // At most the live entries of the last 10 ms plus what arrived since the last sweep.
    expect(state.size()).toBeLessThan(1100);
    expect(await state.has('k4999')).toBe(true);
    expect(await state.has('k0')).toBe(false);
  });

  it('an already expired claim is granted but not kept', async () => {
    const state = memorySharedState(() => 10);
    expect(await state.claim('x', 5)).toBe(true);
    expect(state.size()).toBe(0);
  });
});
