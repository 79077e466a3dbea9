import type { IncomingMessage, ServerResponse } from 'node:http';
import { readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import { etagFor, etagMatches, negotiateEncoding, type Encoding } from '../delivery/encoding.ts';
import { FALLBACK_CSP, SECURITY_HEADERS } from './headers.ts';
import { LIVE, releaseIdOfTarget } from '../release/release.ts';
import type { StaticFile } from '../delivery/static-site.ts';

/**
 * The hot path of static delivery: whole responses of prerendered files (pages, payloads,
 * manifests) ready to send, per coding: the body and every header of its 200 and of its 304 as
 * one flat list, so a hit is one `writeHead` and one `end(buffer)` (no header is computed,
 * validated twice or merged per request, no file is touched). Kept for the live release only:
 * the first lookup under another release empties the cache, and an answer built from an older
 * release is never stored, so a new release is served at once and never mixed with the old one.
 */

/** One coding of a ready response. */
export interface ReadyVariant {
  coding: Encoding;
  body: Buffer;
  /** The coding's ETag (`"fp-br"`). */
  etag: string;
  /** The headers of the 200, flat (`[name, value, name, value, …]`). */
  ok: readonly string[];
  /** The headers of the 304 (the 200's without the body's type, length and coding). */
  notModified: readonly string[];
}

export interface ReadyResponse {
  /** The codings available, best first; identity always last. */
  encodings: readonly Encoding[];
  variants: Partial<Record<Encoding, ReadyVariant>> & { identity: ReadyVariant };
  /** Bytes held (every coding's body). */
  bytes: number;
}

const SECURITY_FLAT: readonly string[] = Object.entries(SECURITY_HEADERS).flat();

/**
 * A file's ready response: the security headers, the caller's headers (X-Render, Cache-Control,
 * CSP …; the fallback CSP when the caller gives none), `Vary: Accept-Encoding`, the coding's ETag, and for the 200 the type, length and
 * coding. The same headers `sendEncoded` gives the file after `applySecurityHeaders`.
 */
export function readyResponse(file: StaticFile, opts: { etag: string; contentType: string; headers?: Record<string, string> }): ReadyResponse {
  const given = opts.headers ?? {};
  // Every response carries a CSP: a page its own, anything else (payloads, sitemap, robots) the fallback.
  const withCsp = Object.keys(given).some((k) => k.toLowerCase() === 'content-security-policy') ? given : { ...given, 'Content-Security-Policy': FALLBACK_CSP };
  const extra = Object.entries(withCsp).flat();
  const variants = {} as ReadyResponse['variants'];
  let bytes = 0;
  for (const coding of file.encodings) {
    const body = file.bodies[coding] ?? file.bodies.identity;
    const etag = etagFor(opts.etag, coding);
    const notModified = [...SECURITY_FLAT, ...extra, 'Vary', 'Accept-Encoding', 'ETag', etag];
    const ok = [...notModified, 'Content-Type', opts.contentType, 'Content-Length', String(body.byteLength)];
    if (coding !== 'identity') ok.push('Content-Encoding', coding);
    variants[coding] = { coding, body, etag, ok, notModified };
    bytes += body.byteLength;
  }
  return { encodings: file.encodings, variants, bytes };
}

/** The codings a client accepts, per Accept-Encoding value (browsers send a handful of distinct values). */
const ACCEPTS_MAX = 256;
const accepts = new Map<string, { br: boolean; gzip: boolean }>();

function acceptsNow(header: string | string[] | undefined): { br: boolean; gzip: boolean } {
  return { br: negotiateEncoding(header, ['br']) === 'br', gzip: negotiateEncoding(header, ['gzip']) === 'gzip' };
}

function acceptsOf(header: string | string[] | undefined): { br: boolean; gzip: boolean } {
  if (typeof header !== 'string') return acceptsNow(header);
  let known = accepts.get(header);
  if (!known) {
    known = acceptsNow(header);
    if (accepts.size >= ACCEPTS_MAX) accepts.clear();
    accepts.set(header, known);
  }
  return known;
}

/** The variant a request gets: the best coding it accepts among those the response has (negotiateEncoding's choice). */
export function variantFor(ready: ReadyResponse, acceptEncoding: string | string[] | undefined): ReadyVariant {
  if (ready.encodings.length > 1 && acceptEncoding !== undefined) {
    const ok = acceptsOf(acceptEncoding);
    if (ok.br && ready.variants.br) return ready.variants.br;
    if (ok.gzip && ready.variants.gzip) return ready.variants.gzip;
  }
  return ready.variants.identity;
}

/**
 * Sends a ready response: 304 when If-None-Match matches the chosen coding's ETag, no body to
 * HEAD. `requestId` is added to the headers (the caller has set no header itself, so Node writes
 * the list as it is); without one, headers set earlier on `res` are kept and overridden.
 */
export function sendReady(req: IncomingMessage, res: ServerResponse, ready: ReadyResponse, requestId?: string): void {
  const variant = variantFor(ready, req.headers['accept-encoding']);
  const inm = req.headers['if-none-match'];
  if (inm !== undefined && etagMatches(inm, variant.etag)) {
    res.writeHead(304, requestId === undefined ? (variant.notModified as string[]) : [...variant.notModified, 'X-Request-Id', requestId]);
    res.end();
    return;
  }
  res.writeHead(200, requestId === undefined ? (variant.ok as string[]) : [...variant.ok, 'X-Request-Id', requestId]);
  res.end(req.method === 'HEAD' ? undefined : variant.body);
}

/**
 * Reads the `live` pointer (one readlink per call, like `readPointer`), with the path joined once
 * and the last answer's parsing remembered.
 */
export function livePointer(staticRoot: string): () => string | null {
  const link = join(staticRoot, LIVE);
  let lastTarget = '';
  let lastId: string | null = null;
  return () => {
    let target: string;
    try {
      target = readlinkSync(link);
    } catch {
      return null;
    }
    if (target !== lastTarget) {
      lastId = releaseIdOfTarget(target);
      lastTarget = target;
    }
    return lastId;
  };
}

/** Bytes of ready responses kept, and the largest one kept. */
export const READY_CACHE_BYTES = 64 * 1048576;
export const READY_CACHE_MAX_ENTRY = 4 * 1048576;

/**
 * Ready responses of the live release by site host and path, bounded in bytes and in count
 * (least recently used dropped first).
 */
export class ReadyResponses {
  private release: string | null = null;
  private entries: LRUCache<string, ReadyResponse>;

  constructor(opts: { maxBytes?: number; maxEntryBytes?: number; maxEntries?: number } = {}) {
    this.entries = new LRUCache<string, ReadyResponse>({
      max: opts.maxEntries ?? 20_000,
      maxSize: opts.maxBytes ?? READY_CACHE_BYTES,
      maxEntrySize: opts.maxEntryBytes ?? READY_CACHE_MAX_ENTRY,
      sizeCalculation: (r) => r.bytes + 512,
    });
  }

  /** The ready response of `path` on `host` in `release`; a release other than the cached one empties the cache. */
  get(release: string | null, host: string, path: string): ReadyResponse | undefined {
    if (release !== this.release) {
      this.entries.clear();
      this.release = release;
      return undefined;
    }
    return this.entries.get(`${host}\0${path}`);
  }

  /** Keeps a response built from `release`; one from any release but the cached one is dropped. */
  set(release: string, host: string, path: string, ready: ReadyResponse): void {
    if (release !== this.release) return;
    this.entries.set(`${host}\0${path}`, ready);
  }

  /** How many responses are held. */
  get size(): number {
    return this.entries.size;
  }
}
