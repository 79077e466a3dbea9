import { describe, expect, it } from 'vitest';
import { pool } from './pool.ts';

describe('pool', () => {
  it('does every item once, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await pool([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => setImmediate(resolve));
      done.push(n);
      running--;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('rejects with a failure', async () => {
    await expect(pool([1, 2], 2, (n) => (n === 2 ? Promise.reject(new Error('two')) : Promise.resolve()))).rejects.toThrow('two');
  });
});
