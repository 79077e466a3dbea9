import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readTokens, TOKENS_KEY } from './storage.ts';

/** A Web Storage in memory (the tests run in node). */
class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() { return this.items.size; }
  clear() { this.items.clear(); }
  getItem(key: string) { return this.items.get(key) ?? null; }
  key(index: number) { return [...this.items.keys()][index] ?? null; }
  removeItem(key: string) { this.items.delete(key); }
  setItem(key: string, value: string) { this.items.set(key, String(value)); }
}

beforeEach(() => {
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('sessionStorage', new MemoryStorage());
});
afterEach(() => vi.unstubAllGlobals());

describe('the stored token set keeps no refresh token (issue 28)', () => {
  it('an entry an older release wrote with a refresh token is written again without it', () => {
    localStorage.setItem(TOKENS_KEY, JSON.stringify({ accessToken: 'a', idToken: 'i', refreshToken: 'r', tokenExpiry: 5 }));
    expect(readTokens()).toEqual({ accessToken: 'a', idToken: 'i', tokenExpiry: 5 });
    expect(localStorage.getItem(TOKENS_KEY)).not.toContain('refresh');
  });

});
