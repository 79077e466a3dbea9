/**
 * Password hashes as the editor area and protected pages store them: scrypt in one self-describing
 * string, `scrypt$<N>$<r>$<p>$<salt base64url>$<key base64url>`, checked in constant time. The
 * parameters travel with the hash, so stronger ones can be introduced without breaking old hashes.
 * @example const stored = await hashPassword('s3cret'); await verifyPassword('s3cret', stored) // true
 */
import { randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_BYTES = 32;
const SALT_BYTES = 16;
/** Defaults: N = 2^15, r = 8, p = 1 (about 32 MiB and 50–100 ms a check). */
export const DEFAULT_SCRYPT = { N: 2 ** 15, r: 8, p: 1 } as const;
const HASH_PATTERN = /^scrypt\$(\d{1,8})\$(\d{1,3})\$(\d{1,3})\$([A-Za-z0-9_-]{16,128})\$([A-Za-z0-9_-]{32,128})$/;

function derive(password: string, salt: Buffer, keyBytes: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyBytes, { ...options, maxmem: 256 * options.N! * options.r! }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

interface ParsedHash { N: number; r: number; p: number; salt: Buffer; key: Buffer }

/** The parts of a stored hash, or null when it is not one this module writes. */
export function parsePasswordHash(stored: string): ParsedHash | null {
  const m = HASH_PATTERN.exec(stored.trim());
  if (!m) return null;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // N must be a power of two above 1; bounds keep a hostile hash from costing unbounded memory.
  if (N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  return { N, r, p, salt: Buffer.from(m[4]!, 'base64url'), key: Buffer.from(m[5]!, 'base64url') };
}

/** Whether a string is a well-formed password hash (for env and content validation). */
export const isPasswordHash = (stored: string): boolean => parsePasswordHash(stored) !== null;

/** Hashes a password with a fresh random salt. */
export async function hashPassword(password: string, params: { N: number; r: number; p: number } = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, params);
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** {@link hashPassword} without a callback, for start-up scripts and test configuration only (it blocks). */
export function hashPasswordSync(password: string, params: { N: number; r: number; p: number } = DEFAULT_SCRYPT): string {
  const salt = randomBytes(SALT_BYTES);
  const key = scryptSync(password.normalize('NFC'), salt, KEY_BYTES, { ...params, maxmem: 256 * params.N * params.r });
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Whether `password` matches `stored`; false (never a throw) for a malformed hash. Constant time in the key comparison. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.key.length, { N: parsed.N, r: parsed.r, p: parsed.p });
  return timingSafeEqual(key, parsed.key);
}
