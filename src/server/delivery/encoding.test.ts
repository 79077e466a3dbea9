import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressOnTheFly, etagFor, etagMatches, isCompressibleType, negotiateEncoding, sendEncoded } from './encoding.ts';
import { inject } from '../../../tests/support/node-http.ts';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['deflate', 'identity'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.0, gzip;q=0', 'identity'],
    ['gzip;q=1.0, br;q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['gzip, *;q=0', 'gzip'],
    ['BR', 'br'],
    ['identity', 'identity'],
    ['br ; q = 0 , gzip ; q = 0.8', 'gzip'],
  ] as const)('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });

  it('chooses among the codings available only', () => {
    expect(negotiateEncoding('br, gzip', ['gzip', 'identity'])).toBe('gzip');
    expect(negotiateEncoding('br', ['gzip', 'identity'])).toBe('identity');
    expect(negotiateEncoding('br, gzip', ['identity'])).toBe('identity');
  });
});

describe('ETags per coding', () => {
  it('suffixes the tag inside its quotes and keeps W/', () => {
    expect(etagFor('"fp"', 'br')).toBe('"fp-br"');
    expect(etagFor('W/"1-2"', 'gzip')).toBe('W/"1-2-gzip"');
    expect(etagFor('"fp"', 'identity')).toBe('"fp"');
  });

  it('matches If-None-Match lists, weakly, and *', () => {
    expect(etagMatches('"a", "fp-br"', '"fp-br"')).toBe(true);
    expect(etagMatches('W/"fp-br"', '"fp-br"')).toBe(true);
    expect(etagMatches('*', '"x"')).toBe(true);
    expect(etagMatches('"fp"', '"fp-br"')).toBe(false);
    expect(etagMatches(undefined, '"fp"')).toBe(false);
  });
});

describe('isCompressibleType', () => {
  it.each([
    ['text/html; charset=utf-8', true], ['application/json', true], ['text/javascript', true], ['image/svg+xml', true],
    ['application/xml', true], ['application/manifest+json', true], ['text/event-stream', false], ['application/pdf', false],
    ['image/webp', false], ['application/octet-stream', false], ['application/zip', false], [undefined, false],
  ] as const)('%s → %s', (type, expected) => {
    expect(isCompressibleType(type)).toBe(expected);
  });
});

const BIG = `<main>${'<p>Komax wire processing</p>'.repeat(200)}</main>`;

/** A stand-in for Astro's node handler: headers in writeHead, the body in chunks. */
function astroLike(opts: { type?: string; body?: string | Buffer; status?: number; headers?: Record<string, string>; chunks?: number } = {}) {
  return (req: IncomingMessage, res: ServerResponse) => {
    compressOnTheFly(req, res);
    const body = Buffer.from(opts.body ?? BIG);
    res.writeHead(opts.status ?? 200, { 'content-type': opts.type ?? 'text/html', ...opts.headers });
    const n = opts.chunks ?? 3;
    const size = Math.ceil(body.byteLength / n);
    for (let i = 0; i < n; i++) res.write(body.subarray(i * size, (i + 1) * size));
    res.end();
  };
}

describe('compressOnTheFly', () => {
  it('compresses a large HTML answer in br, drops the length and adds Vary', async () => {
    const res = await inject(astroLike(), { url: '/en/x', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['content-length']).toBeUndefined();
    expect(brotliDecompressSync(res.bytes).toString()).toBe(BIG);
  });

  it('uses gzip when br is refused (q=0), and a suffixed ETag', async () => {
    const res = await inject(astroLike({ type: 'application/json', headers: { etag: '"v1"', 'content-length': String(BIG.length) } }), { url: '/api/x', headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect([res.headers['content-encoding'], res.headers.etag, res.headers['content-length']]).toEqual(['gzip', '"v1-gzip"', undefined]);
    expect(gunzipSync(res.bytes).toString()).toBe(BIG);
  });

  it('keeps a body of many small chunks written over several turns whole and in order, and runs every write callback', async () => {
    const parts = Array.from({ length: 600 }, (_, i) => `<p data-i="${i}">${String(i).repeat(i % 7)}</p>`);
    let callbacks = 0;
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      compressOnTheFly(req, res);
      res.writeHead(200, { 'content-type': 'text/html' });
      void (async () => {
        for (let i = 0; i < parts.length; i++) {
          // Big and small writes, some with a callback, across turns of the event loop.
          res.write(i % 100 === 0 ? `${parts[i]}${'x'.repeat(20_000)}` : parts[i], () => { callbacks++; });
          if (i % 50 === 0) await new Promise((r) => setImmediate(r));
        }
        res.end();
      })();
    };
    const res = await inject(handler, { url: '/en/x', headers: { 'accept-encoding': 'br' } });
    const expected = parts.map((p, i) => (i % 100 === 0 ? `${p}${'x'.repeat(20_000)}` : p)).join('');
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.bytes).toString()).toBe(expected);
    expect(callbacks).toBe(parts.length);
  });

  it('compresses an error page too (a 404 of a big page)', async () => {
    const res = await inject(astroLike({ status: 404 }), { url: '/en/missing', headers: { 'accept-encoding': 'gzip' } });
    expect([res.status, res.headers['content-encoding']]).toEqual([404, 'gzip']);
    expect(gunzipSync(res.bytes).toString()).toBe(BIG);
  });

  it('compresses a body given to end() alone', async () => {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      compressOnTheFly(req, res);
      res.setHeader('Content-Type', 'text/plain');
      res.end(BIG);
    };
    const res = await inject(handler, { url: '/x', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.bytes).toString()).toBe(BIG);
  });

  it('leaves alone: small bodies, no Accept-Encoding, binaries, event streams, encoded bodies, ranges, no-transform, 304, HEAD', async () => {
    const cases: [ReturnType<typeof astroLike>, Record<string, string>, string?][] = [
      [astroLike({ body: '<p>tiny</p>', headers: { 'content-length': '11' } }), { 'accept-encoding': 'br' }],
      [astroLike(), {}],
      [astroLike({ type: 'application/pdf' }), { 'accept-encoding': 'br' }],
      [astroLike({ type: 'image/png' }), { 'accept-encoding': 'gzip' }],
      [astroLike({ type: 'text/event-stream' }), { 'accept-encoding': 'br' }],
      [astroLike({ headers: { 'content-encoding': 'gzip' } }), { 'accept-encoding': 'br' }],
      [astroLike({ status: 206, headers: { 'content-range': 'bytes 0-9/100' } }), { 'accept-encoding': 'br' }],
      [astroLike({ headers: { 'cache-control': 'no-transform' } }), { 'accept-encoding': 'br' }],
      [astroLike({ status: 304 }), { 'accept-encoding': 'br' }],
      [astroLike(), { 'accept-encoding': 'br' }, 'HEAD'],
    ];
    for (const [handler, headers, method] of cases) {
      const res = await inject(handler, { url: '/x', headers, method });
      const expected = headers['content-encoding'] ?? (handler === cases[5]![0] ? 'gzip' : undefined);
      expect(res.headers['content-encoding']).toBe(expected);
    }
  });

  it('holds the headers back until the size is known: a small streamed body goes out as it is, with its length', async () => {
    const res = await inject(astroLike({ body: '{"items":[1,2,3]}', type: 'application/json' }), { url: '/api/x', headers: { 'accept-encoding': 'br' } });
    expect([res.headers['content-encoding'], res.headers['content-length'], res.body]).toEqual([undefined, '17', '{"items":[1,2,3]}']);
    expect(res.headers.vary).toBe('Accept-Encoding');
  });

  it('keeps a small body given to end() as it is, with its length', async () => {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      compressOnTheFly(req, res);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    };
    const res = await inject(handler, { url: '/x', headers: { 'accept-encoding': 'br' } });
    expect([res.headers['content-encoding'], res.body]).toEqual([undefined, '{"ok":true}']);
  });
});

describe('sendEncoded', () => {
  const file = { bodies: { identity: Buffer.from(BIG), br: Buffer.from('BR'), gzip: Buffer.from('GZ') }, encodings: ['br', 'gzip', 'identity'] as const };
  const handler = (req: IncomingMessage, res: ServerResponse) => sendEncoded(req, res, file, { etag: '"fp"', contentType: 'text/html; charset=utf-8' });

  it('sends the best coding with its length, ETag and Vary', async () => {
    const br = await inject(handler, { url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect([br.status, br.headers['content-encoding'], br.headers['content-length'], br.headers.etag, br.headers.vary, br.body]).toEqual([200, 'br', '2', '"fp-br"', 'Accept-Encoding', 'BR']);
    const gz = await inject(handler, { url: '/', headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect([gz.headers['content-encoding'], gz.headers.etag, gz.body]).toEqual(['gzip', '"fp-gzip"', 'GZ']);
    const plain = await inject(handler, { url: '/' });
    expect([plain.headers['content-encoding'], plain.headers.etag, plain.headers['content-length'], plain.body]).toEqual([undefined, '"fp"', String(BIG.length), BIG]);
  });

  it('answers 304 only to the ETag of the coding it would send', async () => {
    const hit = await inject(handler, { url: '/', headers: { 'accept-encoding': 'br', 'if-none-match': '"fp-br"' } });
    expect([hit.status, hit.body, hit.headers.etag, hit.headers.vary]).toEqual([304, '', '"fp-br"', 'Accept-Encoding']);
    const otherCoding = await inject(handler, { url: '/', headers: { 'accept-encoding': 'gzip', 'if-none-match': '"fp-br"' } });
    expect([otherCoding.status, otherCoding.body]).toEqual([200, 'GZ']);
  });

  it('sends the encoded length and no body to HEAD', async () => {
    const head = await inject(handler, { url: '/', method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect([head.status, head.headers['content-encoding'], head.headers['content-length'], head.body]).toEqual([200, 'br', '2', '']);
  });
});
