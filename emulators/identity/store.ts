// The identity emulator's users, kept in SQLite (node:sqlite) in the data folder so profile and
// password changes and deletions survive a restart; seeded once from emulators/data/identity/users.json.
import { randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import * as v from 'valibot';
import { PROFILE_FIELDS, type Profile } from './policy.ts';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/** A user as identity management shows it (`GET /openidm/managed/alpha_user/{id}`), plus the roles. */
export interface IdentityUser extends Profile {
  _id: string;
  userName: string;
  custom_internallyManaged: boolean;
  custom_mfaDevices: number;
  roles: string[];
}

const Text = v.optional(v.string(), '');
const SeedUser = v.object({
  _id: v.string(),
  userName: v.string(),
  givenName: v.string(),
  sn: v.string(),
  mail: v.string(),
  telephoneNumber: Text,
  postalAddress: Text,
  postalCode: Text,
  city: Text,
  country: Text,
  custom_company: Text,
  custom_language: Text,
  custom_internallyManaged: v.optional(v.boolean(), false),
  custom_mfaDevices: v.optional(v.number(), 0),
  roles: v.optional(v.array(v.string()), []),
  /** A password of its own; the seed's demoPassword otherwise. */
  password: v.optional(v.string()),
});
const Seed = v.object({ demoPassword: v.string(), users: v.array(SeedUser) });

/** Reads and checks a seed file (`{ demoPassword, users: [...] }`). */
export function readSeed(file: string): v.InferOutput<typeof Seed> {
  return v.parse(Seed, JSON.parse(readFileSync(file, 'utf8')));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, 32);
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length);
  return timingSafeEqual(actual, expected);
}

interface Row {
  id: string;
  user_name: string;
  data: string;
  password_hash: string;
}

export class UserStore {
  readonly db: DatabaseSync;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new DatabaseSync(join(dataDir, 'users.sqlite'));
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS users (id TEXT PRIMARY KEY, user_name TEXT NOT NULL UNIQUE COLLATE NOCASE, mail TEXT NOT NULL COLLATE NOCASE, data TEXT NOT NULL, password_hash TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
  }

  /** Fills an empty store from the seed file, once (a store whose users were all deleted stays empty). */
  async seed(file: string): Promise<void> {
    if (this.db.prepare(`SELECT value FROM meta WHERE key = 'seeded'`).get()) return;
    const seed = readSeed(file);
    const rows = await Promise.all(seed.users.map(async ({ password, ...user }) => ({ user, hash: await hashPassword(password ?? seed.demoPassword) })));
    this.db.exec('BEGIN');
    try {
      for (const { user, hash } of rows) this.insert(user, hash);
      this.db.prepare(`INSERT INTO meta (key, value) VALUES ('seeded', ?)`).run(new Date().toISOString());
      this.db.exec('COMMIT');
    } catch (err) {
      this.db.exec('ROLLBACK');
      throw err;
    }
  }

  private insert(user: IdentityUser, passwordHash: string): void {
    this.db.prepare('INSERT INTO users (id, user_name, mail, data, password_hash) VALUES (?, ?, ?, ?, ?)')
      .run(user._id, user.userName, user.mail, JSON.stringify(user), passwordHash);
  }

  private static toUser(row: Row): IdentityUser {
    return JSON.parse(row.data) as IdentityUser;
  }

  get(id: string): IdentityUser | undefined {
    const row = this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as Row | undefined;
    return row && UserStore.toUser(row);
  }

  /** The user signing in with this user name or e-mail address (case-insensitive). */
  findByLogin(login: string): { user: IdentityUser; passwordHash: string } | undefined {
    const row = this.db.prepare('SELECT * FROM users WHERE user_name = ? OR mail = ? ORDER BY user_name = ? DESC LIMIT 1').get(login, login, login) as Row | undefined;
    return row && { user: UserStore.toUser(row), passwordHash: row.password_hash };
  }

  /** Whether another user than `exceptId` has this e-mail address as user name or e-mail. */
  mailTaken(mail: string, exceptId?: string): boolean {
    return !!this.db.prepare('SELECT 1 FROM users WHERE (user_name = ? OR mail = ?) AND id != ?').get(mail, mail, exceptId ?? '');
  }

  passwordHash(id: string): string | undefined {
    return (this.db.prepare('SELECT password_hash FROM users WHERE id = ?').get(id) as { password_hash: string } | undefined)?.password_hash;
  }

  /** A new self-registered user (no roles, no MFA device yet). */
  async create(profile: Pick<Profile, 'givenName' | 'sn' | 'mail'>, password: string): Promise<IdentityUser> {
    const empty = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, ''])) as Profile;
    const user: IdentityUser = {
      ...empty, ...profile, _id: randomUUID(), userName: profile.mail, custom_internallyManaged: false, custom_mfaDevices: 0, roles: [],
    };
    this.insert(user, await hashPassword(password));
    return user;
  }

  update(id: string, changes: Partial<IdentityUser>): IdentityUser | undefined {
    const user = this.get(id);
    if (!user) return undefined;
    const updated = { ...user, ...changes, _id: user._id };
    this.db.prepare('UPDATE users SET data = ?, mail = ? WHERE id = ?').run(JSON.stringify(updated), updated.mail, id);
    return updated;
  }

  async setPassword(id: string, password: string): Promise<void> {
    this.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(await hashPassword(password), id);
  }

  delete(id: string): IdentityUser | undefined {
    const user = this.get(id);
    if (user) this.db.prepare('DELETE FROM users WHERE id = ?').run(id);
    return user;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
