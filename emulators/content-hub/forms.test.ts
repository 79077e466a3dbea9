import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startContentHub } from './server.ts';
import { checkSubmission } from './forms.ts';

const dataDir = join(dirname(fileURLToPath(import.meta.url)), '../data/content');
const folders: string[] = [];
afterAll(() => { for (const f of folders) rmSync(f, { recursive: true, force: true }); });

const stop = (server: Server) => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });

async function gql<T>(url: string, query: string, variables: Record<string, unknown> = {}): Promise<{ data?: T; errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string> } }[] }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return res.json() as Promise<{ data?: T }>;
}

const SUBMIT = 'mutation($kind: String!, $locale: String!, $fields: [FormFieldInput!]!) { submitForm(kind: $kind, locale: $locale, fields: $fields) { ok id } }';
const LIST = 'query($kind: String) { formSubmissions(kind: $kind) { id kind locale createdAt fields { name value } } }';
const fieldsOf = (o: Record<string, string>) => Object.entries(o).map(([name, value]) => ({ name, value }));
const openSource = { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines', country: 'CH', product: 'Alpha 550', serialNumber: 'SN-1', message: 'Please send the GPL sources.' };

describe('forms store of the content hub', () => {
  it('keeps submissions across a restart on the same folder', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kmx-forms-'));
    folders.push(folder);
    const first = await startContentHub({ port: 0, dataDir, quiet: true, formsDataDir: folder });
    const sent = await gql<{ submitForm: { ok: boolean; id: string } }>(first.url, SUBMIT, { kind: 'openSource', locale: 'de-ch', fields: fieldsOf(openSource) });
    expect(sent.data?.submitForm.ok).toBe(true);
    await stop(first.server);

    const second = await startContentHub({ port: 0, dataDir, quiet: true, formsDataDir: folder });
    try {
      const listed = await gql<{ formSubmissions: { id: string; kind: string; locale: string; fields: { name: string; value: string }[] }[] }>(second.url, LIST, { kind: 'openSource' });
      expect(listed.data?.formSubmissions).toHaveLength(1);
      const stored = listed.data!.formSubmissions[0]!;
      expect(stored).toMatchObject({ id: sent.data!.submitForm.id, kind: 'openSource', locale: 'de-ch' });
      expect(Object.fromEntries(stored.fields.map((f) => [f.name, f.value]))).toEqual(openSource);
    } finally {
      await stop(second.server);
    }
  });

  it('answers invalid input with BAD_USER_INPUT per field and stores nothing', async () => {
    const hub = await startContentHub({ port: 0, dataDir, quiet: true });
    try {
      const res = await gql(hub.url, SUBMIT, { kind: 'openSource', locale: 'en', fields: fieldsOf({ ...openSource, email: 'nope', message: '  ' }) });
      expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      expect(Object.keys(res.errors?.[0]?.extensions?.fields ?? {}).sort()).toEqual(['email', 'message']);
      const listed = await gql<{ formSubmissions: unknown[] }>(hub.url, LIST, {});
      expect(listed.data?.formSubmissions).toEqual([]);
    } finally {
      await stop(hub.server);
    }
  });
});

describe('checkSubmission', () => {
  const service = {
    firstName: 'A', lastName: 'B', email: 'a@b.ch', company: 'C', address: 'Street 1', city: 'Dierikon', state: 'LU', zipCode: '6036', country: 'CH',
    requestedService: 'repair', subject: 'S', description: 'D', machineName: 'Alpha 550', serialNumber: '1',
  };
  it('accepts a complete service request and requires the case id only for an existing case', () => {
    expect(checkSubmission('serviceRequest', 'en', fieldsOf(service))).toEqual({});
    expect(checkSubmission('serviceRequest', 'en', fieldsOf({ ...service, existingCase: 'no' }))).toEqual({});
    expect(Object.keys(checkSubmission('serviceRequest', 'en', fieldsOf({ ...service, existingCase: 'yes' })))).toEqual(['caseId']);
  });
  it('requires the return address only when a separate one is asked for', () => {
    expect(Object.keys(checkSubmission('serviceRequest', 'en', fieldsOf({ ...service, separateReturnAddress: 'true' }))).sort())
      .toEqual(['returnAddress', 'returnCity', 'returnCountry', 'returnZipCode']);
  });
  it('requires the state only where the country has states, as the site does', () => {
    const { state: _state, ...stateless } = service;
    for (const country of ['CH', 'DE', 'AT']) expect(checkSubmission('serviceRequest', 'en', fieldsOf({ ...stateless, country })), country).toEqual({});
    expect(Object.keys(checkSubmission('serviceRequest', 'en', fieldsOf({ ...stateless, country: 'US' })))).toEqual(['state']);
    expect(checkSubmission('serviceRequest', 'en', fieldsOf({ ...stateless, country: 'US', state: 'TX' }))).toEqual({});
    const ret = { ...service, separateReturnAddress: 'true', returnAddress: '1 Main St', returnCity: 'Dallas', returnZipCode: '75201' };
    expect(checkSubmission('serviceRequest', 'en', fieldsOf({ ...ret, returnCountry: 'DE' }))).toEqual({});
    expect(Object.keys(checkSubmission('serviceRequest', 'en', fieldsOf({ ...ret, returnCountry: 'us' })))).toEqual(['returnState']);
    // A return country without a separate return address asks for nothing.
    expect(checkSubmission('serviceRequest', 'en', fieldsOf({ ...service, returnCountry: 'US' }))).toEqual({});
  });
  it('refuses unknown kinds and fields, and consent other than true', () => {
    expect(Object.keys(checkSubmission('nope', 'en', []))).toEqual(['kind']);
    expect(Object.keys(checkSubmission('contact', 'en', fieldsOf({ name: 'A', email: 'a@b.ch', company: 'C', country: 'CH', topic: 'x', message: 'm', consent: 'false', extra: '1' }))).sort()).toEqual(['consent', 'extra']);
  });
});
