import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
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
      // The touch of entry 1 reaches the disk (its meta file's mtime) in the background: the restart waits for it.
      const metaTime = (n: number) => statSync(join(d, key(first, n).slice(0, 2), `${key(first, n)}.json`)).mtimeMs;
      await expect.poll(() => metaTime(1) > metaTime(3), { timeout: 30_000 }).toBe(true);
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

/** A cache of its own behind its own server, with `endpoint` standing in for Astro's image endpoint. */
async function serve(c: ImageCache, endpointOf: (req: IncomingMessage, res: ServerResponse) => Promise<void>) {
  const s = createServer((req, res) => void c.handle(req, res, req.url ?? '/', endpointOf));
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const p = (s.address() as AddressInfo).port;
  const fetchOne = (path: string, headers: Record<string, string> = {}) => new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: p, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
  return { get: fetchOne, close: () => new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); }) };
}

/** An endpoint that answers an image after `delayMs`, counting renders and how many ran at once. */
function countingEndpoint(delayMs = 0) {
  const stats = { renders: 0, running: 0, most: 0 };
  const handler = async (_req: IncomingMessage, res: ServerResponse) => {
    stats.renders++;
    stats.running++;
    stats.most = Math.max(stats.most, stats.running);
    await new Promise((r) => setTimeout(r, delayMs));
    stats.running--;
    res.writeHead(200, { 'content-type': 'image/webp' });
    res.end(Buffer.from('WEBP-BYTES'));
  };
  return { stats, handler };
}

describe('ImageCache: renders are bounded (issue 28)', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'image-cache-bounds-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

  it('limits new renders per client with 429 and Retry-After; cached images and other clients are not counted', async () => {
    const c = new ImageCache(fresh(), { limits: { missesPerClient: { limit: 2, windowMs: 60_000 }, clientKey: (req) => String(req.headers['x-client'] ?? 'a') } });
    const { stats, handler } = countingEndpoint();
    const srv = await serve(c, handler);
    try {
      expect((await srv.get(url(1))).status).toBe(200);
      expect((await srv.get(url(2))).status).toBe(200);
      const third = await srv.get(url(3));
      expect(third.status).toBe(429);
      expect(third.body).toMatch(/^Too many new images requested\. Try again in \d+ seconds\.$/);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(50);
      expect(third.headers['cache-control']).toBe('no-store');
      await expect.poll(() => c.read(url(1)).then((x) => x !== null)).toBe(true);
      for (let i = 0; i < 5; i++) expect((await srv.get(url(1))).headers['x-image-cache']).toBe('hit');
      expect((await srv.get(url(3), { 'x-client': 'b' })).status).toBe(200);
      expect(stats.renders).toBe(3);
    } finally {
      await srv.close();
    }
  });

  it('runs at most `concurrency` renders at once; the others wait for a slot and are answered', async () => {
    const c = new ImageCache(fresh(), { limits: { concurrency: 2 } });
    const { stats, handler } = countingEndpoint(80);
    const srv = await serve(c, handler);
    try {
      const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => srv.get(url(n))));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(stats.renders).toBe(6);
      expect(stats.most).toBe(2);
    } finally {
      await srv.close();
    }
  });

  it('answers 503 with Retry-After when the queue is full or no slot frees in time', async () => {
    const c = new ImageCache(fresh(), { limits: { concurrency: 1, maxQueue: 1, queueWaitMs: 150 } });
    // The one render holds its slot until both others were answered (a condition, not a duration).
    let renders = 0;
    let release!: () => void;
    const held = new Promise<void>((ok) => { release = ok; });
    let started!: () => void;
    const firstStarted = new Promise<void>((ok) => { started = ok; });
    const srv = await serve(c, async (_req, res) => {
      renders++;
      started();
      await held;
      res.writeHead(200, { 'content-type': 'image/webp' });
      res.end(Buffer.from('WEBP-BYTES'));
    });
    try {
      const first = srv.get(url(1));
      await firstStarted;
      // One waits for the slot (and gives up after queueWaitMs); the other finds the queue full, or
      // (on a slow machine, after the first gave up) waits in vain too: 503 with the same text either way.
      const [waited, full] = await Promise.all([srv.get(url(2)), srv.get(url(3))]);
      release();
      expect((await first).status).toBe(200);
      expect([waited.status, full.status]).toEqual([503, 503]);
      expect(full.body).toBe('Too many images are being made right now. Try again in a moment.');
      expect(full.headers['retry-after']).toBe('5');
      expect(renders).toBe(1);
    } finally {
      await srv.close();
    }
  });

  it('gives up on a render that hangs after timeoutMs: its request and a request waiting for it get 504, and a later request renders again', async () => {
    // The waiter is sent once the first render has started (a condition, not a pause), and must
    // arrive within timeoutMs of it: 2 s, far more than a loopback request takes on a busy machine.
    const c = new ImageCache(fresh(), { limits: { timeoutMs: 2000 } });
    let renders = 0;
    let started!: () => void;
    const firstStarted = new Promise<void>((ok) => { started = ok; });
    const srv = await serve(c, async (_req, res) => {
      renders++;
      if (renders === 1) return started(); // never answers
      res.writeHead(200, { 'content-type': 'image/webp' });
      res.end(Buffer.from('WEBP-BYTES'));
    });
    try {
      const leader = srv.get(url(1));
      await firstStarted;
      const waiter = await srv.get(url(1));
      expect(waiter.status).toBe(504);
      expect(waiter.body).toBe('The image took too long to make. Try again in a moment.');
      const hung = await leader;
      expect(hung.status).toBe(504);
      expect(hung.headers['cache-control']).toBe('no-store');
      const later = await srv.get(url(1));
      expect([later.status, later.body]).toEqual([200, 'WEBP-BYTES']);
      expect(renders).toBe(2);
    } finally {
      await srv.close();
    }
  });
});

describe('ImageCache: the folder never holds more than maxBytes (issue 28)', () => {
  /** Bytes of every file under `d` (temporary files of writes in flight included). */
  const bytesOnDisk = (d: string): number => {
    let total = 0;
    for (const e of readdirSync(d, { withFileTypes: true, recursive: true })) {
      if (!e.isFile()) continue;
      try {
        total += statSync(join(e.parentPath, e.name)).size;
      } catch {
        // Renamed or removed while listing.
      }
    }
    return total;
  };

  it('after many inserts, one after another and concurrent ones, counted and on disk', async () => {
    const d = mkdtempSync(join(tmpdir(), 'image-cache-bound-'));
    try {
      const c = new ImageCache(d, { maxBytes: 64 * 1024 });
      let peak = 0;
      const sampler = setInterval(() => { peak = Math.max(peak, bytesOnDisk(d)); }, 1);
      for (let n = 0; n < 40; n++) {
        await c.write(url(n), Buffer.alloc(2000 + (n % 7) * 1500, n), 'image/webp');
        expect(c.totalBytes).toBeLessThanOrEqual(c.maxBytes);
        expect(bytesOnDisk(d)).toBeLessThanOrEqual(c.maxBytes);
      }
      for (let round = 0; round < 3; round++) {
        await Promise.all(Array.from({ length: 60 }, (_, i) => c.write(url(100 + round * 60 + i), Buffer.alloc(1000 + (i % 9) * 1800, i), 'image/webp')));
        expect(c.totalBytes).toBeLessThanOrEqual(c.maxBytes);
        expect(bytesOnDisk(d)).toBeLessThanOrEqual(c.maxBytes);
      }
      clearInterval(sampler);
      expect(peak).toBeGreaterThan(c.maxBytes / 2);
      expect(peak).toBeLessThanOrEqual(c.maxBytes);
      // What it counts is what is there, also after a restart.
      expect(c.totalBytes).toBe(bytesOnDisk(d));
      const again = new ImageCache(d, { maxBytes: 64 * 1024 });
      await again.init();
      expect(again.totalBytes).toBe(c.totalBytes);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('does not store an image larger than the whole cache', async () => {
    const d = mkdtempSync(join(tmpdir(), 'image-cache-bound-'));
    try {
      const c = new ImageCache(d, { maxBytes: 4096 });
      expect(await c.write(url(1), Buffer.alloc(8192), 'image/webp')).toBe(false);
      expect(bytesOnDisk(d)).toBe(0);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});
