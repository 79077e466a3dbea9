// The identity emulator's users, kept in SQLite (node:sqlite) in the data folder so profile and
// password changes and deletions survive a restart; seeded once from emulators/data/identity/users.json.
import { randomBytes, randomUUID, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import * as v from 'valibot';
import { INVITE_MS, derivedRoles, roleAsAccess } from './access.ts';
import { PROFILE_FIELDS, type Profile } from './policy.ts';
import { inTransaction } from '../shared/sqlite.ts';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

/**
 * A user as identity management shows it (`GET /openidm/managed/alpha_user/{id}`), plus the roles:
 * the static ones and those derived from the access records at the time of reading (access.ts).
 */
export interface IdentityUser extends Profile {
  _id: string;
  userName: string;
  custom_internallyManaged: boolean;
  custom_mfaDevices: number;
  roles: string[];
}

export interface Organisation {
  orguid: string;
  name: string;
  subregion: string;
  country: string;
  city: string;
  /** How many users are members. */
  members: number;
}

/** A user's access to one application (status as stored: see access.ts for the effective one). */
export interface AccessRecord {
  application: string;
  status: string;
  requestedBy: string;
  /** ISO dates. */
  requestDate: string;
  inviteExpiresAt: string | null;
  updatedAt: string;
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
  /** Static roles and kmx_int_<application>_<status> roles (those become access records). */
  roles: v.optional(v.array(v.string()), []),
  /** A password of its own; the seed's demoPassword otherwise. */
  password: v.optional(v.string()),
  /** The orguids the user is a member of. */
  organisations: v.optional(v.array(v.string()), []),
  /**
   * Access records besides those of the roles; dates relative to seeding: requested `daysAgo` days
   * ago, an invitation expiring 7 days after. `inviteexpired` seeds an invitation already expired.
   */
  access: v.optional(v.array(v.object({
    application: v.string(),
    status: v.string(),
    requestedBy: v.optional(v.string()),
    daysAgo: v.optional(v.number()),
  })), []),
});
const SeedOrganisation = v.object({ orguid: v.string(), name: v.string(), subregion: Text, country: Text, city: Text });
const Seed = v.object({ demoPassword: v.string(), organisations: v.optional(v.array(SeedOrganisation), []), users: v.array(SeedUser) });
type SeedUserData = v.InferOutput<typeof SeedUser>;

const DAY_MS = 24 * 3600 * 1000;
/** Who invited or granted the seed's records when the seed does not say. */
const SEED_REQUESTER = 'employee@komax.test';

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
      CREATE TABLE IF NOT EXISTS organisations (orguid TEXT PRIMARY KEY, name TEXT NOT NULL, subregion TEXT NOT NULL, country TEXT NOT NULL, city TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS memberships (user_id TEXT NOT NULL, orguid TEXT NOT NULL, PRIMARY KEY (user_id, orguid));
      CREATE TABLE IF NOT EXISTS access (user_id TEXT NOT NULL, application TEXT NOT NULL, status TEXT NOT NULL, requested_by TEXT NOT NULL,
        request_date TEXT NOT NULL, invite_expires_at TEXT, updated_at TEXT NOT NULL, PRIMARY KEY (user_id, application));
    `);
  }

  /**
   * Fills an empty store from the seed file, once (a store whose users were all deleted stays empty).
   * A store seeded before organisations and access records existed gets them once ('adminSeeded'):
   * its users' kmx_int_* roles become access records, the seed's organisations, memberships and
   * missing users are added.
   */
  async seed(file: string): Promise<void> {
    const seeded = !!this.db.prepare(`SELECT value FROM meta WHERE key = 'seeded'`).get();
    const adminSeeded = !!this.db.prepare(`SELECT value FROM meta WHERE key = 'adminSeeded'`).get();
    if (seeded && adminSeeded) return;
    const seed = readSeed(file);
    const missing = seed.users.filter((u) => !this.get(u._id) && !this.mailTaken(u.mail));
    const rows = await Promise.all(missing.map(async ({ password, ...user }) => ({ user, hash: await hashPassword(password ?? seed.demoPassword) })));
    const now = Date.now();
    this.transaction(() => {
      for (const org of seed.organisations) {
        this.db.prepare('INSERT OR IGNORE INTO organisations (orguid, name, subregion, country, city) VALUES (?, ?, ?, ?, ?)').run(org.orguid, org.name, org.subregion, org.country, org.city);
      }
      for (const { user, hash } of rows) this.insertSeedUser(user, hash, now);
      if (seeded) {
        // An older store: its users keep their (possibly changed) roles, now as static roles + access records.
        for (const seedUser of seed.users) {
          if (!this.raw(seedUser._id) || missing.includes(seedUser)) continue;
          const raw = this.raw(seedUser._id)!;
          this.insertSeedAccess({ ...seedUser, roles: raw.roles }, now);
          for (const orguid of seedUser.organisations) this.addMembership(seedUser._id, orguid);
        }
        for (const row of this.db.prepare('SELECT id FROM users').all() as { id: string }[]) {
          const raw = this.raw(row.id)!;
          this.writeRaw({ ...raw, roles: staticOnly(raw.roles) });
        }
      }
      this.db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('seeded', ?)`).run(new Date(now).toISOString());
      this.db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('adminSeeded', ?)`).run(new Date(now).toISOString());
    });
  }

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T {
    return inTransaction(this.db, fn);
  }

  private insertSeedUser(seedUser: Omit<SeedUserData, 'password'>, hash: string, now: number): void {
    const { organisations, access: _access, roles, ...user } = seedUser;
    this.insert({ ...user, roles: staticOnly(roles) }, hash);
    this.insertSeedAccess(seedUser, now);
    for (const orguid of organisations) this.addMembership(user._id, orguid);
  }

  /** The access records of a seed user: from its kmx_int_* roles, then its `access` entries. */
  private insertSeedAccess(seedUser: Pick<SeedUserData, '_id' | 'mail' | 'roles' | 'access'>, now: number): void {
    const entries = [
      ...seedUser.roles.map(roleAsAccess).filter((a) => !!a),
      ...seedUser.access,
    ] as { application: string; status: string; requestedBy?: string; daysAgo?: number }[];
    for (const entry of entries) {
      const expired = entry.status === 'inviteexpired';
      const status = expired ? 'invited' : entry.status;
      const daysAgo = entry.daysAgo ?? (expired ? 21 : status === 'invited' ? 2 : status === 'pending' ? 3 : 60);
      const requestDate = new Date(now - daysAgo * DAY_MS);
      const requestedBy = entry.requestedBy ?? (status === 'pending' ? seedUser.mail : SEED_REQUESTER);
      this.putAccess(seedUser._id, {
        application: entry.application,
        status,
        requestedBy,
        requestDate: requestDate.toISOString(),
        inviteExpiresAt: status === 'invited' ? new Date(requestDate.getTime() + INVITE_MS).toISOString() : null,
        updatedAt: requestDate.toISOString(),
      });
    }
  }

  private insert(user: IdentityUser, passwordHash: string): void {
    this.db.prepare('INSERT INTO users (id, user_name, mail, data, password_hash) VALUES (?, ?, ?, ?, ?)')
      .run(user._id, user.userName, user.mail, JSON.stringify(user), passwordHash);
  }

  /** The stored user data (static roles only). */
  private raw(id: string): IdentityUser | undefined {
    const row = this.db.prepare('SELECT data FROM users WHERE id = ?').get(id) as { data: string } | undefined;
    return row && JSON.parse(row.data) as IdentityUser;
  }

  private writeRaw(user: IdentityUser): void {
    this.db.prepare('UPDATE users SET data = ?, mail = ? WHERE id = ?').run(JSON.stringify({ ...user, roles: staticOnly(user.roles) }), user.mail, user._id);
  }

  /** The user with the roles of this moment: static + derived from the access records. */
  private withRoles(row: Row): IdentityUser {
    const user = JSON.parse(row.data) as IdentityUser;
    return { ...user, roles: derivedRoles(staticOnly(user.roles), this.access(user._id), Date.now()) };
  }

  get(id: string): IdentityUser | undefined {
    const row = this.db.prepare('SELECT * FROM users WHERE id = ?').get(id) as Row | undefined;
    return row && this.withRoles(row);
  }

  /** Every user (with roles), in user-name order. */
  all(): IdentityUser[] {
    return (this.db.prepare('SELECT * FROM users ORDER BY user_name').all() as unknown as Row[]).map((row) => this.withRoles(row));
  }

  /** The user's static roles only (kmx_delegatedadmin_*, kmx_artemis_onpremuser). */
  staticRoles(id: string): string[] {
    return staticOnly(this.raw(id)?.roles ?? []);
  }

  /** The user signing in with this user name or e-mail address (case-insensitive). */
  findByLogin(login: string): { user: IdentityUser; passwordHash: string } | undefined {
    const row = this.db.prepare('SELECT * FROM users WHERE user_name = ? OR mail = ? ORDER BY user_name = ? DESC LIMIT 1').get(login, login, login) as Row | undefined;
    return row && { user: this.withRoles(row), passwordHash: row.password_hash };
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
    const user = this.raw(id);
    if (!user) return undefined;
    this.writeRaw({ ...user, ...changes, _id: user._id });
    return this.get(id);
  }

  /**
   * A user invited by an administrator: no password (cannot sign in), the organisation's company,
   * country and city, a membership and `invited` access records.
   */
  invite(mail: string, org: Organisation, records: AccessRecord[]): IdentityUser {
    const empty = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, ''])) as Profile;
    const user: IdentityUser = {
      ...empty, mail, custom_company: org.name, country: org.country, city: org.city,
      _id: randomUUID(), userName: mail, custom_internallyManaged: false, custom_mfaDevices: 0, roles: [],
    };
    this.transaction(() => {
      this.insert(user, '');
      this.addMembership(user._id, org.orguid);
      for (const record of records) this.putAccess(user._id, record);
    });
    return this.get(user._id)!;
  }

  // ---- organisations, memberships, access records ----

  organisations(): Organisation[] {
    return this.db.prepare(`SELECT o.orguid, o.name, o.subregion, o.country, o.city, (SELECT COUNT(*) FROM memberships m WHERE m.orguid = o.orguid) AS members
      FROM organisations o ORDER BY o.name`).all() as unknown as Organisation[];
  }

  organisation(orguid: string): Organisation | undefined {
    return this.organisations().find((o) => o.orguid === orguid);
  }

  /** The orguids the user is a member of. */
  memberships(userId: string): string[] {
    return (this.db.prepare('SELECT orguid FROM memberships WHERE user_id = ? ORDER BY orguid').all(userId) as { orguid: string }[]).map((r) => r.orguid);
  }

  addMembership(userId: string, orguid: string): void {
    this.db.prepare('INSERT OR IGNORE INTO memberships (user_id, orguid) VALUES (?, ?)').run(userId, orguid);
  }

  /** False when there was no such membership. */
  removeMembership(userId: string, orguid: string): boolean {
    return Number(this.db.prepare('DELETE FROM memberships WHERE user_id = ? AND orguid = ?').run(userId, orguid).changes) > 0;
  }

  /** The user's access records, in application-name order. */
  access(userId: string): AccessRecord[] {
    return (this.db.prepare(`SELECT application, status, requested_by AS requestedBy, request_date AS requestDate, invite_expires_at AS inviteExpiresAt, updated_at AS updatedAt
      FROM access WHERE user_id = ? ORDER BY application`).all(userId) as unknown as AccessRecord[]).map((r) => ({ ...r }));
  }

  /** Creates or replaces the user's record for `record.application`. */
  putAccess(userId: string, record: AccessRecord): void {
    this.db.prepare(`INSERT OR REPLACE INTO access (user_id, application, status, requested_by, request_date, invite_expires_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`)
      .run(userId, record.application, record.status, record.requestedBy, record.requestDate, record.inviteExpiresAt, record.updatedAt);
  }

  async setPassword(id: string, password: string): Promise<void> {
    this.db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(await hashPassword(password), id);
  }

  delete(id: string): IdentityUser | undefined {
    const user = this.get(id);
    if (user) {
      this.transaction(() => {
        this.db.prepare('DELETE FROM users WHERE id = ?').run(id);
        this.db.prepare('DELETE FROM memberships WHERE user_id = ?').run(id);
        this.db.prepare('DELETE FROM access WHERE user_id = ?').run(id);
      });
    }
    return user;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

/** The static roles of a role list (kmx_int_* roles are access records). */
function staticOnly(roles: readonly string[]): string[] {
  return roles.filter((r) => !roleAsAccess(r));
}
