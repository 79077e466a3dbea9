import type { DatabaseSync } from 'node:sqlite';

/**
 * Runs `fn` in one SQLite transaction of the emulators' node:sqlite stores: committed when it
 * returns, rolled back when it throws. `immediate` takes the write lock at BEGIN.
 */
export function inTransaction<T>(db: DatabaseSync, fn: () => T, opts: { immediate?: boolean } = {}): T {
  db.exec(opts.immediate ? 'BEGIN IMMEDIATE' : 'BEGIN');
  try {
    const out = fn();
    db.exec('COMMIT');
    return out;
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
}
