// The ticketing emulator's records in SQLite (node:sqlite) in its data folder, so tickets, comments,
// closings and attachments survive a restart; seeded once from emulators/data/ticketing/*.json.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import * as v from 'valibot';
import { inTransaction } from '../shared/sqlite.ts';

export const TICKET_STATUSES = ['NEW', 'IN_PROGRESS', 'WAITING_FOR_CUSTOMER', 'CLOSED'] as const;
export const TICKET_TYPES = ['TECHNICAL_SUPPORT', 'REPAIR', 'SPARE_PARTS', 'MAINTENANCE', 'SOFTWARE', 'TRAINING'] as const;
export const CLOSING_REASONS = ['RESOLVED_BY_KOMAX', 'RESOLVED_WITHOUT_KOMAX', 'NO_LONGER_RELEVANT'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export type TicketType = (typeof TICKET_TYPES)[number];
export type ClosingReason = (typeof CLOSING_REASONS)[number];

// ---- seed files ----
const Str = v.optional(v.string(), '');
const SeedOrganisations = v.object({
  organisations: v.array(v.object({
    id: v.string(), name: v.string(), country: v.string(),
    locations: v.array(v.object({ id: v.string(), name: v.string(), street: Str, postalCode: Str, city: Str, country: v.string() })),
    contacts: v.array(v.object({ id: v.string(), sub: v.optional(v.string()), email: v.string(), name: v.string(), phone: Str })),
  })),
});
const SeedTicketTypes = v.object({ ticketTypes: v.array(v.object({ type: v.picklist(TICKET_TYPES), name: v.string(), description: v.string() })) });
const SeedMachines = v.object({
  machines: v.array(v.object({
    id: v.string(), organisationId: v.string(), locationId: v.string(), name: v.string(), model: v.string(), serialNumber: v.string(),
    installedOn: v.nullable(v.string()), softwareVersion: v.string(), warrantyUntil: v.nullable(v.string()),
    serviceContract: v.nullable(v.object({ name: v.string(), until: v.string() })),
  })),
});
const SeedMessage = v.object({ author: v.optional(v.string()), contactId: v.optional(v.string()), body: v.string(), createdOn: v.string() });
const SeedTickets = v.object({
  tickets: v.array(v.object({
    id: v.pipe(v.string(), v.regex(/^SR-\d+$/)), organisationId: v.string(), type: v.picklist(TICKET_TYPES), subject: v.string(), description: v.string(),
    status: v.picklist(TICKET_STATUSES), machineId: v.string(), machineName: Str, serialNumber: Str, contactId: v.string(), locationId: v.string(),
    createdOn: v.string(), updatedOn: v.string(), closedOn: v.optional(v.string()), closingReason: v.optional(v.picklist(CLOSING_REASONS)),
    closingComment: v.optional(v.string()), replies: v.array(SeedMessage), comments: v.array(SeedMessage),
  })),
});
const SeedWireFlow = v.object({
  cloudEntryPoint: v.pipe(v.string(), v.url()),
  packages: v.array(v.object({
    id: v.string(), name: v.string(), description: v.string(),
    versions: v.array(v.object({ version: v.string(), releasedOn: v.string(), fileName: v.string(), releaseNotes: v.string() })),
  })),
});

const read = <S extends v.GenericSchema>(dir: string, file: string, schema: S): v.InferOutput<S> =>
  v.parse(schema, JSON.parse(readFileSync(join(dir, file), 'utf8')));

/**
 * The bytes of a demo wire-flow package (the emulator serves these instead of real installers; size
 * and sha256 are computed from them, so a download checks out). Deterministic per package and version.
 */
export function demoPackageBytes(packageId: string, version: string): Buffer {
  const line = `Komax wire-flow demo package ${packageId} ${version}: not a real installer.\n`;
  return Buffer.from(line.repeat(Math.ceil((48 * 1024) / line.length)));
}

// ---- records ----
export interface Organisation { id: string; name: string; country: string }
export interface Contact { id: string; organisationId: string; sub: string | null; email: string; name: string; phone: string }
export interface Location { id: string; organisationId: string; name: string; street: string; postalCode: string; city: string; country: string }
export interface Machine {
  id: string; organisationId: string; locationId: string; name: string; model: string; serialNumber: string; installedOn: string | null;
  softwareVersion: string; warrantyUntil: string | null; contractName: string | null; contractUntil: string | null;
}
export interface Ticket {
  id: string; number: number; organisationId: string; type: TicketType; subject: string; description: string; status: TicketStatus;
  machineId: string | null; machineName: string; serialNumber: string; contactId: string; locationId: string;
  createdOn: string; updatedOn: string; closedOn: string | null; closingReason: ClosingReason | null; closingComment: string | null;
}
export interface Message { id: string; ticketId: string; kind: 'reply' | 'comment'; author: string; body: string; createdOn: string }
export interface Attachment { id: string; ticketId: string; fileName: string; contentType: string; size: number; createdOn: string; uploadedBy: string }
export interface TicketTypeInfo { type: TicketType; name: string; description: string }
export interface SoftwareVersion { packageId: string; version: string; releasedOn: string; releaseNotes: string; fileName: string; size: number; sha256: string }
export interface SoftwarePackage { id: string; name: string; description: string; versions: SoftwareVersion[] }

export interface TicketQuery {
  organisationId: string;
  status?: readonly TicketStatus[];
  search?: string;
  machineId?: string;
}
export type TicketSortField = 'CREATED_ON' | 'UPDATED_ON' | 'STATUS' | 'SUBJECT';
export type Direction = 'ASC' | 'DESC';
/** A position in an ordered list: the sort value and the tie-breaker of the row it follows. */
export interface Keyset { value: string | number; tie: number | string }

const STATUS_RANK = `CASE t.status WHEN 'NEW' THEN 0 WHEN 'IN_PROGRESS' THEN 1 WHEN 'WAITING_FOR_CUSTOMER' THEN 2 ELSE 3 END`;
/** SQL expression of each ticket sort (the tie-breaker is always t.number). */
const TICKET_SORT_SQL: Record<TicketSortField, string> = {
  CREATED_ON: 't.created_on',
  UPDATED_ON: 't.updated_on',
  STATUS: STATUS_RANK,
  SUBJECT: 'lower(t.subject)',
};

/** `%term%` for LIKE with `\` as escape character. */
const likeTerm = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const TICKET_COLUMNS = `t.id, t.number, t.organisation_id AS organisationId, t.type, t.subject, t.description, t.status, t.machine_id AS machineId,
  t.machine_name AS machineName, t.serial_number AS serialNumber, t.contact_id AS contactId, t.location_id AS locationId,
  t.created_on AS createdOn, t.updated_on AS updatedOn, t.closed_on AS closedOn, t.closing_reason AS closingReason, t.closing_comment AS closingComment`;
const MACHINE_COLUMNS = `m.id, m.organisation_id AS organisationId, m.location_id AS locationId, m.name, m.model, m.serial_number AS serialNumber,
  m.installed_on AS installedOn, m.software_version AS softwareVersion, m.warranty_until AS warrantyUntil, m.contract_name AS contractName, m.contract_until AS contractUntil`;

/** A page of rows in keyset order, plus whether rows exist beyond either end. */
export interface Page<T> { rows: { row: T; key: Keyset }[]; hasNext: boolean; hasPrevious: boolean; total: number }
export interface PageRequest { first?: number; after?: Keyset; last?: number; before?: Keyset }

export class TicketingStore {
  readonly db: DatabaseSync;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new DatabaseSync(join(dataDir, 'ticketing.sqlite'));
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA foreign_keys = ON;
      CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS organisations (id TEXT PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS contacts (id TEXT PRIMARY KEY, organisation_id TEXT NOT NULL REFERENCES organisations(id), sub TEXT UNIQUE,
        email TEXT NOT NULL COLLATE NOCASE, name TEXT NOT NULL, phone TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS locations (id TEXT PRIMARY KEY, organisation_id TEXT NOT NULL REFERENCES organisations(id), name TEXT NOT NULL,
        street TEXT NOT NULL, postal_code TEXT NOT NULL, city TEXT NOT NULL, country TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS ticket_types (type TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, sort INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS machines (id TEXT PRIMARY KEY, organisation_id TEXT NOT NULL REFERENCES organisations(id),
        location_id TEXT NOT NULL REFERENCES locations(id), name TEXT NOT NULL, model TEXT NOT NULL, serial_number TEXT NOT NULL,
        installed_on TEXT, software_version TEXT NOT NULL, warranty_until TEXT, contract_name TEXT, contract_until TEXT);
      CREATE TABLE IF NOT EXISTS tickets (id TEXT PRIMARY KEY, number INTEGER NOT NULL UNIQUE, organisation_id TEXT NOT NULL REFERENCES organisations(id),
        type TEXT NOT NULL, subject TEXT NOT NULL, description TEXT NOT NULL, status TEXT NOT NULL, machine_id TEXT REFERENCES machines(id),
        machine_name TEXT NOT NULL, serial_number TEXT NOT NULL, contact_id TEXT NOT NULL REFERENCES contacts(id),
        location_id TEXT NOT NULL REFERENCES locations(id), created_on TEXT NOT NULL, updated_on TEXT NOT NULL,
        closed_on TEXT, closing_reason TEXT, closing_comment TEXT);
      CREATE INDEX IF NOT EXISTS tickets_org ON tickets (organisation_id, created_on);
      CREATE TABLE IF NOT EXISTS messages (seq INTEGER PRIMARY KEY AUTOINCREMENT, ticket_id TEXT NOT NULL REFERENCES tickets(id), kind TEXT NOT NULL,
        author TEXT NOT NULL, body TEXT NOT NULL, created_on TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS attachments (id TEXT PRIMARY KEY, ticket_id TEXT NOT NULL REFERENCES tickets(id), file_name TEXT NOT NULL,
        content_type TEXT NOT NULL, size INTEGER NOT NULL, created_on TEXT NOT NULL, uploaded_by TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS software_packages (id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, sort INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS software_versions (package_id TEXT NOT NULL REFERENCES software_packages(id), version TEXT NOT NULL,
        released_on TEXT NOT NULL, release_notes TEXT NOT NULL, file_name TEXT NOT NULL, size INTEGER NOT NULL, sha256 TEXT NOT NULL,
        PRIMARY KEY (package_id, version));
    `);
  }

  /** Whether the store was filled from a seed (a store is seeded once, then only changed through the API). */
  get seeded(): boolean {
    return !!this.db.prepare(`SELECT 1 FROM meta WHERE key = 'seeded'`).get();
  }

  /** Fills an empty store from the seed folder, once. */
  seed(dir: string): void {
    if (this.seeded) return;
    const { organisations } = read(dir, 'organisations.json', SeedOrganisations);
    const { ticketTypes } = read(dir, 'ticket-types.json', SeedTicketTypes);
    const { machines } = read(dir, 'machines.json', SeedMachines);
    const { tickets } = read(dir, 'tickets.json', SeedTickets);
    const wireFlow = read(dir, 'wire-flow.json', SeedWireFlow);
    const contactName = new Map(organisations.flatMap((o) => o.contacts.map((c) => [c.id, c.name] as const)));
    this.transaction(() => {
      const run = (sql: string, ...params: SQLInputValue[]) => this.db.prepare(sql).run(...params);
      for (const o of organisations) {
        run('INSERT INTO organisations VALUES (?, ?, ?)', o.id, o.name, o.country);
        for (const l of o.locations) run('INSERT INTO locations VALUES (?, ?, ?, ?, ?, ?, ?)', l.id, o.id, l.name, l.street, l.postalCode, l.city, l.country);
        for (const c of o.contacts) run('INSERT INTO contacts VALUES (?, ?, ?, ?, ?, ?)', c.id, o.id, c.sub ?? null, c.email, c.name, c.phone);
      }
      ticketTypes.forEach((t, i) => run('INSERT INTO ticket_types VALUES (?, ?, ?, ?)', t.type, t.name, t.description, i));
      for (const m of machines) {
        run('INSERT INTO machines VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', m.id, m.organisationId, m.locationId, m.name, m.model, m.serialNumber,
          m.installedOn, m.softwareVersion, m.warrantyUntil, m.serviceContract?.name ?? null, m.serviceContract?.until ?? null);
      }
      for (const t of tickets) {
        run('INSERT INTO tickets VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', t.id, Number(t.id.slice(3)), t.organisationId, t.type, t.subject,
          t.description, t.status, t.machineId, t.machineName, t.serialNumber, t.contactId, t.locationId, t.createdOn, t.updatedOn,
          t.closedOn ?? null, t.closingReason ?? null, t.closingComment ?? null);
        const messages = [
          ...t.replies.map((m) => ({ kind: 'reply', author: m.author ?? 'Komax Service', body: m.body, createdOn: m.createdOn })),
          ...t.comments.map((m) => ({ kind: 'comment', author: (m.contactId && contactName.get(m.contactId)) ?? m.author ?? 'Customer', body: m.body, createdOn: m.createdOn })),
          // As closeTicket does: the closing comment is also a comment of the ticket's contact.
          ...(t.closingComment && t.closedOn ? [{ kind: 'comment', author: contactName.get(t.contactId) ?? 'Customer', body: t.closingComment, createdOn: t.closedOn }] : []),
        ].sort((a, b) => a.createdOn.localeCompare(b.createdOn));
        for (const m of messages) run('INSERT INTO messages (ticket_id, kind, author, body, created_on) VALUES (?, ?, ?, ?, ?)', t.id, m.kind, m.author, m.body, m.createdOn);
      }
      wireFlow.packages.forEach((p, i) => {
        run('INSERT INTO software_packages VALUES (?, ?, ?, ?)', p.id, p.name, p.description, i);
        for (const ver of p.versions) {
          const bytes = demoPackageBytes(p.id, ver.version);
          run('INSERT INTO software_versions VALUES (?, ?, ?, ?, ?, ?, ?)', p.id, ver.version, ver.releasedOn, ver.releaseNotes, ver.fileName,
            bytes.length, createHash('sha256').update(bytes).digest('hex'));
        }
      });
      run(`INSERT INTO meta VALUES ('cloudEntryPoint', ?)`, wireFlow.cloudEntryPoint);
      run(`INSERT INTO meta VALUES ('seeded', ?)`, new Date().toISOString());
    });
  }

  transaction<T>(fn: () => T): T {
    return inTransaction(this.db, fn, { immediate: true });
  }

  private all<T>(sql: string, ...params: SQLInputValue[]): T[] {
    return this.db.prepare(sql).all(...params) as T[];
  }

  private one<T>(sql: string, ...params: SQLInputValue[]): T | undefined {
    return this.db.prepare(sql).get(...params) as T | undefined;
  }

  // ---- people and places ----

  /** The contact of a caller: by subject, else by e-mail (a contact known only by e-mail). */
  contactOf(sub: string, email?: string): Contact | undefined {
    const cols = 'id, organisation_id AS organisationId, sub, email, name, phone';
    return this.one<Contact>(`SELECT ${cols} FROM contacts WHERE sub = ?`, sub)
      ?? (email ? this.one<Contact>(`SELECT ${cols} FROM contacts WHERE sub IS NULL AND email = ?`, email) : undefined);
  }

  contact(id: string): Contact | undefined {
    return this.one<Contact>('SELECT id, organisation_id AS organisationId, sub, email, name, phone FROM contacts WHERE id = ?', id);
  }

  organisation(id: string): Organisation | undefined {
    return this.one<Organisation>('SELECT id, name, country FROM organisations WHERE id = ?', id);
  }

  locations(organisationId: string): Location[] {
    return this.all<Location>(`SELECT id, organisation_id AS organisationId, name, street, postal_code AS postalCode, city, country
      FROM locations WHERE organisation_id = ? ORDER BY name`, organisationId);
  }

  location(organisationId: string, id: string): Location | undefined {
    return this.locations(organisationId).find((l) => l.id === id);
  }

  ticketTypes(): TicketTypeInfo[] {
    return this.all<TicketTypeInfo>('SELECT type, name, description FROM ticket_types ORDER BY sort');
  }

  // ---- machines ----

  machine(organisationId: string, id: string): Machine | undefined {
    return this.one<Machine>(`SELECT ${MACHINE_COLUMNS} FROM machines m WHERE m.organisation_id = ? AND m.id = ?`, organisationId, id);
  }

  /** The organisation's machines by name, filtered; `today` (YYYY-MM-DD) decides warranty and contract states. */
  machines(q: { organisationId: string; search?: string; locationId?: string; warranty?: string; serviceContract?: string; hasOpenTickets?: boolean }, today: string, page: PageRequest): Page<Machine> {
    const where = ['m.organisation_id = ?'];
    const params: SQLInputValue[] = [q.organisationId];
    if (q.search?.trim()) {
      where.push(`(m.name LIKE ? ESCAPE '\\' OR m.model LIKE ? ESCAPE '\\' OR m.serial_number LIKE ? ESCAPE '\\')`);
      const term = likeTerm(q.search.trim());
      params.push(term, term, term);
    }
    if (q.locationId) { where.push('m.location_id = ?'); params.push(q.locationId); }
    const stateSql = (col: string, state: string) => {
      if (state === 'NONE') return `${col} IS NULL`;
      params.push(today);
      return state === 'ACTIVE' ? `${col} >= ?` : `${col} < ?`;
    };
    if (q.warranty) where.push(stateSql('m.warranty_until', q.warranty));
    if (q.serviceContract) where.push(stateSql('m.contract_until', q.serviceContract));
    if (q.hasOpenTickets !== undefined) {
      where.push(`${q.hasOpenTickets ? '' : 'NOT '}EXISTS (SELECT 1 FROM tickets t WHERE t.machine_id = m.id AND t.status != 'CLOSED')`);
    }
    return this.page<Machine>(`SELECT ${MACHINE_COLUMNS}, lower(m.name) AS k, m.id AS tie FROM machines m`, where, params, 'lower(m.name)', 'm.id', 'ASC', page);
  }

  // ---- tickets ----

  ticket(organisationId: string, id: string): Ticket | undefined {
    return this.one<Ticket>(`SELECT ${TICKET_COLUMNS} FROM tickets t WHERE t.organisation_id = ? AND t.id = ?`, organisationId, id);
  }

  /** The organisation's tickets, filtered, in keyset order. */
  tickets(q: TicketQuery, sort: { field: TicketSortField; direction: Direction }, page: PageRequest): Page<Ticket> {
    const where = ['t.organisation_id = ?'];
    const params: SQLInputValue[] = [q.organisationId];
    if (q.status?.length) {
      where.push(`t.status IN (${q.status.map(() => '?').join(', ')})`);
      params.push(...q.status);
    }
    if (q.machineId) { where.push('t.machine_id = ?'); params.push(q.machineId); }
    if (q.search?.trim()) {
      const cols = ['t.id', 't.subject', 't.description', 't.machine_name', 't.serial_number', 'm.name', 'm.serial_number', 'm.model'];
      where.push(`(${cols.map((c) => `${c} LIKE ? ESCAPE '\\'`).join(' OR ')})`);
      params.push(...cols.map(() => likeTerm(q.search!.trim())));
    }
    const key = TICKET_SORT_SQL[sort.field];
    return this.page<Ticket>(`SELECT ${TICKET_COLUMNS}, ${key} AS k, t.number AS tie FROM tickets t LEFT JOIN machines m ON m.id = t.machine_id`,
      where, params, key, 't.number', sort.direction, page);
  }

  /**
   * One page by keyset: rows after `after` (or before `before`) in the order `key dir, tie dir`.
   * `last` reads backwards and turns the rows round, as Relay connections do.
   */
  private page<T>(select: string, where: string[], params: SQLInputValue[], key: string, tie: string, direction: Direction, req: PageRequest): Page<T> {
    const base = where.join(' AND ');
    const total = (this.one<{ n: number }>(`SELECT count(*) AS n FROM (${select} WHERE ${base})`, ...params)?.n) ?? 0;
    const backwards = req.last !== undefined && req.first === undefined;
    const limit = backwards ? req.last! : (req.first ?? 20);
    const dir = backwards ? (direction === 'ASC' ? 'DESC' : 'ASC') : direction;
    const beyond = (at: Keyset, d: Direction) => ({ sql: `(${key}, ${tie}) ${d === 'ASC' ? '>' : '<'} (?, ?)`, params: [at.value, at.tie] as SQLInputValue[] });
    const conditions = [base];
    const cParams = [...params];
    const opposite = (d: Direction): Direction => (d === 'ASC' ? 'DESC' : 'ASC');
    if (req.after) { const b = beyond(req.after, direction); conditions.push(b.sql); cParams.push(...b.params); }
    if (req.before) { const b = beyond(req.before, opposite(direction)); conditions.push(b.sql); cParams.push(...b.params); }
    const found = this.all<T & { k: string | number; tie: number | string }>(
      `${select} WHERE ${conditions.join(' AND ')} ORDER BY ${key} ${dir}, ${tie} ${dir} LIMIT ?`, ...cParams, limit + 1,
    );
    const more = found.length > limit;
    const rows = found.slice(0, limit).map(({ k, tie: t, ...row }) => ({ row: row as unknown as T, key: { value: k, tie: t } }));
    if (backwards) rows.reverse();
    // Is there anything on the other side of the page's first (last) row?
    const exists = (at: Keyset | undefined, d: Direction) => {
      if (!at) return false;
      const b = beyond(at, d);
      return !!this.one(`${select} WHERE ${base} AND ${b.sql} LIMIT 1`, ...params, ...b.params);
    };
    const first = rows[0]?.key;
    const last = rows.at(-1)?.key;
    return {
      rows,
      total,
      hasNext: backwards ? (last ? exists(last, direction) : !!req.before) : more,
      hasPrevious: backwards ? more : (first ? exists(first, opposite(direction)) : !!req.after),
    };
  }

  messages(ticketId: string): Message[] {
    return this.all<Message>(`SELECT CAST(seq AS TEXT) AS id, ticket_id AS ticketId, kind, author, body, created_on AS createdOn
      FROM messages WHERE ticket_id = ? ORDER BY created_on, seq`, ticketId);
  }

  attachments(ticketId: string): Attachment[] {
    return this.all<Attachment>(`SELECT id, ticket_id AS ticketId, file_name AS fileName, content_type AS contentType, size, created_on AS createdOn,
      uploaded_by AS uploadedBy FROM attachments WHERE ticket_id = ? ORDER BY created_on, id`, ticketId);
  }

  /** An attachment with the organisation of its ticket. */
  attachment(id: string): (Attachment & { organisationId: string }) | undefined {
    return this.one(`SELECT a.id, a.ticket_id AS ticketId, a.file_name AS fileName, a.content_type AS contentType, a.size, a.created_on AS createdOn,
      a.uploaded_by AS uploadedBy, t.organisation_id AS organisationId FROM attachments a JOIN tickets t ON t.id = a.ticket_id WHERE a.id = ?`, id);
  }

  openTickets(machineId: string): Ticket[] {
    return this.all<Ticket>(`SELECT ${TICKET_COLUMNS} FROM tickets t WHERE t.machine_id = ? AND t.status != 'CLOSED' ORDER BY t.created_on DESC, t.number DESC`, machineId);
  }

  createTicket(t: Omit<Ticket, 'id' | 'number' | 'updatedOn' | 'closedOn' | 'closingReason' | 'closingComment' | 'status'>): Ticket {
    const number = (this.one<{ n: number | null }>('SELECT max(number) AS n FROM tickets')?.n ?? 100000) + 1;
    const id = `SR-${number}`;
    this.db.prepare(`INSERT INTO tickets VALUES (?, ?, ?, ?, ?, ?, 'NEW', ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL)`).run(
      id, number, t.organisationId, t.type, t.subject, t.description, t.machineId, t.machineName, t.serialNumber, t.contactId, t.locationId,
      t.createdOn, t.createdOn,
    );
    return this.ticket(t.organisationId, id)!;
  }

  addMessage(ticketId: string, kind: Message['kind'], author: string, body: string, at: string): Message {
    const { lastInsertRowid } = this.db.prepare('INSERT INTO messages (ticket_id, kind, author, body, created_on) VALUES (?, ?, ?, ?, ?)').run(ticketId, kind, author, body, at);
    this.touch(ticketId, at);
    return { id: String(lastInsertRowid), ticketId, kind, author, body, createdOn: at };
  }

  closeTicket(ticketId: string, reason: ClosingReason, comment: string | null, at: string): void {
    this.db.prepare(`UPDATE tickets SET status = 'CLOSED', closing_reason = ?, closing_comment = ?, closed_on = ?, updated_on = ? WHERE id = ?`)
      .run(reason, comment, at, at, ticketId);
  }

  addAttachment(a: Attachment): void {
    this.db.prepare('INSERT INTO attachments VALUES (?, ?, ?, ?, ?, ?, ?)').run(a.id, a.ticketId, a.fileName, a.contentType, a.size, a.createdOn, a.uploadedBy);
    this.touch(a.ticketId, a.createdOn);
  }

  private touch(ticketId: string, at: string): void {
    this.db.prepare('UPDATE tickets SET updated_on = max(updated_on, ?) WHERE id = ?').run(at, ticketId);
  }

  // ---- wire-flow ----

  cloudEntryPoint(): string {
    return this.one<{ value: string }>(`SELECT value FROM meta WHERE key = 'cloudEntryPoint'`)?.value ?? '';
  }

  softwarePackages(): SoftwarePackage[] {
    const packages = this.all<Omit<SoftwarePackage, 'versions'>>('SELECT id, name, description FROM software_packages ORDER BY sort');
    const versions = this.all<SoftwareVersion>(`SELECT package_id AS packageId, version, released_on AS releasedOn, release_notes AS releaseNotes,
      file_name AS fileName, size, sha256 FROM software_versions ORDER BY released_on DESC, version DESC`);
    return packages.map((p) => ({ ...p, versions: versions.filter((x) => x.packageId === p.id) }));
  }

  softwareVersion(packageId: string, version: string): SoftwareVersion | undefined {
    return this.one<SoftwareVersion>(`SELECT package_id AS packageId, version, released_on AS releasedOn, release_notes AS releaseNotes,
      file_name AS fileName, size, sha256 FROM software_versions WHERE package_id = ? AND version = ?`, packageId, version);
  }

  close(): void {
    this.db.close();
  }
}
