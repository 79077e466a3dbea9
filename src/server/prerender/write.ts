import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { compressedSiblingsSync } from '../../lib/fs/compress.ts';

/**
 * Writes a file of an UNPUBLISHED release (the prerender's pages and payloads): synchronously
 * (a render thread has nothing else to do meanwhile, and a small file costs three system calls
 * instead of a temporary file, a rename and four thread-pool round trips), and never in place: a
 * file linked from the live release is unlinked first, so the live copy is left as it was. Not
 * atomic, and need not be: nobody reads the release before its publish, and a run killed midway
 * leaves a release that is never published (the next run removes it). Its `.br` and `.gz` siblings
 * are written the same way (or removed when the file gets none), so they count in the pages/s.
 */
export function writeReleaseFile(file: string, data: string | Uint8Array): void {
  writeUnlinked(file, data);
  const { br, gz } = compressedSiblingsSync(data);
  writeUnlinked(`${file}.br`, br);
  writeUnlinked(`${file}.gz`, gz);
}

/** Replaces a file by a new inode (or only removes it when `data` is null). */
function writeUnlinked(file: string, data: string | Uint8Array | null): void {
  try {
    unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (data === null) return;
  try {
    writeFileSync(file, data);
  } catch (err) {
    // Its folder is made once, by the first file of a new route (not tried for every file).
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, data);
  }
}
