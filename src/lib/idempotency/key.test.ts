import { describe, expect, it } from 'vitest';
import { formatIdempotencyKey, keyHolder, newIdempotencyKey, outcomeUnknown, parseIdempotencyKey, readIdempotencyKey } from './key.ts';

describe('the Idempotency-Key header', () => {
  const uuid = '5f3c2a9e-8d1b-4c7a-9e2f-1a2b3c4d5e6f';

  it('reads the draft\'s quoted sf-string and the bare value', () => {
    expect(readIdempotencyKey(new Headers({ 'Idempotency-Key': `"${uuid}"` }))).toEqual({ kind: 'ok', key: uuid });
    expect(readIdempotencyKey(new Headers({ 'idempotency-key': uuid }))).toEqual({ kind: 'ok', key: uuid });
    expect(readIdempotencyKey(new Headers())).toEqual({ kind: 'missing' });
  });

  it('refuses short, long, odd and half-quoted keys with a clear message', () => {
    expect(parseIdempotencyKey('"abc"')).toEqual({ kind: 'malformed', message: 'The Idempotency-Key must have at least 16 characters.' });
    expect(parseIdempotencyKey('x'.repeat(129))).toMatchObject({ kind: 'malformed', message: expect.stringMatching(/at most 128/) });
    expect(parseIdempotencyKey('"abc def ghi jkl mno"')).toMatchObject({ kind: 'malformed', message: expect.stringMatching(/only hold letters/) });
    expect(parseIdempotencyKey(`"${uuid}`)).toMatchObject({ kind: 'malformed', message: expect.stringMatching(/one quoted string/) });
    expect(parseIdempotencyKey(`"${uuid}", "${uuid}"`)).toMatchObject({ kind: 'malformed' });
  });

  it('formats a new key so that the server reads it back', () => {
    const key = newIdempotencyKey();
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(parseIdempotencyKey(formatIdempotencyKey(key))).toEqual({ kind: 'ok', key });
  });
});

describe('keyHolder', () => {
  const counter = () => { let n = 0; return () => `key-${String(++n).padStart(16, '0')}`; };

  it('keeps the key made at opening across retries of the same content', () => {
    const keys = keyHolder(counter());
    const first = keys.current;
    expect(keys.for('{"a":1}')).toBe(first);
    expect(keys.for('{"a":1}')).toBe(first);
  });

  it('makes a new key after a settled attempt and when the content changed', () => {
    const keys = keyHolder(counter());
    const first = keys.for('{"a":1}');
    const second = keys.for('{"a":2}');
    expect(second).not.toBe(first);
    keys.settle();
    expect(keys.for('{"a":2}')).not.toBe(second);
  });
});

describe('outcomeUnknown', () => {
  it('is true for no answer, 502, 504 and 409, false for answers that settle it', () => {
    for (const s of [null, 502, 504, 409]) expect(outcomeUnknown(s), String(s)).toBe(true);
    for (const s of [200, 201, 400, 408, 413, 422, 429, 503]) expect(outcomeUnknown(s), String(s)).toBe(false);
  });
});
