// Attachments end to end: the GraphQL multipart convention streamed to disk, downloads for the ticket's
// organisation only, the 100 MB limit enforced while the file arrives (memory stays flat), images and
// videos only, and persistence across a restart on the same data folder.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlMultipart, startDemoIdentity, startDemoTicketing, type DemoIdentity, type DemoTicketing, type UploadPart } from '../testing.ts';
import { MAX_UPLOAD_BYTES } from './uploads.ts';

/** Parsed JSON of an answer (its shape is what the assertions check). */
type Json = ReturnType<typeof JSON.parse>;

let identity: DemoIdentity;
let ticketing: DemoTicketing;
let claire = '';
let adam = '';
let nora = '';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
const png = (size: number) => Buffer.concat([PNG_SIGNATURE, randomBytes(size - PNG_SIGNATURE.length)]);
const jpeg = (size: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46]), randomBytes(size - 10)]);
const mp4 = (size: number) => Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), randomBytes(size - 12)]);

beforeAll(async () => {
  identity = await startDemoIdentity();
  ticketing = await startDemoTicketing({ issuer: identity.issuer });
  const tokens = await Promise.all(['customer', 'admin', 'noroles'].map((u) => identity.signIn(`${u}@demo.komax.test`)));
  [claire, adam, nora] = tokens.map((t) => t.access_token) as [string, string, string];
}, 60_000);

afterAll(async () => {
  await ticketing?.close();
  await identity?.close();
});

const ADD = `mutation Add($ticketId: ID!, $file: Upload!) {
  addAttachment(ticketId: $ticketId, file: $file) {
    attachment { id fileName contentType size url uploadedBy }
    ticket { attachments { id } }
    errors { __typename message }
  }
}`;

async function upload(target: DemoTicketing, operations: { query: string; variables: Record<string, unknown> }, files: UploadPart[], bearer: string | null = claire) {
  const { body, contentType } = graphqlMultipart(operations, files);
  const res = await fetch(target.url, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(bearer ? { 'x-identity-token': bearer } : {}) },
    body,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, json: (await res.json()) as Json };
}

const addAttachment = (ticketId: string, file: Omit<UploadPart, 'path'>, bearer: string | null = claire, target = ticketing) =>
  upload(target, { query: ADD, variables: { ticketId, file: null } }, [{ ...file, path: 'variables.file' }], bearer);

const download = (url: string, bearer: string | null) => fetch(url, { headers: bearer ? { 'x-identity-token': bearer } : {} });

/** Every file under the data folder's attachments/ and staging/ (what an upload left on disk). */
const filesOnDisk = (t: DemoTicketing) => ['attachments', 'staging'].flatMap((d) => {
  const dir = join(t.dataDir, d);
  return existsSync(dir) ? readdirSync(dir).map((f) => `${d}/${f}`) : [];
});
const attachmentRows = (t: DemoTicketing) => (t.store.db.prepare('SELECT count(*) AS n FROM attachments').get() as { n: number }).n;

describe('attachments', () => {
  it('streams an image to disk and serves it back byte-identical, with type, length and file name', async () => {
    const bytes = png(5 * 1024 * 1024);
    const r = await addAttachment('SR-100002', { fileName: 'Schäden an der Klinge.png', contentType: 'image/png', chunks: [bytes.subarray(0, 100_000), bytes.subarray(100_000)] });
    expect(r.status).toBe(200);
    const { attachment, errors, ticket } = r.json.data.addAttachment;
    expect(errors).toEqual([]);
    expect(attachment).toMatchObject({ fileName: 'Schäden an der Klinge.png', contentType: 'image/png', size: bytes.length, uploadedBy: 'Claire Customer' });
    expect(ticket.attachments.map((a: { id: string }) => a.id)).toContain(attachment.id);
    // on disk under attachments/, nothing left in staging
    expect(statSync(join(ticketing.dataDir, 'attachments', attachment.id)).size).toBe(bytes.length);
    expect(filesOnDisk(ticketing).filter((f) => f.startsWith('staging/'))).toEqual([]);

    const res = await download(attachment.url, claire);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Sch_den an der Klinge.png"; filename*=UTF-8''Sch%C3%A4den%20an%20der%20Klinge.png`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('takes files with createTicket (images and videos), typed by their bytes', async () => {
    const input = { locationId: 'loc-dca-dierikon', type: 'REPAIR', machineId: 'mch-001', subject: 'With photos', description: 'See the files.', attachments: [null, null] };
    const r = await upload(ticketing, {
      query: 'mutation($input: CreateTicketInput!) { createTicket(input: $input) { ticket { id attachments { fileName contentType size } } errors { message } } }',
      variables: { input },
    }, [
      { path: 'variables.input.attachments.0', fileName: 'front.jpg', contentType: 'image/jpeg', chunks: [jpeg(20_000)] },
      // a video declared as a generic binary: its first bytes say what it is
      { path: 'variables.input.attachments.1', fileName: 'noise.mp4', contentType: 'application/octet-stream', chunks: [mp4(300_000)] },
    ]);
    expect(r.json.data.createTicket.errors).toEqual([]);
    const attachments = [...r.json.data.createTicket.ticket.attachments].sort((a, b) => a.fileName.localeCompare(b.fileName));
    expect(attachments).toEqual([
      { fileName: 'front.jpg', contentType: 'image/jpeg', size: 20_000 },
      { fileName: 'noise.mp4', contentType: 'video/mp4', size: 300_000 },
    ]);
  });

  it('lets only the ticket\'s organisation download an attachment (others get 404, no token 401)', async () => {
    const r = await addAttachment('SR-100001', { fileName: 'private.png', contentType: 'image/png', chunks: [png(2048)] });
    const { url } = r.json.data.addAttachment.attachment;
    expect((await download(url, claire)).status).toBe(200);
    for (const other of [adam, nora]) {
      const res = await download(url, other);
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain('private.png');
    }
    expect((await download(url, null)).status).toBe(401);
    expect((await download(`${ticketing.origin}/attachments/no-such-id`, claire)).status).toBe(404);
    // and another organisation cannot attach to the ticket
    const foreign = await addAttachment('SR-100001', { fileName: 'x.png', contentType: 'image/png', chunks: [png(2048)] }, adam);
    expect(foreign.json.data.addAttachment).toEqual({ attachment: null, ticket: null, errors: [{ __typename: 'NotFoundError', message: 'No ticket SR-100001' }] });
  });

  it('refuses a 101 MB upload while it arrives: 413, nothing stored, and memory does not grow by the file', async () => {
    const before = { files: filesOnDisk(ticketing), rows: attachmentRows(ticketing) };
    const chunk = Buffer.alloc(256 * 1024);
    const total = 101 * 1024 * 1024;
    let sent = 0;
    function* chunks(): Generator<Uint8Array> {
      yield png(64 * 1024);
      sent = 64 * 1024;
      while (sent < total) {
        sent += chunk.length;
        yield chunk;
      }
    }
    // Garbage of the stream (socket chunks) would count as growth until the collector runs: collect at
    // every sample, so the samples show what is actually held (a raw draining server stays near 13 MB).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (opts?: { type: 'major' | 'minor' }) => void;
    gc();
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => { gc({ type: 'minor' }); peak = Math.max(peak, process.memoryUsage().rss); }, 20);
    let r;
    try {
      r = await addAttachment('SR-100002', { fileName: 'huge.png', contentType: 'image/png', chunks: chunks() });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(r.status).toBe(413);
    expect(r.json).toEqual({ errors: [{ message: `"huge.png" is larger than 100 MB (104,857,600 bytes). Files of at most 100 MB can be attached.`, extensions: { code: 'FILE_TOO_LARGE' } }] });
    // The refusal came when the limit was passed; the rest was read and dropped, never kept.
    expect(filesOnDisk(ticketing)).toEqual(before.files);
    expect(attachmentRows(ticketing)).toBe(before.rows);
    // Client and emulator share this process: neither held the file (101 MB); 40 MB leaves room for buffers in flight.
    expect(peak - rssBefore).toBeLessThan(40 * 1024 * 1024);
  }, 60_000);

  it('accepts a file of exactly 100 MB', async () => {
    const chunk = Buffer.alloc(1024 * 1024);
    function* chunks(): Generator<Uint8Array> {
      yield Buffer.concat([PNG_SIGNATURE, Buffer.alloc(1024 * 1024 - PNG_SIGNATURE.length)]);
      for (let i = 1; i < MAX_UPLOAD_BYTES / chunk.length; i++) yield chunk;
    }
    const r = await addAttachment('SR-100005', { fileName: 'limit.png', contentType: 'image/png', chunks: chunks() });
    expect(r.json.data.addAttachment.attachment.size).toBe(MAX_UPLOAD_BYTES);
    rmSync(join(ticketing.dataDir, 'attachments', r.json.data.addAttachment.attachment.id));
  }, 60_000);

  it('refuses a text file (also one declared as an image) and SVG with 415, storing nothing', async () => {
    const before = { files: filesOnDisk(ticketing), rows: attachmentRows(ticketing) };
    for (const file of [
      { fileName: 'notes.txt', contentType: 'text/plain', chunks: [Buffer.from('The blade guard is cracked.\n'.repeat(100))] },
      { fileName: 'notes.png', contentType: 'image/png', chunks: [Buffer.from('The blade guard is cracked.\n'.repeat(100))] },
      { fileName: 'tiny.txt', contentType: 'text/plain', chunks: [Buffer.from('hi')] },
      { fileName: 'empty.png', contentType: 'image/png', chunks: [] },
      { fileName: 'logo.svg', contentType: 'image/svg+xml', chunks: [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')] },
      // real image bytes declared as another family
      { fileName: 'photo.png', contentType: 'video/mp4', chunks: [png(4096)] },
    ]) {
      const r = await addAttachment('SR-100002', file);
      expect(r.status, file.fileName).toBe(415);
      expect(r.json.errors[0]).toEqual({ message: `"${file.fileName}" is not an image or a video. Only images and videos can be attached.`, extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    }
    expect(filesOnDisk(ticketing)).toEqual(before.files);
    expect(attachmentRows(ticketing)).toBe(before.rows);
  });

  it('keeps nothing when the mutation refuses the file (closed ticket)', async () => {
    const before = { files: filesOnDisk(ticketing), rows: attachmentRows(ticketing) };
    const closed = ticketing.store.db.prepare(`SELECT id FROM tickets WHERE organisation_id = 'org-dca' AND status = 'CLOSED' LIMIT 1`).get() as { id: string };
    const r = await addAttachment(closed.id, { fileName: 'late.png', contentType: 'image/png', chunks: [png(4096)] });
    expect(r.json.data.addAttachment.errors).toEqual([{ __typename: 'TicketClosedError', message: `Ticket ${closed.id} is closed` }]);
    expect(filesOnDisk(ticketing)).toEqual(before.files);
    expect(attachmentRows(ticketing)).toBe(before.rows);
  });

  it('checks the token before reading an upload, and refuses callers without an organisation and malformed requests', async () => {
    const file = { fileName: 'a.png', contentType: 'image/png', chunks: [png(4096)] };
    const none = await addAttachment('SR-100002', file, null);
    expect(none.status).toBe(401);
    expect(none.json.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const noOrg = await addAttachment('SR-100002', file, nora);
    expect(noOrg.status).toBe(403);
    expect(noOrg.json.errors[0].extensions.code).toBe('FORBIDDEN');
    // a map pointing outside the variables, and one naming no null placeholder
    for (const path of ['query', 'variables.ticketId', 'variables.__proto__.x']) {
      const r = await upload(ticketing, { query: ADD, variables: { ticketId: 'SR-100002', file: null } }, [{ ...file, path }]);
      expect(r.status, path).toBe(400);
      expect(r.json.errors[0].extensions.code).toBe('BAD_REQUEST');
    }
    expect(filesOnDisk(ticketing).filter((f) => f.startsWith('staging/'))).toEqual([]);
  });
});

describe('persistence', () => {
  it('keeps created tickets, comments, closings and attachments across a restart on the same data folder', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kmx-ticketing-persist-'));
    try {
      const first = await startDemoTicketing({ issuer: identity.issuer, dataDir });
      const gql = async (t: DemoTicketing, query: string, variables: Record<string, unknown> = {}) => {
        const res = await fetch(t.url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-identity-token': claire }, body: JSON.stringify({ query, variables }) });
        return ((await res.json()) as { data: Json }).data;
      };
      const created = await gql(first, 'mutation { createTicket(input: { locationId: "loc-dca-lyon", type: SOFTWARE, machineId: "mch-003", subject: "Persist me", description: "Across restarts." }) { ticket { id } } }');
      const id = created.createTicket.ticket.id as string;
      await gql(first, `mutation { addComment(input: { ticketId: "${id}", body: "Still here?" }) { comment { id } } }`);
      const bytes = png(10_000);
      const att = await addAttachment(id, { fileName: 'kept.png', contentType: 'image/png', chunks: [bytes] }, claire, first);
      const attId = att.json.data.addAttachment.attachment.id as string;
      const other = seedTicketClosedLater(first);
      await gql(first, `mutation { closeTicket(input: { ticketId: "${other}", reason: RESOLVED_WITHOUT_KOMAX, comment: "Done" }) { ticket { id } } }`);
      await first.close();

      const second = await startDemoTicketing({ issuer: identity.issuer, dataDir });
      try {
        const t = (await gql(second, `{ ticket(id: "${id}") { subject comments { body } attachments { id url } } }`)).ticket;
        expect(t).toMatchObject({ subject: 'Persist me', comments: [{ body: 'Still here?' }], attachments: [{ id: attId }] });
        const res = await download(t.attachments[0].url, claire);
        expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
        expect((await gql(second, `{ ticket(id: "${other}") { status closingReason closingComment } }`)).ticket).toEqual({ status: 'CLOSED', closingReason: 'RESOLVED_WITHOUT_KOMAX', closingComment: 'Done' });
        // not seeded a second time
        expect((await gql(second, '{ tickets { totalCount } }')).tickets.totalCount).toBe(24 + 1);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** An open seed ticket of the customer's organisation. */
function seedTicketClosedLater(t: DemoTicketing): string {
  return (t.store.db.prepare(`SELECT id FROM tickets WHERE organisation_id = 'org-dca' AND status = 'NEW' ORDER BY number LIMIT 1`).get() as { id: string }).id;
}

describe('demo data', () => {
  it('has at least 40 tickets across every status and type, 3 organisations, 30 machines and 4 wire-flow packages', () => {
    const read = (f: string) => JSON.parse(readFileSync(join(import.meta.dirname, '../data/ticketing', f), 'utf8'));
    const { tickets } = read('tickets.json') as { tickets: { status: string; type: string; machineId: string; replies: unknown[]; comments: unknown[] }[] };
    expect(tickets.length).toBeGreaterThanOrEqual(40);
    expect(new Set(tickets.map((t) => t.status))).toEqual(new Set(['NEW', 'IN_PROGRESS', 'WAITING_FOR_CUSTOMER', 'CLOSED']));
    expect(new Set(tickets.map((t) => t.type)).size).toBe(6);
    expect(tickets.some((t) => t.replies.length) && tickets.some((t) => t.comments.length)).toBe(true);
    expect(read('organisations.json').organisations).toHaveLength(3);
    expect(read('machines.json').machines).toHaveLength(30);
    expect(read('wire-flow.json').packages.length).toBeGreaterThanOrEqual(4);
  });
});
