import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { IdempotencyKeys, idempotencyKeyOf } from './idempotency.ts';

describe('IdempotencyKeys (emulators)', () => {
  it('says "in progress" to a concurrent duplicate and replays the first answer once it finished', async () => {
    const keys = new IdempotencyKeys(new DatabaseSync(':memory:'));
    let finish!: () => void;
    let runs = 0;
    const write = () => new Promise<{ status: number; body: string }>((ok) => { runs++; finish = () => ok({ status: 200, body: '{"id":1}' }); });
    const first = keys.once('sub', 'key-0123456789abcdef', 'f', write);
    expect(await keys.once('sub', 'key-0123456789abcdef', 'f', write)).toEqual({ kind: 'in-progress' });
    finish();
    expect(await first).toEqual({ kind: 'fresh', answer: { status: 200, body: '{"id":1}' } });
    expect(await keys.once('sub', 'key-0123456789abcdef', 'f', write)).toEqual({ kind: 'replayed', answer: { status: 200, body: '{"id":1}' } });
    expect(runs).toBe(1);
  });

  it('forgets keys after 24 hours and releases failed writes', async () => {
    let now = 0;
    const keys = new IdempotencyKeys(new DatabaseSync(':memory:'), () => now);
    await keys.once('s', 'k', 'f', async () => ({ status: 200, body: '1' }));
    await keys.once('s', 'failed', 'f', async () => ({ status: 500, body: '' }));
    expect((await keys.once('s', 'failed', 'f', async () => ({ status: 200, body: '2' }))).kind).toBe('fresh');
    now += 24 * 3600_000 - 1;
    expect((await keys.once('s', 'k', 'f', async () => ({ status: 200, body: '3' }))).kind).toBe('replayed');
    now += 2;
    expect(await keys.once('s', 'k', 'f', async () => ({ status: 200, body: '3' }))).toEqual({ kind: 'fresh', answer: { status: 200, body: '3' } });
  });

  it('reads the header quoted or bare', () => {
    expect(idempotencyKeyOf({ 'idempotency-key': '"abcdefgh-12345678"' })).toBe('abcdefgh-12345678');
    expect(idempotencyKeyOf(new Headers({ 'Idempotency-Key': 'abcdefgh-12345678' }))).toBe('abcdefgh-12345678');
    expect(idempotencyKeyOf({})).toBeNull();
    expect(idempotencyKeyOf({ 'idempotency-key': 'x' })).toBe('malformed');
  });
});
