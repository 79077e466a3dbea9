import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { untilEdgeServes, writeServing } from './edge-release.ts';

describe('the release the edge serves (EDGE_SERVING_FILE)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kmx-edge-serving-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('waits until the edge names the release or a later one', async () => {
    const file = join(dir, 'serving');
    writeServing(file, 'mx0000000001aa');
    const waiting = untilEdgeServes(file, 'mx0000000002aa', { timeoutMs: 10_000, pollMs: 5 });
    let done = false;
    void waiting.then(() => { done = true; });
    await new Promise((r) => setTimeout(r, 50));
    expect(done).toBe(false);
    writeServing(file, 'mx0000000002aa');
    expect(await waiting).toBe(true);
    // A later release (the edge already moved on) counts as served.
    writeServing(file, 'mx0000000003aa');
    expect(await untilEdgeServes(file, 'mx0000000002aa', { timeoutMs: 0 })).toBe(true);
  });

  it('gives up after the time limit when the edge does not switch, or has written nothing', async () => {
    const file = join(dir, 'stale');
    expect(await untilEdgeServes(file, 'mx0000000002aa', { timeoutMs: 30, pollMs: 5 })).toBe(false);
    writeServing(file, null);
    expect(await untilEdgeServes(file, 'mx0000000002aa', { timeoutMs: 30, pollMs: 5 })).toBe(false);
    writeServing(file, 'mx0000000001aa');
    expect(await untilEdgeServes(file, 'mx0000000002aa', { timeoutMs: 30, pollMs: 5 })).toBe(false);
  });
});
