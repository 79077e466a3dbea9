import { describe, expect, it } from 'vitest';
import { checkBodyHeaders, DRAIN_CAP_BYTES, readJsonBody } from './body.ts';

const post = (body: BodyInit, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  new Request('http://localhost/api', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);

describe('readJsonBody', () => {
  it('parses a JSON body within the limit', async () => {
    expect(await readJsonBody(post('{"a":"Zürich"}'), 100)).toEqual({ kind: 'ok', value: { a: 'Zürich' } });
  });

  it('refuses another content type, and malformed JSON', async () => {
    expect(await readJsonBody(post('{}', { 'content-type': 'text/plain' }), 100)).toEqual({ kind: 'unsupported' });
    expect(await readJsonBody(post('{"a":'), 100)).toEqual({ kind: 'malformed' });
  });

  it('refuses a declared length over the limit without reading the body', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({ pull(c) { pulled++; c.enqueue(new Uint8Array(10)); } });
    const req = post(body, { 'content-type': 'application/json', 'content-length': '1000' });
    expect(await readJsonBody(req, 100)).toEqual({ kind: 'too-large' });
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it('answers an undeclared (chunked) body as soon as it passes the limit (what follows is only dropped, see below)', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({ pull(c) { pulled++; c.enqueue(new Uint8Array(64)); } });
    // The stream never ends: an answer at all shows the reader did not wait for it.
    expect(await readJsonBody(post(body), 100)).toEqual({ kind: 'too-large' });
    expect(pulled).toBeGreaterThan(1);
  });
});

describe('checkBodyHeaders and the drain after an overflow', () => {
  it('refuses by headers alone: another type, a declared length over the limit or not a number', () => {
    const rule = { maxBytes: 10, types: ['application/json'] };
    expect(checkBodyHeaders(post('{}', { 'content-type': 'text/plain', 'content-length': '2' }), rule)).toBe('unsupported');
    // A typed request without a body (an empty DELETE with a Content-Type) has nothing to refuse.
    expect(checkBodyHeaders(new Request('http://localhost/api', { method: 'DELETE', headers: { 'content-type': 'application/json' } }), { maxBytes: 0, types: [] })).toBeNull();
    expect(checkBodyHeaders(post('x'.repeat(11), { 'content-type': 'application/json', 'content-length': '11' }), rule)).toBe('too-large');
    expect(checkBodyHeaders(post('{}'), rule)).toBeNull();
    expect(checkBodyHeaders(new Request('http://localhost/api', { method: 'POST' }), rule)).toBeNull();
    expect(checkBodyHeaders(new Request('http://localhost/api', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '1e9' } }), rule)).toBe('too-large');
  });

  it('reads on past the limit only up to a cap and keeps nothing of it', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({ pull(c) { pulled++; c.enqueue(new Uint8Array(1024 * 1024)); } });
    expect(await readJsonBody(post(body), 100)).toEqual({ kind: 'too-large' });
    await expect.poll(() => pulled, { timeout: 5000 }).toBeGreaterThanOrEqual(DRAIN_CAP_BYTES / (1024 * 1024));
    const settled = pulled;
    await new Promise((r) => setTimeout(r, 50));
    expect(pulled).toBeLessThanOrEqual(settled + 2);
  });
});
