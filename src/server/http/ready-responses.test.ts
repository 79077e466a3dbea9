import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applySecurityHeaders, CACHE_HTML, SECURITY_HEADERS } from './headers.ts';
import { sendEncoded, type Encoding } from '../delivery/encoding.ts';
import { livePointer, ReadyResponses, readyResponse, sendReady } from './ready-responses.ts';
import { setPointer } from '../release/release.ts';
import type { StaticFile } from '../delivery/static-site.ts';
import { inject } from '../../../tests/support/node-http.ts';

const fileOf = (bodies: Partial<Record<Encoding, string>> & { identity: string }): StaticFile => {
  const encodings = (['br', 'gzip'] as const).filter((e) => bodies[e] !== undefined);
  return {
    bodies: Object.fromEntries(Object.entries(bodies).map(([k, v]) => [k, Buffer.from(v)])) as StaticFile['bodies'],
    encodings: [...encodings, 'identity'],
    tag: 't1',
  };
};

const PAGE = fileOf({ identity: '<p>page</p>', br: 'BR-BYTES', gzip: 'GZ-BYTES' });
const HEADERS = { 'X-Render': 'prerendered', 'Cache-Control': CACHE_HTML, 'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'" };
const pageReady = () => readyResponse(PAGE, { etag: '"fp"', contentType: 'text/html; charset=utf-8', headers: HEADERS });

/** The way the server sent a file before ready responses: security headers, the caller's headers, sendEncoded. */
const sentBefore = (req: IncomingMessage, res: ServerResponse) => {
  applySecurityHeaders(res);
  for (const [k, v] of Object.entries(HEADERS)) res.setHeader(k, v);
  sendEncoded(req, res, PAGE, { etag: '"fp"', contentType: 'text/html; charset=utf-8' });
};

describe('sendReady', () => {
  const cases = [
    ['br', 'gzip, deflate, br, zstd'],
    ['gzip', 'br;q=0, gzip'],
    ['identity', undefined],
    ['identity', 'zstd'],
  ] as const;

  it.each(cases)('sends the %s coding for Accept-Encoding %j with exactly the headers and body sendEncoded sent', async (coding, accept) => {
    const headers: Record<string, string> = accept === undefined ? {} : { 'accept-encoding': accept };
    const ready = pageReady();
    const now = await inject((req, res) => sendReady(req, res, ready), { url: '/en', headers });
    const before = await inject(sentBefore, { url: '/en', headers });
    expect(now).toEqual(before);
    expect(now.headers['content-encoding']).toBe(coding === 'identity' ? undefined : coding);
    expect(now.headers.etag).toBe(coding === 'identity' ? '"fp"' : `"fp-${coding}"`);
    expect(now.bytes.toString()).toBe(PAGE.bodies[coding]!.toString());
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(now.headers[name.toLowerCase()]).toBe(value);
  });

  it('answers 304 to the ETag of the coding it would send only, with the same headers as before', async () => {
    const ready = pageReady();
    const requests: Record<string, string>[] = [
      { 'accept-encoding': 'br', 'if-none-match': '"fp-br"' },
      { 'accept-encoding': 'gzip', 'if-none-match': 'W/"fp-gzip", "other"' },
      { 'if-none-match': '*' },
      { 'accept-encoding': 'gzip', 'if-none-match': '"fp-br"' },
    ];
    for (const headers of requests) {
      const now = await inject((req, res) => sendReady(req, res, ready), { url: '/en', headers });
      expect(now).toEqual(await inject(sentBefore, { url: '/en', headers }));
    }
    const miss = await inject((req, res) => sendReady(req, res, ready), { url: '/en', headers: { 'accept-encoding': 'gzip', 'if-none-match': '"fp-br"' } });
    expect(miss.status).toBe(200);
  });

  it('sends the encoded length and no body to HEAD', async () => {
    const head = await inject((req, res) => sendReady(req, res, pageReady()), { url: '/en', method: 'HEAD', headers: { 'accept-encoding': 'br' } });
    expect([head.status, head.headers['content-length'], head.headers['content-encoding'], head.body]).toEqual([200, '8', 'br', '']);
  });

  it('sends a file without siblings as it is, whatever the client accepts', async () => {
    const small = readyResponse(fileOf({ identity: 'User-agent: *' }), { etag: '"s"', contentType: 'text/plain; charset=utf-8' });
    const res = await inject((req, res) => sendReady(req, res, small), { url: '/robots.txt', headers: { 'accept-encoding': 'br, gzip' } });
    expect([res.body, res.headers['content-encoding'], res.headers.etag, res.headers.vary]).toEqual(['User-agent: *', undefined, '"s"', 'Accept-Encoding']);
  });

  it('adds the request id, and writes every header in one writeHead without a setHeader', async () => {
    const ready = pageReady();
    let setHeaders = 0;
    let writeHeads = 0;
    const res = await inject((req, res) => {
      const set = res.setHeader.bind(res);
      res.setHeader = ((...a: Parameters<typeof res.setHeader>) => { setHeaders++; return set(...a); }) as typeof res.setHeader;
      const head = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
      res.writeHead = ((...a: unknown[]) => { writeHeads++; return head(...a); }) as typeof res.writeHead;
      sendReady(req, res, ready, 'req-1');
    }, { url: '/en', headers: { 'accept-encoding': 'br' } });
    expect([res.headers['x-request-id'], res.headers['content-encoding'], setHeaders, writeHeads]).toEqual(['req-1', 'br', 0, 1]);
  });
});

describe('ReadyResponses', () => {
  it('keeps a response per host and path for the release it was built from', () => {
    const cache = new ReadyResponses();
    const ready = pageReady();
    expect(cache.get('r1', 'localhost', '/en')).toBeUndefined();
    cache.set('r1', 'localhost', '/en', ready);
    expect(cache.get('r1', 'localhost', '/en')).toBe(ready);
    expect(cache.get('r1', 'events.localhost', '/en')).toBeUndefined();
    expect(cache.get('r1', 'localhost', '/en/x')).toBeUndefined();
  });

  it('is emptied by a lookup under another release, and never keeps a response of an older release', () => {
    const cache = new ReadyResponses();
    cache.get('r1', 'localhost', '/en');
    cache.set('r1', 'localhost', '/en', pageReady());
    // The pointer moved: the first lookup under r2 drops everything of r1.
    expect(cache.get('r2', 'localhost', '/en')).toBeUndefined();
    expect(cache.size).toBe(0);
    // A request still reading r1 finishes after the swap: its answer is not kept for r2's visitors.
    cache.set('r1', 'localhost', '/en', pageReady());
    expect(cache.get('r2', 'localhost', '/en')).toBeUndefined();
    expect(cache.size).toBe(0);
    // And no release live: nothing kept either.
    cache.set('r2', 'localhost', '/en', pageReady());
    expect(cache.get(null, 'localhost', '/en')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('stays within its byte bound, dropping the least recently used, and never keeps a response over the entry bound', () => {
    const big = (n: number) => readyResponse(fileOf({ identity: 'x'.repeat(n), gzip: 'y'.repeat(n / 2) }), { etag: '"b"', contentType: 'text/html' });
    const cache = new ReadyResponses({ maxBytes: 10_000, maxEntryBytes: 5_000 });
    cache.get('r1', 'h', '/');
    for (let i = 0; i < 10; i++) cache.set('r1', 'h', `/p${i}`, big(2_000));
    // 3,000 bytes + 512 of headers each: at most two fit in 10,000.
    expect(cache.size).toBe(2);
    expect(cache.get('r1', 'h', '/p9')).toBeDefined();
    expect(cache.get('r1', 'h', '/p0')).toBeUndefined();
    cache.set('r1', 'h', '/huge', big(4_000));
    expect(cache.get('r1', 'h', '/huge')).toBeUndefined();
  });

  it('counts the bytes of every coding', () => {
    expect(pageReady().bytes).toBe('<p>page</p>'.length + 'BR-BYTES'.length + 'GZ-BYTES'.length);
  });
});

describe('livePointer', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'ready-pointer-'));
    await mkdir(join(root, 'releases'), { recursive: true });
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads the live release at every call: null before any, the new id right after a swap', async () => {
    const live = livePointer(root);
    expect(live()).toBeNull();
    await setPointer(root, 'live', 'release0001');
    expect(live()).toBe('release0001');
    await setPointer(root, 'live', 'release0002');
    expect(live()).toBe('release0002');
  });

  it('answers null for a pointer that names no release', async () => {
    await symlink('elsewhere/x', join(root, 'live'));
    expect(livePointer(root)()).toBeNull();
  });
});
