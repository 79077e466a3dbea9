import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { DatabaseSync } from 'node:sqlite';

/**
 * The emulators' idempotency keys (draft-ietf-httpapi-idempotency-key-header), kept in each
 * emulator's own SQLite database so that they survive a restart: a write sent with an
 * `Idempotency-Key` is done once per key and caller; a repeat within 24 hours gets the first
 * answer (even after the emulator was hung or restarted in between), the same key with another
 * request 422, and a repeat while the first is still being worked on 409. What a real service
 * does with the header is its own affair; the emulators show the behaviour our app relies on.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A claim older than this whose write never finished (a crash in between) may be taken over. */
const PENDING_MS = 2 * 60_000;

/** The answer kept for a key. */
export interface KeptAnswer { status: number; body: string }

export type Claim =
  | { kind: 'started'; finish(answer: KeptAnswer): void; release(): void }
  | { kind: 'done'; answer: KeptAnswer }
  | { kind: 'in-progress' }
  | { kind: 'mismatch' };

/** The key of an `Idempotency-Key` header (quoted sf-string or bare), null when absent, 'malformed' when not a key. */
export function idempotencyKeyOf(headers: IncomingHttpHeaders | Headers): string | null | 'malformed' {
  // Duck-typed: graphql-yoga's requests carry their own Headers class.
  const raw = typeof (headers as Headers).get === 'function' ? (headers as Headers).get('idempotency-key') : (headers as IncomingHttpHeaders)['idempotency-key'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined || value === null) return null;
  const key = /^"(.*)"$/.exec(value)?.[1] ?? value;
  return /^[A-Za-z0-9._:-]{16,128}$/.test(key) ? key : 'malformed';
}

export const fingerprintOf = (...parts: (string | Buffer)[]): string => {
  const hash = createHash('sha256');
  for (const p of parts) hash.update(`${Buffer.byteLength(p)}:`).update(p);
  return hash.digest('hex');
};

/** The answers the draft gives to a key that cannot be used now. */
export const IDEMPOTENCY_REFUSALS = {
  malformed: { status: 400, message: 'The Idempotency-Key header must be a quoted string of 16 to 128 letters, digits, "-", "_", "." or ":".' },
  'in-progress': { status: 409, message: 'A request with this Idempotency-Key is still being processed. Send it again in a moment.' },
  mismatch: { status: 422, message: 'This Idempotency-Key was already used for a different request.' },
} as const;

/** The table of keys in an emulator's database (created when missing). */
export class IdempotencyKeys {
  private readonly db: DatabaseSync;
  private readonly now: () => number;

  constructor(db: DatabaseSync, now: () => number = Date.now) {
    this.db = db;
    this.now = now;
    db.exec(`CREATE TABLE IF NOT EXISTS idempotency_keys (scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL,
      state TEXT NOT NULL, status INTEGER, body TEXT, at INTEGER NOT NULL, PRIMARY KEY (scope, key))`);
  }

  /** Claims `key` of `scope` (the caller) for a request with `fingerprint`, or says what holds it. */
  claim(scope: string, key: string, fingerprint: string): Claim {
    const now = this.now();
    this.db.prepare('DELETE FROM idempotency_keys WHERE at < ?').run(now - IDEMPOTENCY_TTL_MS);
    const row = this.db.prepare('SELECT fingerprint, state, status, body, at FROM idempotency_keys WHERE scope = ? AND key = ?').get(scope, key) as
      { fingerprint: string; state: string; status: number | null; body: string | null; at: number } | undefined;
    if (row) {
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'done') return { kind: 'done', answer: { status: row.status ?? 200, body: row.body ?? '' } };
      if (now - row.at < PENDING_MS) return { kind: 'in-progress' };
    }
    this.db.prepare(`INSERT INTO idempotency_keys (scope, key, fingerprint, state, at) VALUES (?, ?, ?, 'pending', ?)
      ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, state = 'pending', status = NULL, body = NULL, at = excluded.at`)
      .run(scope, key, fingerprint, now);
    return {
      kind: 'started',
      finish: (answer) => {
        this.db.prepare(`UPDATE idempotency_keys SET state = 'done', status = ?, body = ?, at = ? WHERE scope = ? AND key = ?`)
          .run(answer.status, answer.body, this.now(), scope, key);
      },
      release: () => {
        this.db.prepare(`DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND state = 'pending'`).run(scope, key);
      },
    };
  }

  /**
   * Runs `write` once per key: a repeat gets the first answer. Answers `keep` rejects (an error)
   * are not kept: the next attempt runs again.
   */
  async once(scope: string, key: string, fingerprint: string, write: () => Promise<KeptAnswer>, keep: (a: KeptAnswer) => boolean = (a) => a.status >= 200 && a.status < 300):
    Promise<{ kind: 'fresh'; answer: KeptAnswer } | { kind: 'replayed'; answer: KeptAnswer } | { kind: 'in-progress' } | { kind: 'mismatch' }> {
    const claim = this.claim(scope, key, fingerprint);
    if (claim.kind === 'done') return { kind: 'replayed', answer: claim.answer };
    if (claim.kind !== 'started') return claim;
    let answer: KeptAnswer;
    try {
      answer = await write();
    } catch (err) {
      claim.release();
      throw err;
    }
    if (keep(answer)) claim.finish(answer);
    else claim.release();
    return { kind: 'fresh', answer };
  }
}
