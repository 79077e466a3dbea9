// Attachments on disk: a file part is streamed to a temporary file in the data folder while its size
// is counted (refused the moment it passes 100 MB) and its first bytes are checked (images and videos
// only); a staged file is renamed into attachments/ when the mutation stores it, and deleted otherwise.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Spec §9: upload limit 100 MB. */
export const MAX_UPLOAD_BYTES = 104_857_600;
/** How many files one request may carry. */
export const MAX_FILES_PER_REQUEST = 10;

export type UploadRefusal = 'FILE_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE';

export class UploadRefused extends Error {
  override name = 'UploadRefused';
  readonly code: UploadRefusal;
  readonly status: number;
  constructor(code: UploadRefusal, message: string) {
    super(message);
    this.code = code;
    this.status = code === 'FILE_TOO_LARGE' ? 413 : 415;
  }
}

/** A file written to the staging folder, waiting for its mutation. */
export interface StagedFile {
  path: string;
  fileName: string;
  /** The type found in its first bytes. */
  contentType: string;
  size: number;
}

const ascii = (head: Uint8Array, at: number, text: string) => text.split('').every((c, i) => head[at + i] === c.charCodeAt(0));
const bytes = (head: Uint8Array, at: number, values: number[]) => values.every((b, i) => head[at + i] === b);

/** ISO base media (MP4, QuickTime, HEIF …) brands by type. */
const FTYP_BRANDS: [RegExp, string][] = [
  [/^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/, 'image/heic'],
  [/^(avif|avis)$/, 'image/avif'],
  [/^qt {2}$/, 'video/quicktime'],
  [/^(3gp\d|3g2\w)$/, 'video/3gpp'],
  [/^(isom|iso\d|mp41|mp42|mp71|avc1|dash|M4V |M4VH|M4VP|MSNV|NDAS|f4v |XAVC)$/, 'video/mp4'],
];

/** How many leading bytes `sniffMediaType` looks at. */
export const SNIFF_BYTES = 64;

/**
 * The image or video type of a file by its first bytes (magic numbers), or null for anything else
 * (text, PDF, executables … and SVG, which is text that can carry scripts).
 */
export function sniffMediaType(head: Uint8Array): string | null {
  if (bytes(head, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (bytes(head, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return 'image/gif';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return 'image/webp';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'AVI ')) return 'video/x-msvideo';
  if (bytes(head, 0, [0x49, 0x49, 0x2a, 0x00]) || bytes(head, 0, [0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  // BMP: "BM" and a known DIB header size at offset 14 (two letters alone would match text).
  if (ascii(head, 0, 'BM') && head.length >= 18 && [12, 40, 52, 56, 64, 108, 124].includes(head[14]! | (head[15]! << 8)) && head[16] === 0 && head[17] === 0) return 'image/bmp';
  if (bytes(head, 0, [0x00, 0x00, 0x01, 0x00]) && head.length >= 6 && head[4]! + head[5]! > 0) return 'image/x-icon';
  if (ascii(head, 4, 'ftyp') && head.length >= 12) {
    const brand = String.fromCharCode(...head.subarray(8, 12));
    for (const [re, type] of FTYP_BRANDS) if (re.test(brand)) return type;
    return null;
  }
  if (bytes(head, 0, [0x1a, 0x45, 0xdf, 0xa3])) return Buffer.from(head).includes('webm') ? 'video/webm' : 'video/x-matroska';
  if (bytes(head, 0, [0x00, 0x00, 0x01, 0xba]) || bytes(head, 0, [0x00, 0x00, 0x01, 0xb3])) return 'video/mpeg';
  return null;
}

const family = (type: string) => type.split('/')[0]!.trim().toLowerCase();

/** Whether a declared type may go with the sniffed one: none, octet-stream, or the same family (image or video). */
function declaredFits(declared: string, sniffed: string): boolean {
  const d = declared.split(';')[0]!.trim().toLowerCase();
  return d === '' || d === 'application/octet-stream' || family(d) === family(sniffed);
}

/** A file name safe to keep and to send back in Content-Disposition (no paths, no control characters). */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim().slice(0, 200);
  return clean || 'attachment';
}

/**
 * Streams one file to `<dir>/<uuid>.part`, chunk by chunk (each write awaited, so at most one chunk is
 * held), checking its type on the first bytes and its size on every chunk. On refusal or any error the
 * partial file is deleted and the error thrown; the caller stops reading the request.
 */
export async function stageFile(body: AsyncIterable<Buffer>, opts: { dir: string; fileName?: string; declaredType: string; maxBytes?: number }): Promise<StagedFile> {
  const maxBytes = opts.maxBytes ?? MAX_UPLOAD_BYTES;
  const fileName = cleanFileName(opts.fileName);
  mkdirSync(opts.dir, { recursive: true });
  const path = join(opts.dir, `${randomUUID()}.part`);
  const file = await open(path, 'wx', 0o600);
  let size = 0;
  let contentType: string | null = null;
  let head: Buffer[] = [];
  let headSize = 0;
  const refuseType = () => new UploadRefused('UNSUPPORTED_MEDIA_TYPE', `"${fileName}" is not an image or a video. Only images and videos can be attached.`);
  const check = () => {
    contentType = sniffMediaType(Buffer.concat(head));
    if (!contentType || !declaredFits(opts.declaredType, contentType)) throw refuseType();
  };
  try {
    for await (const chunk of body) {
      size += chunk.length;
      if (size > maxBytes) throw new UploadRefused('FILE_TOO_LARGE', `"${fileName}" is larger than 100 MB (${maxBytes.toLocaleString('en')} bytes). Files of at most 100 MB can be attached.`);
      if (contentType === null) {
        head.push(chunk);
        headSize += chunk.length;
        if (headSize < SNIFF_BYTES) continue;
        check();
        for (const part of head) await file.write(part);
        head = [];
        continue;
      }
      await file.write(chunk);
    }
    if (contentType === null) {
      if (headSize === 0) throw refuseType();
      check();
      for (const part of head) await file.write(part);
    }
    await file.close();
    return { path, fileName, contentType: contentType!, size };
  } catch (err) {
    await file.close().catch(() => {});
    await rm(path, { force: true });
    throw err;
  }
}

/** Moves a staged file to its place under `attachments/` (same file system: a rename). */
export async function keepStaged(file: StagedFile, attachmentsDir: string, id: string): Promise<string> {
  mkdirSync(attachmentsDir, { recursive: true });
  const target = join(attachmentsDir, id);
  await rename(file.path, target);
  return target;
}

export async function discardStaged(files: Iterable<StagedFile>): Promise<void> {
  await Promise.all([...files].map((f) => rm(f.path, { force: true })));
}
