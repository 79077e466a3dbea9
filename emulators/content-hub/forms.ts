import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { createGraphQLError } from 'graphql-yoga';
import { fingerprintOf, IDEMPOTENCY_REFUSALS, IdempotencyKeys } from '../shared/idempotency.ts';
// The hub's address rule is the site's (one list of countries with states, so the two agree).
import { countryHasStates } from '../../src/site/address.ts';
import type { Ctx, HubExtension, HubHelpers } from './server.ts';

/**
 * The content hub's forms endpoint: the system of record for the site's request forms
 * (open-source software request, service request, whitepaper download, contact). `submitForm`
 * checks a submission again (required fields, conditional requirements, e-mail and country
 * format, lengths) and stores it in SQLite (node:sqlite) in `forms.sqlite` of the hub's forms data
 * folder (FORMS_DATA_DIR, default `.data/forms`; in memory when the hub is started without one, as
 * unit tests do). `formSubmissions` reads them back (for tests and demos). A submission sent with
 * an `Idempotency-Key` is stored once per key: a repeat within 24 h (a retry after the app gave
 * up waiting) gets the first answer, also after a restart (the keys live in the same database).
 */

export const formsTypeDefs = /* GraphQL */ `
"One field of a form submission: its name and its value as text (checkboxes: true or false)."
type FormField {
  name: String!
  value: String!
}

input FormFieldInput {
  name: String!
  value: String!
}

"A stored form submission."
type FormSubmission {
  id: ID!
  "openSource, serviceRequest, whitepaper or contact."
  kind: String!
  "The locale of the page the form was sent from (en, de-ch …)."
  locale: String!
  fields: [FormField!]!
  createdAt: String!
}

type FormSubmitResult {
  ok: Boolean!
  id: ID
}

extend type Query {
  "Stored submissions, newest first; all kinds when kind is omitted (for tests and demos)."
  formSubmissions(kind: String, first: Int = 50): [FormSubmission!]!
}

extend type Mutation {
  "Stores a form submission. Invalid input is answered with a GraphQL error (code BAD_USER_INPUT, extensions.fields per field)."
  submitForm(kind: String!, locale: String!, fields: [FormFieldInput!]!): FormSubmitResult!
}
`;

/** Longest accepted value of a field, in characters. */
export const FORM_VALUE_MAX = 5000;

interface KindRules {
  required: string[];
  optional: string[];
  /** Fields that must be the text "true" (consent checkboxes). */
  checked?: string[];
  /** Fields required only when another field has a value. */
  when?: { field: string; equals: string; require: string[] }[];
  /** State fields, required only when their country field names a country with states. */
  states?: { country: string; state: string }[];
}

const RETURN_ADDRESS = ['returnAddress', 'returnCity', 'returnZipCode', 'returnCountry'];

export const FORM_RULES: Record<string, KindRules> = {
  openSource: { required: ['email', 'firstName', 'lastName', 'company', 'country', 'product', 'serialNumber', 'message'], optional: [] },
  serviceRequest: {
    required: ['firstName', 'lastName', 'email', 'company', 'address', 'city', 'zipCode', 'country', 'requestedService', 'subject', 'description', 'machineName', 'serialNumber'],
    optional: ['telephone', 'state', 'reason', 'existingCase', 'caseId', 'separateReturnAddress', ...RETURN_ADDRESS, 'returnState', 'warranty', 'serviceContract'],
    when: [
      { field: 'existingCase', equals: 'yes', require: ['caseId'] },
      { field: 'separateReturnAddress', equals: 'true', require: RETURN_ADDRESS },
    ],
    states: [{ country: 'country', state: 'state' }, { country: 'returnCountry', state: 'returnState' }],
  },
  whitepaper: { required: ['name', 'email', 'company', 'country', 'consent', 'file'], optional: [], checked: ['consent'] },
  contact: { required: ['name', 'email', 'company', 'country', 'topic', 'message', 'consent'], optional: [], checked: ['consent'] },
};

const clip = (s: string, n = 40) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** The problems of a submission per field (empty when it may be stored). */
export function checkSubmission(kind: string, locale: string, fields: { name: string; value: string }[]): Record<string, string> {
  const rules = FORM_RULES[kind];
  if (!rules) return { kind: `kind must be one of ${Object.keys(FORM_RULES).join(', ')}, got "${clip(kind)}".` };
  const problems: Record<string, string> = {};
  if (!/^[a-z]{2}(-[a-z]{2})?$/i.test(locale)) problems.locale = `locale must be a locale code such as en or de-ch, got "${clip(locale)}".`;
  const values = new Map<string, string>();
  const known = new Set([...rules.required, ...rules.optional]);
  for (const { name, value } of fields) {
    if (!known.has(name)) problems[name] = `${kind} has no field "${clip(name)}".`;
    else if (values.has(name)) problems[name] = `${name} is given twice.`;
    else if ([...value].length > FORM_VALUE_MAX) problems[name] = `${name} must be at most ${FORM_VALUE_MAX} characters.`;
    values.set(name, value.trim());
  }
  const required = [...rules.required, ...(rules.when ?? []).filter((w) => values.get(w.field) === w.equals).flatMap((w) => w.require)];
  // A state is needed where its country has states (a return state only with a return address).
  for (const { country, state } of rules.states ?? []) if (required.includes(country) && countryHasStates(values.get(country))) required.push(state);
  for (const name of required) if (!values.get(name) && !problems[name]) problems[name] = `${name} must not be empty.`;
  for (const name of rules.checked ?? []) if (values.get(name) && values.get(name) !== 'true' && !problems[name]) problems[name] = `${name} must be true.`;
  const email = values.get('email');
  if (email && !problems.email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) problems.email = `email must be an e-mail address, got "${clip(email)}".`;
  for (const name of ['country', 'returnCountry']) {
    const c = values.get(name);
    if (c && !problems[name] && !/^[A-Za-z]{2}$/.test(c)) problems[name] = `${name} must be a two-letter ISO 3166-1 code such as "CH", got "${clip(c, 20)}".`;
  }
  return problems;
}

export interface StoredSubmission {
  id: string;
  kind: string;
  locale: string;
  fields: { name: string; value: string }[];
  createdAt: string;
}

/** The submissions in SQLite: a file in `dataDir`, or memory when there is none. */
export class FormStore {
  readonly db: DatabaseSync;

  readonly keys: IdempotencyKeys;

  constructor(dataDir: string | null) {
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    this.db = new DatabaseSync(dataDir ? join(dataDir, 'forms.sqlite') : ':memory:');
    this.keys = new IdempotencyKeys(this.db);
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      CREATE TABLE IF NOT EXISTS submissions (seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
        locale TEXT NOT NULL, fields TEXT NOT NULL, created_at TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS submissions_kind ON submissions (kind, seq);
    `);
  }

  add(kind: string, locale: string, fields: { name: string; value: string }[]): StoredSubmission {
    const entry: StoredSubmission = { id: randomUUID(), kind, locale: locale.toLowerCase(), fields: fields.map((f) => ({ name: f.name, value: f.value.trim() })), createdAt: new Date().toISOString() };
    this.db.prepare('INSERT INTO submissions (id, kind, locale, fields, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(entry.id, entry.kind, entry.locale, JSON.stringify(entry.fields), entry.createdAt);
    return entry;
  }

  list(kind: string | null, first: number): StoredSubmission[] {
    const rows = (kind
      ? this.db.prepare('SELECT id, kind, locale, fields, created_at AS createdAt FROM submissions WHERE kind = ? ORDER BY seq DESC LIMIT ?').all(kind, first)
      : this.db.prepare('SELECT id, kind, locale, fields, created_at AS createdAt FROM submissions ORDER BY seq DESC LIMIT ?').all(first)) as unknown as (Omit<StoredSubmission, 'fields'> & { fields: string })[];
    return rows.map((r) => ({ ...r, fields: JSON.parse(r.fields) as StoredSubmission['fields'] }));
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

const badInput = (message: string, fields: Record<string, string>) => createGraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', fields } });

/** Builds the forms extension; each hub that starts opens its own store in its forms data folder. */
export function createFormsExtension(): HubExtension {
  return {
    typeDefs: formsTypeDefs,
    resolvers: (h: HubHelpers) => {
      const store = new FormStore(h.formsDataDir ?? null);
      h.onClose(() => store.close());
      return {
        Query: {
          formSubmissions: (_: unknown, a: { kind?: string | null; first?: number | null }) => store.list(a.kind ?? null, Math.max(1, Math.min(500, a.first ?? 50))),
        },
        Mutation: {
          submitForm: (_: unknown, a: { kind: string; locale: string; fields: { name: string; value: string }[] }, ctx: Ctx) => {
            const problems = checkSubmission(a.kind, a.locale, a.fields);
            if (Object.keys(problems).length) throw badInput(`Form submission not accepted: ${Object.values(problems).join(' ')}`, problems);
            const key = ctx.idempotencyKey ?? null;
            if (key === 'malformed') throw createGraphQLError(IDEMPOTENCY_REFUSALS.malformed.message, { extensions: { code: 'BAD_REQUEST' } });
            if (!key) return { ok: true, id: store.add(a.kind, a.locale, a.fields).id };
            const claim = store.keys.claim('forms', key, fingerprintOf(a.kind, a.locale.toLowerCase(), JSON.stringify(a.fields)));
            if (claim.kind === 'done') return JSON.parse(claim.answer.body) as { ok: boolean; id: string };
            if (claim.kind === 'in-progress' || claim.kind === 'mismatch') {
              throw createGraphQLError(IDEMPOTENCY_REFUSALS[claim.kind].message, { extensions: { code: claim.kind === 'mismatch' ? 'IDEMPOTENCY_KEY_REUSED' : 'IDEMPOTENCY_KEY_IN_USE' } });
            }
            try {
              const answer = { ok: true, id: store.add(a.kind, a.locale, a.fields).id };
              claim.finish({ status: 200, body: JSON.stringify(answer) });
              return answer;
            } catch (err) {
              claim.release();
              throw err;
            }
          },
        },
      };
    },
  };
}

export const forms: HubExtension = createFormsExtension();
