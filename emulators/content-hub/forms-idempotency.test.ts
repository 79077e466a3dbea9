import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startContentHub } from './server.ts';

// The hub's forms endpoint and the Idempotency-Key: one submission per key, the first answer to a
// repeat (also after a restart), 422 for the key with another submission.

const dataDir = join(dirname(fileURLToPath(import.meta.url)), '../data/content');
const folder = mkdtempSync(join(tmpdir(), 'kmx-forms-idem-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const stop = (server: Server) => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });

const SUBMIT = 'mutation($kind: String!, $locale: String!, $fields: [FormFieldInput!]!) { submitForm(kind: $kind, locale: $locale, fields: $fields) { ok id } }';
const LIST = 'query { formSubmissions(kind: "contact", first: 500) { id fields { name value } } }';
const contact = (message: string) => Object.entries({ name: 'Ada', email: 'ada@example.com', company: 'AE', country: 'CH', topic: 'products', message, consent: 'true' }).map(([name, value]) => ({ name, value }));

async function gql(url: string, query: string, variables: Record<string, unknown>, key?: string) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) }, body: JSON.stringify({ query, variables }) });
  return res.json() as Promise<{ data?: { submitForm?: { ok: boolean; id: string }; formSubmissions?: { id: string; fields: { name: string; value: string }[] }[] }; errors?: { message: string; extensions?: { code?: string } }[] }>;
}
const count = async (url: string, message: string) => ((await gql(url, LIST, {})).data?.formSubmissions ?? []).filter((s) => s.fields.some((f) => f.name === 'message' && f.value === message)).length;

describe('submitForm with an Idempotency-Key', () => {
  it('stores a submission sent twice once, answers the repeat with the first id, also after a restart', async () => {
    const first = await startContentHub({ port: 0, dataDir, quiet: true, formsDataDir: folder });
    const key = '"c0ffee00-1111-4a1b-9c0d-0123456789ab"';
    const a = await gql(first.url, SUBMIT, { kind: 'contact', locale: 'en', fields: contact('twice') }, key);
    const b = await gql(first.url, SUBMIT, { kind: 'contact', locale: 'en', fields: contact('twice') }, key);
    expect(b.data?.submitForm).toEqual(a.data?.submitForm);
    expect(await count(first.url, 'twice')).toBe(1);
    await stop(first.server);
    const second = await startContentHub({ port: 0, dataDir, quiet: true, formsDataDir: folder });
    try {
      const c = await gql(second.url, SUBMIT, { kind: 'contact', locale: 'en', fields: contact('twice') }, key);
      expect(c.data?.submitForm).toEqual(a.data?.submitForm);
      expect(await count(second.url, 'twice')).toBe(1);
      // without a key each post is its own submission
      await gql(second.url, SUBMIT, { kind: 'contact', locale: 'en', fields: contact('no key') });
      await gql(second.url, SUBMIT, { kind: 'contact', locale: 'en', fields: contact('no key') });
      expect(await count(second.url, 'no key')).toBe(2);
    } finally {
      await stop(second.server);
    }
  });

  it('refuses the key for another submission (IDEMPOTENCY_KEY_REUSED) and a malformed key', async () => {
    const hub = await startContentHub({ port: 0, dataDir, quiet: true });
    try {
      const key = '"c0ffee00-2222-4a1b-9c0d-0123456789ab"';
      await gql(hub.url, SUBMIT, { kind: 'contact', locale: 'en', fields: contact('one') }, key);
      const other = await gql(hub.url, SUBMIT, { kind: 'contact', locale: 'en', fields: contact('another') }, key);
      expect(other.errors?.[0]).toMatchObject({ message: 'This Idempotency-Key was already used for a different request.', extensions: { code: 'IDEMPOTENCY_KEY_REUSED' } });
      expect(await count(hub.url, 'another')).toBe(0);
      const malformed = await gql(hub.url, SUBMIT, { kind: 'contact', locale: 'en', fields: contact('bad key') }, '"?"');
      expect(malformed.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    } finally {
      await stop(hub.server);
    }
  });
});
