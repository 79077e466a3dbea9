import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Writes a file of an UNPUBLISHED release (the prerender's pages and payloads): synchronously
 * (a render thread has nothing else to do meanwhile, and a small file costs three system calls
 * instead of a temporary file, a rename and four thread-pool round trips), and never in place: a
 * file linked from the live release is unlinked first, so the live copy is left as it was. Not
 * atomic, and need not be: nobody reads the release before its publish, and a run killed midway
 * leaves a release that is never published (the next run removes it).
 */
export function writeReleaseFile(file: string, data: string | Uint8Array): void {
  try {
    unlinkSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') mkdirSync(dirname(file), { recursive: true });
    else throw err;
  }
  writeFileSync(file, data);
  // COMPRESS: the one call site of the precompressed siblings of a prerendered file. When the
  // "compress" branch lands, call its `writeCompressedSiblings(file, data)` here (brotli q≈4-5,
  // gzip), written the same way (unlink, then write): its cost then counts in the pages/s.
}
