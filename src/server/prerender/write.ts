import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { compressedSiblingsSync } from '../../lib/fs/compress.ts';

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
 */
export async function writeReleaseFile(file: string, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  const { br, gz } = compressedSiblingsSync(bytes);
  await writeUnlinked(file, bytes);
  await Promise.all([writeUnlinked(`${file}.br`, br), writeUnlinked(`${file}.gz`, gz)]);
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
