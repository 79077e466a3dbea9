// Idempotency keys at the ticketing emulator: a create sent twice with the same key (a retry after
// the app gave up waiting) makes one ticket, comment or attachment, and the repeat gets the first
// answer, also after a restart; the same key for another request is 422, a malformed one 400.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlMultipart, startDemoIdentity, startDemoTicketing, type DemoIdentity, type DemoTicketing } from '../testing.ts';

type Json = ReturnType<typeof JSON.parse>;

let identity: DemoIdentity;
let ticketing: DemoTicketing;
let claire = '';
let adam = '';
let dataDir = '';

beforeAll(async () => {
  identity = await startDemoIdentity();
  dataDir = mkdtempSync(join(tmpdir(), 'kmx-ticketing-idem-'));
  ticketing = await startDemoTicketing({ issuer: identity.issuer, dataDir });
  [claire, adam] = (await Promise.all(['customer', 'admin'].map((u) => identity.signIn(`${u}@demo.komax.test`)))).map((t) => t.access_token) as [string, string];
}, 60_000);

afterAll(async () => {
  await ticketing?.close();
  await identity?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const CREATE = 'mutation Create($input: CreateTicketInput!) { createTicket(input: $input) { ticket { id subject } errors { message } } }';
const COMMENT = 'mutation Comment($input: AddCommentInput!) { addComment(input: $input) { ticket { id comments { body } } errors { message } } }';
const input = { locationId: 'loc-dca-brno', type: 'REPAIR', machineId: 'mch-002', subject: 'Sent twice', description: 'The first answer never arrived.' };

async function gql(target: DemoTicketing, query: string, variables: Record<string, unknown>, key?: string, bearer = claire) {
  const res = await fetch(target.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-identity-token': bearer, ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), json: (await res.json()) as Json };
}
const count = (t: DemoTicketing, sql: string) => (t.store.db.prepare(sql).get() as { n: number }).n;
const ticketsNamed = (t: DemoTicketing, subject: string) => count(t, `SELECT count(*) AS n FROM tickets WHERE subject = '${subject}'`);

describe('idempotency keys', () => {
  it('creates one ticket for a key sent twice, and answers the repeat with the first answer', async () => {
    const key = '"0b6f2c1e-1111-4a1b-9c0d-0123456789ab"';
    const first = await gql(ticketing, CREATE, { input }, key);
    const again = await gql(ticketing, CREATE, { input }, key);
    expect(first.json.data.createTicket.errors).toEqual([]);
    expect(again.json).toEqual(first.json);
    expect([first.replayed, again.replayed]).toEqual([null, 'true']);
    expect(ticketsNamed(ticketing, 'Sent twice')).toBe(1);
    // without a key every request is a new one (the header is optional at the service)
    await gql(ticketing, CREATE, { input: { ...input, subject: 'No key' } });
    await gql(ticketing, CREATE, { input: { ...input, subject: 'No key' } });
    expect(ticketsNamed(ticketing, 'No key')).toBe(2);
  });

  it('answers 422 for the key with another request, 400 for a malformed key; keys are per caller', async () => {
    const key = '"0b6f2c1e-2222-4a1b-9c0d-0123456789ab"';
    await gql(ticketing, CREATE, { input: { ...input, subject: 'Mine' } }, key);
    const other = await gql(ticketing, CREATE, { input: { ...input, subject: 'Something else' } }, key);
    expect(other.status).toBe(422);
    expect(other.json.errors[0]).toEqual({ message: 'This Idempotency-Key was already used for a different request.', extensions: { code: 'IDEMPOTENCY_KEY_REUSED' } });
    expect(ticketsNamed(ticketing, 'Something else')).toBe(0);
    const malformed = await gql(ticketing, CREATE, { input }, '"short"');
    expect(malformed.status).toBe(400);
    // another user's request with the same key is theirs alone (they never see Claire's answer)
    const adams = await gql(ticketing, CREATE, { input: { locationId: 'loc-hdi-auburn', type: 'REPAIR', machineId: 'mch-020', subject: 'Mine', description: 'Other org.' } }, key, adam);
    expect(adams.status).toBe(200);
    expect(adams.replayed).toBeNull();
  });

  it('does not keep an answer that created nothing because of an error: the retry runs again', async () => {
    const key = '"0b6f2c1e-3333-4a1b-9c0d-0123456789ab"';
    const broken = await gql(ticketing, CREATE, { input: { ...input, type: 'NOT_A_TYPE' } }, key);
    expect(broken.json.errors?.length).toBeGreaterThan(0);
    const fixedSame = await gql(ticketing, CREATE, { input: { ...input, type: 'NOT_A_TYPE' } }, key);
    expect(fixedSame.replayed).toBeNull();
  });

  it('adds one comment for a key sent twice', async () => {
    const key = '"0b6f2c1e-4444-4a1b-9c0d-0123456789ab"';
    const body = `Only once ${Date.now()}`;
    const vars = { input: { ticketId: 'SR-100002', body } };
    const first = await gql(ticketing, COMMENT, vars, key);
    const again = await gql(ticketing, COMMENT, vars, key);
    expect(again.json).toEqual(first.json);
    expect(count(ticketing, `SELECT count(*) AS n FROM messages WHERE body = '${body}'`)).toBe(1);
  });

  it('adds one attachment for a multipart upload sent twice with the same key', async () => {
    const key = '"0b6f2c1e-5555-4a1b-9c0d-0123456789ab"';
    const bytes = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]), randomBytes(20_000)]);
    const send = async () => {
      const { body, contentType } = graphqlMultipart(
        { query: 'mutation Add($ticketId: ID!, $file: Upload!) { addAttachment(ticketId: $ticketId, file: $file) { attachment { id } errors { message } } }', variables: { ticketId: 'SR-100002', file: null } },
        [{ path: 'variables.file', fileName: 'once.png', contentType: 'image/png', chunks: [bytes] }],
      );
      const res = await fetch(ticketing.url, { method: 'POST', headers: { 'content-type': contentType, 'x-identity-token': claire, 'idempotency-key': key }, body, duplex: 'half' } as RequestInit);
      return { replayed: res.headers.get('idempotent-replayed'), json: (await res.json()) as Json };
    };
    const first = await send();
    const again = await send();
    expect(first.json.data.addAttachment.errors).toEqual([]);
    expect(again.json).toEqual(first.json);
    expect(again.replayed).toBe('true');
    expect(count(ticketing, `SELECT count(*) AS n FROM attachments WHERE file_name = 'once.png'`)).toBe(1);
  });

  it('keeps the first answer across a restart on the same data folder', async () => {
    const key = '"0b6f2c1e-6666-4a1b-9c0d-0123456789ab"';
    const vars = { input: { ...input, subject: 'Before the restart' } };
    const first = await gql(ticketing, CREATE, vars, key);
    await ticketing.close();
    ticketing = await startDemoTicketing({ issuer: identity.issuer, dataDir });
    const again = await gql(ticketing, CREATE, vars, key);
    expect(again.json).toEqual(first.json);
    expect(ticketsNamed(ticketing, 'Before the restart')).toBe(1);
  });
});
