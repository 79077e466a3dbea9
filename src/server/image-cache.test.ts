import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_CACHE_CONTROL, ImageCache } from './image-cache.ts';

let dir: string;
let cache: ImageCache;
let server: Server;
let port: number;
/** How often the stand-in for Astro's endpoint (sharp) ran, and what it answers. */
let renders = 0;
let answer: { status: number; type: string; body: string; delayMs?: number } = { status: 200, type: 'image/webp', body: 'WEBP-BYTES' };

const endpoint = async (_req: IncomingMessage, res: ServerResponse) => {
  renders++;
  if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
  // Like Astro's node writeResponse: writeHead with a header object, then chunks, then end.
  res.writeHead(answer.status, { 'content-type': answer.type, 'cache-control': 'public, max-age=31536000' });
  const half = Math.ceil(answer.body.length / 2);
  res.write(Buffer.from(answer.body.slice(0, half)));
  res.write(new TextEncoder().encode(answer.body.slice(half)));
  res.end();
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'image-cache-'));
  cache = new ImageCache(dir);
  server = createServer((req, res) => void cache.handle(req, res, req.url ?? '/', endpoint));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  renders = 0;
  answer = { status: 200, type: 'image/webp', body: 'WEBP-BYTES' };
});

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The answer goes out while the copy is written: wait until it is on disk. */
const stored = (u: string) => expect.poll(() => cache.read(u).then((c) => c !== null), { timeout: 2000, interval: 5 }).toBe(true);

const url = (n: number) => `/_image?href=${encodeURIComponent(`http://127.0.0.1:4101/assets/img/p${n}.svg`)}&w=480&h=480&f=webp&q=90`;

describe('ImageCache', () => {
  it('transforms an image once and serves it from disk afterwards, with immutable caching', async () => {
    const first = await get(url(1));
    await stored(url(1));
    expect(first.status).toBe(200);
    expect(first.body).toBe('WEBP-BYTES');
    expect(first.headers['cache-control']).toBe(IMAGE_CACHE_CONTROL);
    expect(first.headers['x-image-cache']).toBe('miss');
    const second = await get(url(1));
    expect(second.body).toBe('WEBP-BYTES');
    expect(second.headers['content-type']).toBe('image/webp');
    expect(second.headers['cache-control']).toBe(IMAGE_CACHE_CONTROL);
    expect(second.headers['x-image-cache']).toBe('hit');
    expect(renders).toBe(1);
  });

  it('survives a restart: a new cache over the same folder does not transform again', async () => {
    await get(url(2));
    await stored(url(2));
    const again = new ImageCache(dir);
    expect((await again.read(url(2)))?.body.toString()).toBe('WEBP-BYTES');
    expect(renders).toBe(1);
  });

  it('keys by the full URL: another size is another image', async () => {
    await get(url(3));
    await get(url(3).replace('w=480', 'w=56'));
    expect(renders).toBe(2);
    expect(cache.keyOf(url(3))).not.toBe(cache.keyOf(url(3).replace('w=480', 'w=56')));
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await get(url(4));
    await stored(url(4));
    const etag = (await get(url(4))).headers.etag as string;
    expect(first.status).toBe(200);
    const revalidated = await get(url(4), { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBe('');
  });

  it('shares one transformation between concurrent first requests', async () => {
    answer = { ...answer, delayMs: 50 };
    const results = await Promise.all([get(url(5)), get(url(5)), get(url(5))]);
    expect(results.map((r) => r.body)).toEqual(['WEBP-BYTES', 'WEBP-BYTES', 'WEBP-BYTES']);
    expect(renders).toBe(1);
  });

  it('does not keep failures or non-images', async () => {
    answer = { status: 403, type: 'text/plain', body: 'Forbidden' };
    expect((await get(url(6))).status).toBe(403);
    answer = { status: 200, type: 'text/html', body: '<p>not an image</p>' };
    await get(url(7));
    expect(await cache.read(url(6))).toBeNull();
    expect(await cache.read(url(7))).toBeNull();
    answer = { status: 200, type: 'image/png', body: 'PNG' };
    expect((await get(url(6))).body).toBe('PNG');
    await stored(url(6));
    expect(renders).toBe(3);
  });

  it('stores body and meta under <dir>/<2 hex>/<hash>', async () => {
    await get(url(8));
    await stored(url(8));
    const key = cache.keyOf(url(8));
    expect(readdirSync(join(dir, key.slice(0, 2))).sort()).toEqual([`${key}.bin`, `${key}.json`]);
  });
});

describe('ImageCache: answers are inert', () => {
  it('sends a raster image with a sandbox CSP and inline', async () => {
    const res = await get(url(20));
    await stored(url(20));
    expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(res.headers['content-disposition']).toBeUndefined();
    const hit = await get(url(20));
    expect(hit.headers['x-image-cache']).toBe('hit');
    expect(hit.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(hit.headers['content-disposition']).toBeUndefined();
  });

  it('sends an SVG that still comes out of the endpoint sandboxed and as a download, made or cached', async () => {
    answer = { status: 200, type: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' };
    const made = await get(url(21));
    await stored(url(21));
    const hit = await get(url(21));
    for (const res of [made, hit]) {
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
      expect(res.headers['content-disposition']).toBe('attachment');
    }
    expect(hit.headers['x-image-cache']).toBe('hit');
  });
});

describe('ImageCache: size limit', () => {
  const key = (c: ImageCache, n: number) => c.keyOf(url(n));
  const onDisk = (c: ImageCache, n: number) => existsSync(join(c.dir, key(c, n).slice(0, 2), `${key(c, n)}.bin`));

  it('evicts the least recently read entries first once over the limit', async () => {
    const d = mkdtempSync(join(tmpdir(), 'image-cache-lru-'));
    try {
      const probe = new ImageCache(d);
      await probe.write(url(1), Buffer.alloc(1000), 'image/webp');
      const entry = probe.totalBytes; // one entry: body and meta
      rmSync(d, { recursive: true, force: true });

      const c = new ImageCache(d, { maxBytes: Math.floor(entry * 3.5) });
      for (const n of [1, 2, 3]) await c.write(url(n), Buffer.alloc(1000), 'image/webp');
      expect(c.size).toBe(3);
      // 1 was written first but read last: 2 is now the least recently used.
      expect(await c.read(url(1))).not.toBeNull();
      await c.write(url(4), Buffer.alloc(1000), 'image/webp');
      expect(c.size).toBe(3);
      expect(onDisk(c, 2)).toBe(false);
      expect(await c.read(url(2))).toBeNull();
      expect([1, 3, 4].map((n) => onDisk(c, n))).toEqual([true, true, true]);
      expect(c.totalBytes).toBeLessThanOrEqual(c.maxBytes);
      // Next goes 3, then 1.
      await c.write(url(5), Buffer.alloc(1000), 'image/webp');
      expect([1, 3, 4, 5].map((n) => onDisk(c, n))).toEqual([true, false, true, true]);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('rebuilds its index from disk at start, in last-use order, and applies a smaller limit', async () => {
    const d = mkdtempSync(join(tmpdir(), 'image-cache-lru-'));
    try {
      const first = new ImageCache(d);
      for (const n of [1, 2, 3]) {
        await first.write(url(n), Buffer.alloc(1000), 'image/webp');
        await new Promise((r) => setTimeout(r, 15));
      }
      await first.read(url(1));
      const entry = first.totalBytes / 3;
      // Let the touch of entry 1 reach the disk (its mtime) before the restart.
      await new Promise((r) => setTimeout(r, 50));
      const again = new ImageCache(d, { maxBytes: Math.floor(entry * 2.5) });
      await again.init();
      expect(again.size).toBe(2);
      expect(again.totalBytes).toBeLessThanOrEqual(again.maxBytes);
      expect([1, 2, 3].map((n) => onDisk(again, n))).toEqual([true, false, true]);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});
