import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Replaces `target` in one step: `create` makes the new entry at a temporary path in the same
 * folder (file, symlink …), which is then renamed over the target. Readers see the old or the new
 * entry, never half of one. Missing folders are created; the temporary entry is removed on failure.
 * The one "temporary file + rename" of the code base: every atomic write goes through here.
 */
export async function replaceAtomic(target: string, create: (tmp: string) => Promise<void>): Promise<void> {
  const tmp = `${target}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
  try {
    try {
      await create(tmp);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await mkdir(dirname(target), { recursive: true });
      await create(tmp);
    }
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Writes a file atomically (see replaceAtomic), creating its folders. */
export function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  return replaceAtomic(file, (tmp) => writeFile(tmp, data));
}
