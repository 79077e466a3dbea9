import { describe, expect, it } from 'vitest';
import { hashPassword, hashPasswordSync, isPasswordHash, parsePasswordHash, verifyPassword } from './password.ts';

const FAST = { N: 1024, r: 8, p: 1 };

describe('password hashes', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('Editor-Pass 1', FAST);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('Editor-Pass 1', stored)).toBe(true);
    expect(await verifyPassword('Editor-Pass 2', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('hashes the same way without a callback', async () => {
    expect(await verifyPassword('sync', hashPasswordSync('sync', FAST))).toBe(true);
  });

  it('salts every hash', async () => {
    expect(await hashPassword('same', FAST)).not.toBe(await hashPassword('same', FAST));
  });

  it('treats composed and decomposed unicode alike', async () => {
    const stored = await hashPassword('Zu\u0308rich', FAST);
    expect(await verifyPassword('Z\u00fcrich', stored)).toBe(true);
  });

  it('refuses malformed or hostile hashes without throwing', async () => {
    const good = await hashPassword('x', FAST);
    for (const bad of ['', 'plain', good.replace('scrypt', 'bcrypt'), good.replace('$1024$', '$1000$'), good.replace('$1024$', `$${2 ** 24}$`), `${good}$extra`]) {
      expect(isPasswordHash(bad)).toBe(false);
      expect(await verifyPassword('x', bad)).toBe(false);
    }
    expect(parsePasswordHash(good)?.N).toBe(1024);
  });
});
