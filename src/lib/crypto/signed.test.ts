import { describe, expect, it } from 'vitest';
import { readSignedValue, signValue } from './signed.ts';

const SECRET = 'a'.repeat(32);

describe('signed values', () => {
  it('round-trips a payload until it expires', () => {
    const now = Date.UTC(2026, 0, 1);
    const value = signValue({ page: 'p1' }, SECRET, 60, now);
    expect(readSignedValue(value, SECRET, now + 59_000)).toMatchObject({ page: 'p1' });
    expect(readSignedValue(value, SECRET, now + 60_000)).toBeNull();
  });

  it('refuses another secret, an altered payload or signature, and junk', () => {
    const value = signValue({ page: 'p1' }, SECRET, 60);
    const [body, sig] = value.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ page: 'p2', exp: 9e9 })).toString('base64url');
    expect(readSignedValue(value, 'b'.repeat(32))).toBeNull();
    expect(readSignedValue(`${forged}.${sig}`, SECRET)).toBeNull();
    expect(readSignedValue(`${body}.${sig.slice(0, -2)}`, SECRET)).toBeNull();
    for (const junk of [undefined, '', '.', 'abc', `.${sig}`, 'x'.repeat(5000)]) expect(readSignedValue(junk, SECRET)).toBeNull();
  });
});
