import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { RASTER_TYPES } from './image-params.ts';
import { RenderSlots } from '../delivery/render-slots.ts';
import { getLogger } from '../../lib/log/index.ts';
import { rateLimiter, type RateLimiter } from '../../lib/http/rate-limit.ts';
import { writeAtomic } from '../../lib/fs/atomic.ts';
import { clientAddress } from '../http/client-address.ts';

const log = getLogger('image-cache');

/** Made images never change for their URL (the URL names source, size, format and quality). */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** On every /_image answer: opened directly, nothing in it runs or loads (an SVG that still gets through stays inert). */
export const IMAGE_CSP = "sandbox; default-src 'none'";
/** Default size bound of the cache (IMAGE_CACHE_MAX_BYTES). */
export const DEFAULT_IMAGE_CACHE_MAX_BYTES = 1024 ** 3;

/**
 * How renders are bounded (issue 28): a render is 0.4–0.9 s of CPU, and unbounded they slow every
 * static answer of the process.
 */
export interface ImageRenderLimits {
  /** Renders running at once (default: half the cores, at least 1). */
  concurrency: number;
  /** Renders waiting for a slot at most (default 64); beyond, 503. */
  maxQueue: number;
  /** Longest wait for a slot (default 30 s); then 503. */
  queueWaitMs: number;
  /**
   * Longest render, and longest wait for another request's render of the same image
   * (UPSTREAM_TIMEOUT_MS, default 5 s): then both are answered 504, and the next request for the
   * image renders it again.
   */
  timeoutMs: number;
  /** New renders (cache misses that start one) per client and window (default 120 a minute); beyond, 429 with Retry-After. */
  missesPerClient: { limit: number; windowMs: number };
  /** The client a request comes from (default: its client address, http/client-address.ts, as for the server's other own routes). */
  clientKey: (req: IncomingMessage) => string;
}

export const DEFAULT_RENDER_LIMITS: ImageRenderLimits = {
  concurrency: Math.max(1, Math.floor(availableParallelism() / 2)),
  maxQueue: 64,
  queueWaitMs: 30_000,
  timeoutMs: 5_000,
  missesPerClient: { limit: 120, windowMs: 60_000 },
  clientKey: (req) => clientAddress(req) ?? 'unknown',
};

export const RENDER_TIMEOUT_MESSAGE = 'The image took too long to make. Try again in a moment.';
export const RENDER_BUSY_MESSAGE = 'Too many images are being made right now. Try again in a moment.';
export const tooManyMissesMessage = (seconds: number) => `Too many new images requested. Try again in ${seconds} seconds.`;

/** What became of a render: stored in the cache, answered without an image, given up, or never started. */
type Outcome = 'stored' | 'failed' | 'timeout' | 'busy';

/** A plain-text refusal of the image endpoint, never cached. */
function refuse(res: ServerResponse, status: number, message: string, retryAfterSeconds: number): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(message)),
    'Cache-Control': 'no-store',
    'Retry-After': String(retryAfterSeconds),
  }).end(message);
}

/** Headers that make a non-raster answer (an SVG passed through by sharp) a sandboxed download, never an inline document. */
export function inertImageHeaders(res: ServerResponse, contentType: string | undefined): void {
  res.setHeader('Content-Security-Policy', IMAGE_CSP);
  const type = contentType?.split(';')[0]!.trim().toLowerCase();
  if (!type || !RASTER_TYPES.has(type)) res.setHeader('Content-Disposition', 'attachment');
}

export interface CachedImage {
  body: Buffer;
  contentType: string;
  etag: string;
}

type Render = (req: IncomingMessage, res: ServerResponse) => unknown;

const headerValue = (headers: OutgoingHttpHeaders | undefined, name: string): string | undefined => {
  if (!headers) return undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key ? headers[key] : undefined;
  return Array.isArray(value) ? value.join(', ') : value === undefined ? undefined : String(value);
};

/**
 * A disk cache in front of Astro's `/_image` endpoint, which has none of its own: every image is
 * transformed by sharp once (on its first request) and then served from `<dir>` with long-lived
 * cache headers. The key is the request's canonical URL (canonicalImagePath: source, size, format,
 * quality, fit). Concurrent first requests for one URL share one transformation. Only successful
 * image answers are kept.
 *
 * Renders are bounded (ImageRenderLimits): a few at a time, new ones counted per client, each given
 * up after the upstream timeout together with the requests waiting for it.
 *
 * The cache is bounded: `maxBytes` (bodies and meta files) with least-recently-used eviction. Room
 * for an image is made (older entries removed from disk) before it is written, one write at a
 * time, so the folder never holds more than `maxBytes` whatever runs concurrently. The index (size
 * and last use of each entry, in use order) is rebuilt from the folder at start, ordered by the
 * meta files' modification times, which every read refreshes.
 */
export class ImageCache {
  readonly dir: string;
  readonly maxBytes: number;
  readonly limits: ImageRenderLimits;
  private inFlight = new Map<string, Promise<Outcome>>();
  /** key → bytes on disk; Map order is use order, least recently used first. */
  private index = new Map<string, number>();
  /** Bytes of the entries in the index. */
  private bytes = 0;
  /** Bytes of images being written: room made for them, not yet in the index. */
  private reserved = 0;
  /** Making room and evicting run one at a time, so two writers never count the same free bytes. */
  private spaceLock: Promise<unknown> = Promise.resolve();
  private ready: Promise<void> | null = null;
  private slots: RenderSlots;
  private misses: RateLimiter;

  constructor(dir: string, opts: { maxBytes?: number; limits?: Partial<ImageRenderLimits> } = {}) {
    this.dir = dir;
    this.maxBytes = opts.maxBytes ?? DEFAULT_IMAGE_CACHE_MAX_BYTES;
    this.limits = { ...DEFAULT_RENDER_LIMITS, ...opts.limits };
    this.slots = new RenderSlots({ concurrency: this.limits.concurrency, maxQueue: this.limits.maxQueue, waitMs: this.limits.queueWaitMs });
    this.misses = rateLimiter({ ...this.limits.missesPerClient, name: 'image-misses' });
  }

  /** Bytes the cache holds now. */
  get totalBytes(): number {
    return this.bytes;
  }

  /** Entries the cache holds now. */
  get size(): number {
    return this.index.size;
  }

  /** Renders running now. */
  get rendering(): number {
    return this.slots.active;
  }

  /** Loads the index from disk once (and evicts if the limit shrank since the last run). */
  init(): Promise<void> {
    this.ready ??= this.scan();
    return this.ready;
  }

  private async scan(): Promise<void> {
    const found: { key: string; bytes: number; usedAt: number }[] = [];
    let shards: string[] = [];
    try {
      shards = await readdir(this.dir);
    } catch {
      return;
    }
    for (const shard of shards) {
      if (!/^[0-9a-f]{2}$/.test(shard)) continue;
      let names: string[] = [];
      try {
        names = await readdir(join(this.dir, shard));
      } catch {
        continue;
      }
      for (const name of names) {
        const m = /^([0-9a-f]{64})\.json$/.exec(name);
        if (!m) continue;
        const f = this.files(m[1]!);
        try {
          const [meta, body] = await Promise.all([stat(f.meta), stat(f.body)]);
          found.push({ key: m[1]!, bytes: meta.size + body.size, usedAt: meta.mtimeMs });
        } catch {
          // A body without meta (or the reverse) is not an entry.
        }
      }
    }
    found.sort((a, b) => a.usedAt - b.usedAt);
    for (const e of found) {
      if (this.index.has(e.key)) continue;
      this.index.set(e.key, e.bytes);
      this.bytes += e.bytes;
    }
    await this.exclusive(() => this.evictTo(this.maxBytes));
  }

  /** Marks an entry as just used (memory order now, the meta file's mtime for the next start). */
  private touch(key: string): void {
    const bytes = this.index.get(key);
    if (bytes === undefined) return;
    this.index.delete(key);
    this.index.set(key, bytes);
    const now = new Date();
    utimes(this.files(key).meta, now, now).catch(() => {});
  }

  /**
   * Removes an entry from disk. Its bytes stop counting only once its files are gone: a file that
   * cannot be removed keeps counting, so the bound holds even then.
   */
  private async remove(key: string): Promise<void> {
    const bytes = this.index.get(key);
    this.index.delete(key);
    const f = this.files(key);
    // Meta first: without it the entry no longer counts at the next start, even if removing the body fails.
    await rm(f.meta, { force: true });
    await rm(f.body, { force: true });
    if (bytes !== undefined) this.bytes -= bytes;
  }

  /** Runs `fn` once every earlier call has finished. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.spaceLock.then(fn, fn);
    this.spaceLock = run.catch(() => {});
    return run;
  }

  /** Drops least recently used entries until entries and reservations hold at most `target` bytes. Only inside exclusive(). */
  private async evictTo(target: number): Promise<void> {
    while (this.bytes + this.reserved > target && this.index.size > 0) {
      const oldest = this.index.keys().next().value!;
      try {
        await this.remove(oldest);
      } catch (err) {
        log.warn(`could not evict ${oldest}: ${(err as Error).message}`);
      }
    }
  }

  /** The cache key of a request URL: a hash of its path and query. */
  keyOf(url: string): string {
    const u = new URL(url, 'http://cache.invalid');
    return createHash('sha256').update(`${u.pathname}${u.search}`).digest('hex');
  }

  private files(key: string) {
    const base = join(this.dir, key.slice(0, 2), key);
    return { body: `${base}.bin`, meta: `${base}.json` };
  }

  async read(url: string): Promise<CachedImage | null> {
    await this.init();
    const key = this.keyOf(url);
    const f = this.files(key);
    try {
      const [meta, body] = await Promise.all([readFile(f.meta, 'utf8'), readFile(f.body)]);
      const { contentType } = JSON.parse(meta) as { contentType: string };
      if (this.index.has(key)) this.touch(key);
      else {
        // Written by another process sharing the folder: count it from now on, and keep the bound.
        const bytes = body.length + Buffer.byteLength(meta);
        this.index.set(key, bytes);
        this.bytes += bytes;
        if (this.bytes + this.reserved > this.maxBytes) void this.exclusive(() => this.evictTo(this.maxBytes));
      }
      return { body, contentType, etag: `"${key.slice(0, 27)}"` };
    } catch {
      // Gone from disk (removed by hand): forget it.
      const bytes = this.index.get(key);
      if (bytes !== undefined) { this.index.delete(key); this.bytes -= bytes; }
      return null;
    }
  }

  /**
   * Stores an image: room is made first (least recently used entries removed from disk), then the
   * body and its meta file are written (the entry counts only when both exist), each atomically.
   * An image that gets no room (larger than the cache, or the room is taken by writes in flight) is
   * not stored. Returns whether it was.
   */
  async write(url: string, body: Buffer, contentType: string): Promise<boolean> {
    await this.init();
    const key = this.keyOf(url);
    const f = this.files(key);
    const meta = JSON.stringify({ url, contentType, size: body.length, createdAt: new Date().toISOString() });
    const size = body.length + Buffer.byteLength(meta);
    const room = await this.exclusive(async () => {
      if (this.index.has(key)) await this.remove(key);
      await this.evictTo(this.maxBytes - size);
      if (this.bytes + this.reserved + size > this.maxBytes) return false;
      this.reserved += size;
      return true;
    });
    if (!room) {
      log.warn(`no room for ${url} (${size} bytes) in the image cache of ${this.maxBytes} bytes`);
      return false;
    }
    try {
      await writeAtomic(f.body, body);
      await writeAtomic(f.meta, meta);
    } catch (err) {
      await rm(f.meta, { force: true }).catch(() => {});
      await rm(f.body, { force: true }).catch(() => {});
      throw err;
    } finally {
      this.reserved -= size;
    }
    // The same image written twice at once: one pair of files, counted once.
    const previous = this.index.get(key);
    if (previous !== undefined) this.bytes -= previous;
    this.index.delete(key);
    this.index.set(key, size);
    this.bytes += size;
    return true;
  }

  private send(req: IncomingMessage, res: ServerResponse, image: CachedImage): void {
    res.setHeader('X-Image-Cache', 'hit');
    inertImageHeaders(res, image.contentType);
    if (req.headers['if-none-match'] === image.etag) {
      res.writeHead(304, { 'Cache-Control': IMAGE_CACHE_CONTROL, ETag: image.etag }).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': image.contentType,
      'Content-Length': image.body.length,
      'Cache-Control': IMAGE_CACHE_CONTROL,
      ETag: image.etag,
    });
    res.end(req.method === 'HEAD' ? undefined : image.body);
  }

  /**
   * Answers an image request from the cache, or lets `render` (Astro's endpoint) make it while the
   * answer is copied to disk. A request for an image another request is rendering waits for that
   * render, at most `timeoutMs`; a new render counts against the client's miss limit (429) and
   * waits for a free slot (503 when there is none in time).
   */
  async handle(req: IncomingMessage, res: ServerResponse, url: string, render: Render): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      await render(req, res);
      return;
    }
    const cached = await this.read(url);
    if (cached) return this.send(req, res, cached);
    const key = this.keyOf(url);
    const pending = this.inFlight.get(key);
    if (pending) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const outcome = await Promise.race([pending, new Promise<'timeout'>((r) => { timer = setTimeout(() => r('timeout'), this.limits.timeoutMs); })]);
      clearTimeout(timer);
      const made = await this.read(url);
      if (made) return this.send(req, res, made);
      if (outcome === 'timeout') return refuse(res, 504, RENDER_TIMEOUT_MESSAGE, 5);
      if (outcome === 'busy') return refuse(res, 503, RENDER_BUSY_MESSAGE, 5);
      // That render gave no image (a missing source …): this request asks for itself, as a miss of its own.
    }
    const hit = await this.misses.hit(this.limits.clientKey(req));
    if (!hit.allowed) return refuse(res, 429, tooManyMissesMessage(hit.retryAfterSeconds), hit.retryAfterSeconds);
    const done = this.renderInSlot(req, res, url, render);
    this.inFlight.set(key, done);
    try {
      await done;
    } finally {
      if (this.inFlight.get(key) === done) this.inFlight.delete(key);
    }
  }

  /** Renders once a slot is free (503 when none is free in time); the slot is held until the answer is stored or given up. */
  private async renderInSlot(req: IncomingMessage, res: ServerResponse, url: string, render: Render): Promise<Outcome> {
    const release = await this.slots.acquire();
    if (release === 'busy') {
      refuse(res, 503, RENDER_BUSY_MESSAGE, 5);
      return 'busy';
    }
    try {
      // The client left while it waited: nobody needs the render now.
      if (res.destroyed || req.socket?.destroyed) return 'failed';
      return await this.capture(req, res, url, render);
    } finally {
      release();
    }
  }

  /**
   * Runs `render` on the real response, copying status, type and body, and stores a successful
   * image. A render that has not finished after `timeoutMs` is given up: its request is answered
   * 504 (or cut, when the answer had begun) and whatever the render still writes goes nowhere.
   */
  private capture(req: IncomingMessage, res: ServerResponse, url: string, render: Render): Promise<Outcome> {
    const chunks: Buffer[] = [];
    let status = 200;
    let contentType: string | undefined;
    let abandoned = false;
    const toBuffer = (chunk: unknown, encoding?: unknown): Buffer | null => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return null;
      if (Buffer.isBuffer(chunk)) return chunk;
      if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    };
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((code: number, ...rest: unknown[]) => {
      if (abandoned) return res;
      status = code;
      const headers = rest.find((r) => r && typeof r === 'object' && !Array.isArray(r)) as OutgoingHttpHeaders | undefined;
      contentType = headerValue(headers, 'content-type') ?? (res.getHeader('content-type') as string | undefined);
      if (headers) {
        for (const k of Object.keys(headers)) if (['content-security-policy', 'content-disposition'].includes(k.toLowerCase())) delete headers[k];
      }
      inertImageHeaders(res, code === 200 ? contentType : undefined);
      if (code === 200 && headers) {
        for (const k of Object.keys(headers)) if (k.toLowerCase() === 'cache-control') delete headers[k];
        headers['Cache-Control'] = IMAGE_CACHE_CONTROL;
      }
      if (code === 200) res.setHeader('Cache-Control', IMAGE_CACHE_CONTROL);
      return writeHead(code, ...rest);
    }) as typeof res.writeHead;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (abandoned) return true;
      const b = toBuffer(chunk, rest[0]);
      if (b) chunks.push(b);
      return write(chunk, ...rest);
    }) as typeof res.write;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (abandoned) return res;
      const b = toBuffer(chunk, rest[0]);
      if (b) chunks.push(b);
      return end(chunk, ...rest);
    }) as typeof res.end;
    res.setHeader('X-Image-Cache', 'miss');

    return new Promise<Outcome>((resolve) => {
      let settled = false;
      const deadline = setTimeout(() => {
        if (settled) return;
        settled = true;
        abandoned = true;
        log.warn(`gave up on ${url} after ${this.limits.timeoutMs} ms`);
        if (res.headersSent) res.destroy();
        else {
          res.removeHeader('Cache-Control');
          writeHead(504, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '5' });
          end(RENDER_TIMEOUT_MESSAGE);
        }
        resolve('timeout');
      }, this.limits.timeoutMs);
      const finish = async () => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        status = res.statusCode || status;
        contentType ??= res.getHeader('content-type') as string | undefined;
        let outcome: Outcome = 'failed';
        if (req.method === 'GET' && status === 200 && contentType?.startsWith('image/') && chunks.length) {
          try {
            if (await this.write(url, Buffer.concat(chunks), contentType)) outcome = 'stored';
          } catch (err) {
            log.warn(`could not store ${url}: ${(err as Error).message}`);
          }
        }
        resolve(outcome);
      };
      res.once('finish', () => void finish());
      res.once('close', () => void finish());
      Promise.resolve()
        .then(() => render(req, res))
        .catch((err: unknown) => {
          log.error({ err }, 'image request failed');
          if (!res.headersSent && !abandoned) res.writeHead(500).end();
          void finish();
        });
    });
  }
}

/** The image cache of a build: `<distDir>/image-cache/`, at most `maxBytes` (IMAGE_CACHE_MAX_BYTES), its renders within `limits`. */
export function createImageCache(distDir: string, maxBytes?: number, limits?: Partial<ImageRenderLimits>): ImageCache {
  const cache = new ImageCache(join(distDir, 'image-cache'), { maxBytes, limits });
  void cache.init();
  return cache;
}
