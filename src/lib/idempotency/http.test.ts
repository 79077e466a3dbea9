import { describe, expect, it } from 'vitest';
import { idempotentAnswer, REPLAYED_HEADER, type StoredAnswer } from './http.ts';
import { memoryIdempotencyStore } from './store.ts';

const KEY = '"5f3c2a9e-8d1b-4c7a-9e2f-1a2b3c4d5e6f"';
const post = (body: unknown, key: string | null = KEY) => new Request('http://x/api/thing', {
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
  body: JSON.stringify(body),
});

describe('idempotentAnswer', () => {
  it('creates once: the same key twice gives the same first answer, marked as replayed', async () => {
    const store = memoryIdempotencyStore<StoredAnswer>();
    let created = 0;
    const write = async () => new Response(JSON.stringify({ id: `U-${++created}` }), { status: 201, headers: { 'content-type': 'application/json' } });
    const first = await idempotentAnswer(post({ email: 'a@b.ch' }), { scope: 'invite:u1', store }, write);
    const again = await idempotentAnswer(post({ email: 'a@b.ch' }), { scope: 'invite:u1', store }, write);
    expect(created).toBe(1);
    expect([first.status, await first.json()]).toEqual([201, { id: 'U-1' }]);
    expect([again.status, await again.json(), again.headers.get(REPLAYED_HEADER)]).toEqual([201, { id: 'U-1' }, 'true']);
  });

  it('answers 400 without a key or with a malformed one, before the write runs', async () => {
    let ran = false;
    const write = async () => { ran = true; return new Response('{}'); };
    const missing = await idempotentAnswer(post({}, null), { scope: 's' }, write);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: 'idempotency-key-required', message: expect.stringMatching(/needs an Idempotency-Key header/) });
    const malformed = await idempotentAnswer(post({}, '"short"'), { scope: 's' }, write);
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: 'idempotency-key-required', message: 'The Idempotency-Key must have at least 16 characters.' });
    expect(ran).toBe(false);
  });

  it('answers 422 for the same key with another body, 409 while the first request runs', async () => {
    const store = memoryIdempotencyStore<StoredAnswer>();
    let finish!: () => void;
    const slow = idempotentAnswer(post({ n: 1 }), { scope: 's', store }, () => new Promise((ok) => { finish = () => ok(new Response('{"id":1}', { status: 201 })); }));
    const concurrent = await idempotentAnswer(post({ n: 1 }), { scope: 's', store }, async () => new Response('{"id":2}', { status: 201 }));
    expect(concurrent.status).toBe(409);
    expect(concurrent.headers.get('retry-after')).toBe('1');
    finish();
    expect((await slow).status).toBe(201);
    const other = await idempotentAnswer(post({ n: 2 }), { scope: 's', store }, async () => new Response('{"id":3}', { status: 201 }));
    expect(other.status).toBe(422);
    expect(await other.json()).toMatchObject({ error: 'idempotency-key-reused' });
  });

  it('keeps no failure: a retry after a 502 runs the write again; another caller never sees the answer', async () => {
    const store = memoryIdempotencyStore<StoredAnswer>();
    const failed = await idempotentAnswer(post({ n: 1 }), { scope: 's', store }, async () => new Response('{"error":"down"}', { status: 502 }));
    expect(failed.status).toBe(502);
    const retry = await idempotentAnswer(post({ n: 1 }), { scope: 's', store }, async () => new Response('{"id":1}', { status: 201 }));
    expect([retry.status, retry.headers.get(REPLAYED_HEADER)]).toEqual([201, null]);
    const stranger = await idempotentAnswer(post({ n: 1 }), { scope: 'other-user', store }, async () => new Response('{"id":9}', { status: 201 }));
    expect(await stranger.json()).toEqual({ id: 9 });
  });

  it('leaves the body for the write to read', async () => {
    const res = await idempotentAnswer(post({ n: 7 }), { scope: 's' }, async () => new Response('{}', { status: 201 }));
    expect(res.status).toBe(201);
    let seen: unknown;
    const req = post({ n: 8 }, '"another-key-0123456789"');
    await idempotentAnswer(req, { scope: 's' }, async () => { seen = await req.json(); return new Response('{}', { status: 201 }); });
    expect(seen).toEqual({ n: 8 });
  });
});
