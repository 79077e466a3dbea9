import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { compressedSiblingsSync } from '../../lib/fs/compress.ts';
import type { RouteSizes } from '../delivery/static-site.ts';

/**
 * Writes a file of an UNPUBLISHED release (the prerender's pages and payloads), never in place: a
 * file linked from the live release is unlinked first, so the live copy is left as it was. Not
 * atomic, and need not be: nobody reads the release before its publish, and a run killed midway
 * leaves a release that is never published (the next run removes it). Its `.br` and `.gz` siblings
 * are computed on the calling thread and written the same way (or removed when the file gets
 * none), so they count in the pages/s.
 *
 * The writes go to the thread pool: on this machine's disk a full run writes about 1 GB, and
 * written synchronously a render thread spent a third of its time blocked in write(2); now it
 * renders the next pages while the disk takes these.
 *
 * Returns the bytes written: the file, its `.br` and its `.gz` (0 for a sibling not written), which
 * the meta records so a damaged file is found later (release-check.ts).
 */
export async function writeReleaseFile(file: string, data: string | Uint8Array, opts: { fresh?: boolean } = {}): Promise<RouteSizes> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const { br, gz } = compressedSiblingsSync(bytes);
  const write = opts.fresh ? writeNew : writeUnlinked;
  await write(file, bytes);
  await Promise.all([write(`${file}.br`, br), write(`${file}.gz`, gz)]);
  return [bytes.byteLength, br?.byteLength ?? 0, gz?.byteLength ?? 0];
}

/**
 * Makes a route's folder when the release does not have it yet, and says so: then its files are
 * all new (`fresh`, nothing to unlink). Made up front, as a first write failing for the missing
 * folder cost an exception per route.
 */
export async function makeRouteFolder(dir: string): Promise<boolean> {
  return (await mkdir(dir, { recursive: true })) !== undefined;
}

/**
 * Writes a file of a route new to the release (a full run's first release, a page added since):
 * created exclusively, so nothing is unlinked first, and a file that is there after all (a hard
 * link of the live release) is never written into: it is replaced as `writeUnlinked` does.
 */
async function writeNew(file: string, data: Uint8Array | null): Promise<void> {
  if (data === null) return;
  try {
    await writeFile(file, data, { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    await writeUnlinked(file, data);
  }
}

/** Replaces a file by a new inode (or only removes it when `data` is null). */
async function writeUnlinked(file: string, data: Uint8Array | null): Promise<void> {
  try {
    await unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (data === null) return;
  try {
    await writeFile(file, data);
  } catch (err) {
    // Its folder is made once, by the first file of a new route (not tried for every file).
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, data);
  }
}
