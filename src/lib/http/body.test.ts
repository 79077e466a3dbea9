import { describe, expect, it } from 'vitest';
import { readJsonBody } from './body.ts';

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

  it('stops reading an undeclared (chunked) body as soon as it passes the limit', async () => {
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({ pull(c) { pulled++; c.enqueue(new Uint8Array(64)); } });
    expect(await readJsonBody(post(body), 100)).toEqual({ kind: 'too-large' });
    expect(pulled).toBeLessThan(5);
  });
});
