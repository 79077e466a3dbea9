import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { RASTER_TYPES } from './image-params.ts';
import { getLogger } from '../lib/log/index.ts';
import { writeAtomic } from '../lib/fs/atomic.ts';

const log = getLogger('image-cache');

/** Made images never change for their URL (the URL names source, size, format and quality). */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** On every /_image answer: opened directly, nothing in it runs or loads (an SVG that still gets through stays inert). */
export const IMAGE_CSP = "sandbox; default-src 'none'";
/** Default size bound of the cache (IMAGE_CACHE_MAX_BYTES). */
export const DEFAULT_IMAGE_CACHE_MAX_BYTES = 1024 ** 3;

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
 * transformed by sharp once (on its first request, or when the prerender asks for it) and then
 * served from `<dir>` with long-lived cache headers. The key is the full request URL (path and
 * query: source, size, format, quality, fit). Concurrent first requests for one URL share one
 * transformation. Only successful image answers are kept.
 *
 * The cache is bounded: `maxBytes` (bodies and meta files) with least-recently-used eviction.
 * The index (size and last use of each entry, in use order) is rebuilt from the folder at start,
 * ordered by the meta files' modification times, which every read refreshes.
 */
export class ImageCache {
  readonly dir: string;
  readonly maxBytes: number;
  private inFlight = new Map<string, Promise<void>>();
  /** key → bytes on disk; Map order is use order, least recently used first. */
  private index = new Map<string, number>();
  private bytes = 0;
  private ready: Promise<void> | null = null;

  constructor(dir: string, opts: { maxBytes?: number } = {}) {
    this.dir = dir;
    this.maxBytes = opts.maxBytes ?? DEFAULT_IMAGE_CACHE_MAX_BYTES;
  }

  /** Bytes the cache holds now. */
  get totalBytes(): number {
    return this.bytes;
  }

  /** Entries the cache holds now. */
  get size(): number {
    return this.index.size;
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
    await this.evict();
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

  private async remove(key: string): Promise<void> {
    const bytes = this.index.get(key);
    if (bytes !== undefined) {
      this.index.delete(key);
      this.bytes -= bytes;
    }
    const f = this.files(key);
    // Meta first: without it the entry no longer counts, even if removing the body fails.
    await rm(f.meta, { force: true });
    await rm(f.body, { force: true });
  }

  /** Drops least recently used entries until the cache is within its limit. */
  private async evict(): Promise<void> {
    while (this.bytes > this.maxBytes && this.index.size > 0) {
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
        // Written by another process sharing the folder: count it from now on.
        const bytes = body.length + Buffer.byteLength(meta);
        this.index.set(key, bytes);
        this.bytes += bytes;
      }
      return { body, contentType, etag: `"${key.slice(0, 27)}"` };
    } catch {
      // Gone from disk (removed by hand): forget it.
      const bytes = this.index.get(key);
      if (bytes !== undefined) { this.index.delete(key); this.bytes -= bytes; }
      return null;
    }
  }

  /** Stores an image; body first, then its meta file (the entry counts only when both exist), each written atomically. */
  async write(url: string, body: Buffer, contentType: string): Promise<void> {
    await this.init();
    const key = this.keyOf(url);
    const f = this.files(key);
    const meta = JSON.stringify({ url, contentType, size: body.length, createdAt: new Date().toISOString() });
    await writeAtomic(f.body, body);
    await writeAtomic(f.meta, meta);
    const previous = this.index.get(key);
    if (previous !== undefined) { this.index.delete(key); this.bytes -= previous; }
    const bytes = body.length + Buffer.byteLength(meta);
    this.index.set(key, bytes);
    this.bytes += bytes;
    await this.evict();
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
   * answer is copied to disk.
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
      await pending;
      const made = await this.read(url);
      if (made) return this.send(req, res, made);
    }
    const done = this.capture(req, res, url, render);
    this.inFlight.set(key, done);
    try {
      await done;
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** Runs `render` on the real response, copying status, type and body, and stores a successful image. */
  private capture(req: IncomingMessage, res: ServerResponse, url: string, render: Render): Promise<void> {
    const chunks: Buffer[] = [];
    let status = 200;
    let contentType: string | undefined;
    const toBuffer = (chunk: unknown, encoding?: unknown): Buffer | null => {
      if (chunk === undefined || chunk === null || typeof chunk === 'function') return null;
      if (Buffer.isBuffer(chunk)) return chunk;
      if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      return Buffer.from(String(chunk), typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    };
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((code: number, ...rest: unknown[]) => {
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
      const b = toBuffer(chunk, rest[0]);
      if (b) chunks.push(b);
      return write(chunk, ...rest);
    }) as typeof res.write;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      const b = toBuffer(chunk, rest[0]);
      if (b) chunks.push(b);
      return end(chunk, ...rest);
    }) as typeof res.end;
    res.setHeader('X-Image-Cache', 'miss');

    return new Promise<void>((resolve) => {
      let settled = false;
      const finish = async () => {
        if (settled) return;
        settled = true;
        status = res.statusCode || status;
        contentType ??= res.getHeader('content-type') as string | undefined;
        if (req.method === 'GET' && status === 200 && contentType?.startsWith('image/') && chunks.length) {
          try {
            await this.write(url, Buffer.concat(chunks), contentType);
          } catch (err) {
            log.warn(`could not store ${url}: ${(err as Error).message}`);
          }
        }
        resolve();
      };
      res.once('finish', () => void finish());
      res.once('close', () => void finish());
      Promise.resolve()
        .then(() => render(req, res))
        .catch((err: unknown) => {
          log.error({ err }, 'image request failed');
          if (!res.headersSent) res.writeHead(500).end();
          void finish();
        });
    });
  }
}

/** The image cache of a build: `<distDir>/image-cache/`, at most `maxBytes` (IMAGE_CACHE_MAX_BYTES). */
export function createImageCache(distDir: string, maxBytes?: number): ImageCache {
  const cache = new ImageCache(join(distDir, 'image-cache'), { maxBytes });
  void cache.init();
  return cache;
}
