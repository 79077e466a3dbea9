import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { getLogger } from '../lib/log/index.ts';

const log = getLogger('image-cache');

/** Made images never change for their URL (the URL names source, size, format and quality). */
export const IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

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
 */
export class ImageCache {
  readonly dir: string;
  private inFlight = new Map<string, Promise<void>>();

  constructor(dir: string) {
    this.dir = dir;
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
    const key = this.keyOf(url);
    const f = this.files(key);
    try {
      const [meta, body] = await Promise.all([readFile(f.meta, 'utf8'), readFile(f.body)]);
      const { contentType } = JSON.parse(meta) as { contentType: string };
      return { body, contentType, etag: `"${key.slice(0, 27)}"` };
    } catch {
      return null;
    }
  }

  /** Stores an image; body first, then its meta file (the entry counts only when both exist), each written atomically. */
  async write(url: string, body: Buffer, contentType: string): Promise<void> {
    const key = this.keyOf(url);
    const f = this.files(key);
    await mkdir(dirname(f.body), { recursive: true });
    const tmp = `.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(f.body + tmp, body);
    await rename(f.body + tmp, f.body);
    await writeFile(f.meta + tmp, JSON.stringify({ url, contentType, size: body.length, createdAt: new Date().toISOString() }));
    await rename(f.meta + tmp, f.meta);
  }

  private send(req: IncomingMessage, res: ServerResponse, image: CachedImage): void {
    res.setHeader('X-Image-Cache', 'hit');
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

/** The image cache of a build: `<distDir>/image-cache/`. */
export function createImageCache(distDir: string): ImageCache {
  return new ImageCache(join(distDir, 'image-cache'));
}
