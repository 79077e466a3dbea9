import { describe, expect, it } from 'vitest';
import { hasUnread, LAST_READ_KEY, readLastRead, writeLastRead } from './unread.ts';

const memory = () => {
  const data = new Map<string, string>();
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
};

describe('hasUnread', () => {
  it('is true when the newest id differs from the last-read id', () => {
    expect(hasUnread('n2', 'n1')).toBe(true);
    expect(hasUnread('n2', null)).toBe(true);
  });

  it('is false when the newest item was read, or there is no news', () => {
    expect(hasUnread('n2', 'n2')).toBe(false);
    expect(hasUnread(null, null)).toBe(false);
    expect(hasUnread(null, 'n1')).toBe(false);
  });
});

describe('last-read storage', () => {
  it('writes and reads one key', () => {
    const s = memory();
    expect(readLastRead(s)).toBeNull();
    writeLastRead(s, 'n7');
    expect(readLastRead(s)).toBe('n7');
    expect([...s.data.keys()]).toEqual([LAST_READ_KEY]);
  });

  it('survives a storage that throws or is missing', () => {
    const broken = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('QuotaExceededError'); } };
    expect(readLastRead(broken)).toBeNull();
    expect(() => writeLastRead(broken, 'x')).not.toThrow();
    expect(readLastRead(null)).toBeNull();
    expect(() => writeLastRead(undefined, 'x')).not.toThrow();
  });
});
