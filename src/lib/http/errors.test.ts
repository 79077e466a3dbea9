import { describe, expect, it } from 'vitest';
import { publicReason } from './errors.ts';

describe('publicReason', () => {
  it('keeps a plain message', () => {
    expect(publicReason(new Error('content hub timed out'))).toBe('content hub timed out');
  });

  it('drops file paths, URLs, stack frames and further lines', () => {
    const err = new Error("ENOENT: no such file or directory, open '/srv/app/dist/static/live/en/index.html'\n    at open (node:fs:1:1)");
    expect(publicReason(err)).toBe("ENOENT: no such file or directory, open '…'");
    expect(publicReason(new Error('fetch failed: connect ECONNREFUSED http://127.0.0.1:4199/graphql'))).toBe('fetch failed: connect ECONNREFUSED …');
    expect(publicReason(new Error('C:\\app\\dist\\x.json missing'))).toBe('… missing');
  });

  it('is short, and says something for an empty or non-Error value', () => {
    expect(publicReason(new Error('x'.repeat(500))).length).toBeLessThanOrEqual(160);
    expect(publicReason(undefined)).toBe('unknown error');
    expect(publicReason(new Error(''))).toBe('unknown error');
  });
});
