import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIContext, APIRoute } from 'astro';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphqlMultipart, startDemoIdentity, startDemoTicketing, type DemoIdentity, type DemoTicketing } from '../../../emulators/testing.ts';
import { ADD_ATTACHMENT_MUTATION, TICKET_QUERY, TICKETS_QUERY, WIRE_FLOW_QUERY } from '../../lib/ticketing/documents.ts';
import { MAX_ANSWER_BYTES, MAX_PROXY_BODY_BYTES } from '../../lib/ticketing/limits.ts';
import { MAX_ALIASES, MAX_DEPTH } from '../../lib/ticketing/operations.ts';
import { LINK_TTL_SECONDS, sealLink } from '../../lib/ticketing/links.server.ts';
import type { TicketingConfig } from '../../lib/ticketing/types.ts';
import { MULTIPART_UPLOADS } from '../../lib/http/upload-guard.ts';
import { ANSWER_TOO_LARGE_MESSAGE, DOWNLOAD_PATH, getDownload, postGraphQL, statusForAnswer, TOO_LARGE_MESSAGE, UNAVAILABLE_MESSAGE } from './proxy.server.ts';

// The tickets proxy against the real identity emulator (bearer verification) and either the real
// ticketing emulator or a recording stand-in (limits, streaming, headers, failures).

let identity: DemoIdentity;
let ticketing: DemoTicketing;
const tokens: Record<'claire' | 'adam' | 'otto', string> = { claire: '', adam: '', otto: '' };
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2048, 7)]);
const SECRET = 'proxy-test-secret-0123456789abcdefghij';

/**
 * A recording stand-in for the ticketing service: records requests (headers, bytes, the body's
 * text up to 64 KiB) and answers JSON, hangs, or streams a huge answer (`huge`: chunked, `huge-declared`:
 * with its Content-Length) counting what it could send before the proxy let go.
 */
interface FakeRequest { headers: IncomingMessage['headers']; bytes: number; complete: boolean; text: string }
interface FakeUpstream {
  url: string;
  requests: FakeRequest[];
  mode: 'answer' | 'hang' | 'huge' | 'huge-declared';
  answer: { sent: number; finished: boolean; closed: boolean };
  close(): Promise<void>;
}
let fake: FakeUpstream;
const HUGE_ANSWER_BYTES = 64 * 1024 * 1024;

/** Writes a valid JSON answer of `total` bytes with back-pressure, counting what the socket took. */
function streamHuge(res: import('node:http').ServerResponse, total: number, state: FakeUpstream['answer'], declared: boolean) {
  const head = Buffer.from('{"data":{"tickets":{"totalCount":1,"pad":"');
  const tail = Buffer.from('"}}}');
  const chunk = Buffer.alloc(64 * 1024, 0x78);
  res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(total) } : {}) });
  res.on('close', () => { state.closed = true; });
  res.write(head);
  state.sent = head.length;
  const pump = () => {
    while (state.sent + tail.length < total) {
      if (state.closed) return;
      const part = chunk.subarray(0, Math.min(chunk.length, total - tail.length - state.sent));
      state.sent += part.length;
      if (!res.write(part)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end(tail);
    state.sent += tail.length;
    state.finished = true;
  };
  pump();
}

async function startFake(): Promise<FakeUpstream> {
  const state: FakeUpstream = { url: '', requests: [], mode: 'answer', answer: { sent: 0, finished: false, closed: false }, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const record: FakeRequest = { headers: req.headers, bytes: 0, complete: false, text: '' };
    state.requests.push(record);
    req.on('data', (chunk: Buffer) => {
      record.bytes += chunk.length;
      if (record.text.length < 65_536) record.text += chunk.toString('utf8');
    });
    req.on('end', () => {
      record.complete = true;
      if (state.mode === 'hang') return;
      if (state.mode === 'huge' || state.mode === 'huge-declared') return streamHuge(res, HUGE_ANSWER_BYTES, state.answer, state.mode === 'huge-declared');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { ok: true, file: `${state.url.replace('/graphql', '')}/attachments/att-9` } }));
    });
    req.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  state.close = () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); });
  return state;
}

beforeAll(async () => {
  identity = await startDemoIdentity();
  ticketing = await startDemoTicketing({ issuer: identity.issuer });
  fake = await startFake();
  const [c, a, o] = await Promise.all(['customer@demo.komax.test', 'admin@demo.komax.test', 'onprem@demo.komax.test'].map((u) => identity.signIn(u)));
  tokens.claire = c!.access_token;
  tokens.adam = a!.access_token;
  tokens.otto = o!.access_token;
});
afterAll(async () => {
  await Promise.all([fake?.close(), ticketing?.close()]);
  await identity?.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.mode = 'answer';
  fake.answer = { sent: 0, finished: false, closed: false };
});

const config = (endpoint: string, t = { connectTimeoutMs: 1000, timeoutMs: 3000 }, debugLevel: TicketingConfig['debugLevel'] = 'none'): TicketingConfig => ({ endpoint, debugLevel, linkSecret: SECRET, timeouts: t });

function context(request: Request, ticketingConfig: TicketingConfig, params: Record<string, string> = {}): APIContext {
  const services = {
    identity: { issuer: identity.issuer, audience: 'kmx-web', clientId: 'kmx-web', introspection: { ...identity.introspection, cacheTtlMs: 15_000 }, managementUrl: '', timeouts: { connectTimeoutMs: 1000, timeoutMs: 3000 } },
    ticketing: ticketingConfig,
  };
  return { request, params, locals: { api: { services } }, url: new URL(request.url) } as unknown as APIContext;
}

async function call(handler: APIRoute, request: Request, cfg: TicketingConfig, params?: Record<string, string>) {
  const res = await handler(context(request, cfg, params));
  return res;
}

const gqlRequest = (query: string, variables: Record<string, unknown>, token?: string, extra: Record<string, unknown> = {}) => new Request('http://localhost/api/ticketing/graphql', {
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify({ query, variables, ...extra }),
});

/** A body of `total` bytes made on demand (one chunk reused), counting how much was pulled. */
function generated(total: number, chunkSize = 64 * 1024) {
  const chunk = new Uint8Array(chunkSize).fill(42);
  const state = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) return controller.close();
      const n = Math.min(chunkSize, total - state.pulled);
      state.pulled += n;
      controller.enqueue(n === chunkSize ? chunk : chunk.subarray(0, n));
    },
  }, { highWaterMark: 0 });
  return { stream, state };
}

const multipartRequest = (token: string, body: ReadableStream<Uint8Array>, extra: Record<string, string> = {}, contentType = 'multipart/form-data; boundary=xyz') => new Request('http://localhost/api/ticketing/graphql', {
  method: 'POST',
  headers: { 'content-type': contentType, authorization: `Bearer ${token}`, ...extra },
  body,
  duplex: 'half',
} as RequestInit);

/** The app's own upload (AddAttachment, as attachmentForm sends it) of a file of `total` bytes made on demand. */
function generatedUpload(total: number, operations: { query: string; variables?: Record<string, unknown>; operationName?: string } = { operationName: 'AddAttachment', query: ADD_ATTACHMENT_MUTATION, variables: { ticketId: 'SR-100001', file: null } }) {
  const { stream, state } = generated(total);
  const reader = stream.getReader();
  async function* chunks() {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  }
  const { body, contentType } = graphqlMultipart(operations, [{ path: 'variables.file', fileName: 'big.png', contentType: 'image/png', chunks: chunks() }]);
  return { body, contentType, state };
}

describe('POST /api/ticketing/graphql', () => {
  it('answers 401 without a bearer token, or with a forged one, and calls nobody', async () => {
    const none = await call(postGraphQL, gqlRequest(WIRE_FLOW_QUERY, {}), config(fake.url));
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    const forged = await call(postGraphQL, gqlRequest(WIRE_FLOW_QUERY, {}, `${tokens.claire.slice(0, -4)}AAAA`), config(fake.url));
    expect(forged.status).toBe(401);
    expect(fake.requests).toHaveLength(0);
  });

  it('adds the verified identity token and the debug level, and forwards the app\'s own operation with the variables', async () => {
    const res = await call(postGraphQL, gqlRequest(TICKETS_QUERY, { first: 5 }, tokens.claire), config(fake.url, undefined, 'info'));
    expect(res.status).toBe(200);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.headers['x-identity-token']).toBe(tokens.claire);
    expect(fake.requests[0]!.headers['x-debug-level']).toBe('info');
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
    const forwarded = JSON.stringify({ operationName: 'Tickets', query: TICKETS_QUERY, variables: { first: 5 } });
    expect(fake.requests[0]!.text).toBe(forwarded);
    expect(fake.requests[0]!.bytes).toBe(Buffer.byteLength(forwarded));
  });

  it('refuses a body whose Content-Length passes 100 MB with 413 before reading any of it', async () => {
    const { stream, state } = generated(MAX_PROXY_BODY_BYTES + 1);
    const req = multipartRequest(tokens.claire, stream, { 'content-length': String(MAX_PROXY_BODY_BYTES + 1) });
    expect(req.headers.get('content-length')).toBe(String(MAX_PROXY_BODY_BYTES + 1));
    const res = await call(postGraphQL, req, config(fake.url));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: expect.any(String), message: TOO_LARGE_MESSAGE, limit: 104_857_600 });
    expect(state.pulled).toBe(0);
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses a JSON body over 1 MB by its length', async () => {
    const req = new Request('http://localhost/api/ticketing/graphql', {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.claire}`, 'content-length': String(2 * 1024 * 1024) }, body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect((await call(postGraphQL, req, config(fake.url))).status).toBe(413);
    expect(fake.requests).toHaveLength(0);
  });

  it('aborts a chunked body with 413 as soon as it passes the limit; the upstream never gets it whole', async () => {
    const { body, contentType, state } = generatedUpload(MAX_PROXY_BODY_BYTES + 20 * 1024 * 1024);
    const res = await call(postGraphQL, multipartRequest(tokens.claire, body, {}, contentType), config(fake.url));
    expect(res.status).toBe(413);
    expect((await res.json() as { error: string; message: string }).message).toBe(TOO_LARGE_MESSAGE);
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.requests[0]?.complete).toBe(false);
    expect(fake.requests[0]!.bytes).toBeLessThanOrEqual(MAX_PROXY_BODY_BYTES);
    expect(state.pulled).toBeGreaterThan(MAX_PROXY_BODY_BYTES);
  }, 60_000);

  it('streams a large upload through: memory does not grow by the body size', async () => {
    const total = 100 * 1024 * 1024;
    const { body, contentType } = generatedUpload(total);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
    const res = await call(postGraphQL, multipartRequest(tokens.claire, body, {}, contentType), config(fake.url));
    clearInterval(sampler);
    expect(res.status).toBe(200);
    expect(fake.requests[0]!.bytes).toBeGreaterThan(total);
    expect(fake.requests[0]!.bytes).toBeLessThan(total + 2048);
    expect(fake.requests[0]!.text).toContain(JSON.stringify({ operationName: 'AddAttachment', query: ADD_ATTACHMENT_MUTATION, variables: { ticketId: 'SR-100001', file: null } }));
    // Buffered, the body would be held whole at least once (≥ 100 MB more); streamed, what is in
    // flight plus garbage not collected yet: 20–50 MB, the most on a busy machine, where the
    // process's other test threads also count in its RSS.
    expect(peak - before).toBeLessThan(total * 0.75);
  }, 60_000);

  it('declares the upload guard for multipart bodies: a cap per client and a minimum rate (upload-guard.ts)', () => {
    expect(postGraphQL.limits.upload).toBe(MULTIPART_UPLOADS);
  });

  it('refuses other content types with 415', async () => {
    const req = new Request('http://localhost/api/ticketing/graphql', { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${tokens.claire}` }, body: '{}' });
    expect((await call(postGraphQL, req, config(fake.url))).status).toBe(415);
  });

  it('answers 503 with a clear message when the service is down, and 504 when it does not answer in time', async () => {
    const down = await call(postGraphQL, gqlRequest(WIRE_FLOW_QUERY, {}, tokens.claire), config('http://127.0.0.1:9/graphql'));
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: expect.any(String), message: UNAVAILABLE_MESSAGE });
    fake.mode = 'hang';
    const slow = await call(postGraphQL, gqlRequest(WIRE_FLOW_QUERY, {}, tokens.claire), config(fake.url, { connectTimeoutMs: 500, timeoutMs: 300 }));
    expect(slow.status).toBe(504);
  });

  it('rewrites the service\'s file addresses to same-origin download links', async () => {
    const res = await call(postGraphQL, gqlRequest(WIRE_FLOW_QUERY, {}, tokens.claire), config(fake.url));
    const body = await res.json() as { data: { file: string } };
    expect(body.data.file.startsWith(DOWNLOAD_PATH)).toBe(true);
    expect(JSON.stringify(body)).not.toContain('127.0.0.1');
  });
});

describe('POST /api/ticketing/graphql: only the app\'s own operations pass (issue 28)', () => {
  const refusal = async (res: Response) => { const body = await res.json() as { error: string; message: string }; return { status: res.status, error: body.error, message: body.message }; };
  const send = (query: string, extra: Record<string, unknown> = {}) => call(postGraphQL, gqlRequest(query, {}, tokens.claire, extra), config(fake.url));

  it('refuses an unknown or anonymous operation with 400 naming the allowed ones, and calls nobody', async () => {
    for (const query of ['{ viewer { id } }', 'query Viewer { viewer { id } }', 'query { tickets { totalCount } }']) {
      const res = await refusal(await send(query));
      expect(res.status, query).toBe(400);
      expect(res.message, query).toMatch(/^Only the app's own ticketing operations pass the tickets proxy: Tickets, Ticket, .*AddAttachment\.$/);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses introspection', async () => {
    for (const query of ['{ __schema { types { name fields { name } } } }', 'query Tickets { __type(name: "Ticket") { name fields { name } } }', 'query X { tickets { nodes { id } } a: __schema { queryType { name } } }']) {
      expect(await refusal(await send(query)), query).toEqual({ status: 400, error: expect.any(String), message: 'Introspection (__schema, __type) is not available through the tickets proxy.' });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses aliases beyond the limit and nesting beyond the depth limit, fragments counted where they are spread', async () => {
    const aliased = `query Tickets { ${Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `a${i}: tickets(first: 100) { totalCount }`).join(' ')} }`;
    expect(await refusal(await send(aliased))).toEqual({ status: 400, error: expect.any(String), message: `The query uses more than ${MAX_ALIASES} aliases.` });
    // Aliases hidden in a fragment spread twice count twice.
    const spread = `query Tickets { tickets { ...A } machines { nodes { id } } } fragment A on TicketConnection { ${Array.from({ length: MAX_ALIASES }, (_, i) => `n${i}: totalCount`).join(' ')} }`;
    expect((await refusal(await send(spread.replace('machines { nodes { id } }', 'again: tickets { ...A }')))).message).toBe(`The query uses more than ${MAX_ALIASES} aliases.`);
    const nested = `query Machines { machines { nodes { openTickets { ${'machine { openTickets { '.repeat(3)}id${' } }'.repeat(3)} } } } }`;
    expect((await refusal(await send(nested))).message).toMatch(new RegExp(`^The query nests fields \\d+ levels deep: at most ${MAX_DEPTH}\\.$`));
    const deepFragments = `query WireFlow { wireFlow { ...F1 } } ${Array.from({ length: MAX_DEPTH }, (_, i) => `fragment F${i + 1} on X { a { ...F${i + 2} } }`).join(' ')} fragment F${MAX_DEPTH + 1} on X { id }`;
    expect((await refusal(await send(deepFragments))).message).toMatch(/^The query nests fields/);
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses the app\'s operation name with another document, a wrong operationName, several operations, extra fields and bad JSON', async () => {
    expect(await refusal(await send(TICKETS_QUERY.replace('totalCount', 'totalCount description')))).toEqual({ status: 400, error: expect.any(String), message: 'The document of Tickets differs from the app\'s own; send it unchanged.' });
    expect((await refusal(await send(TICKETS_QUERY, { operationName: 'Ticket' }))).message).toBe('operationName "Ticket" does not match the document\'s operation "Tickets".');
    expect((await refusal(await send(`${WIRE_FLOW_QUERY}\nquery Other { viewer { id } }`))).message).toMatch(/^Send exactly one operation per request/);
    expect(await refusal(await send(WIRE_FLOW_QUERY, { extensions: { persistedQuery: {} } }))).toEqual({ status: 400, error: expect.any(String), message: 'Unknown field: extensions' });
    const broken = new Request('http://localhost/api/ticketing/graphql', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.claire}` }, body: '{"query":' });
    expect(await refusal(await call(postGraphQL, broken, config(fake.url)))).toEqual({ status: 400, error: expect.any(String), message: 'The body is not valid JSON.' });
    expect(fake.requests).toHaveLength(0);
  });

  it('takes the app\'s document re-indented, and forwards the app\'s own text', async () => {
    const reformatted = WIRE_FLOW_QUERY.replace(/\s+/g, '  ').replace('wireFlow {', 'wireFlow { # the package list\n');
    const res = await send(reformatted, { operationName: 'WireFlow' });
    expect(res.status).toBe(200);
    expect(JSON.parse(fake.requests[0]!.text)).toEqual({ operationName: 'WireFlow', query: WIRE_FLOW_QUERY, variables: {} });
  });

  it('refuses a multipart request whose operations are not the app\'s before any of it reaches the service', async () => {
    const { body, contentType } = generatedUpload(1024 * 1024, { query: 'mutation { deleteEverything }', variables: {} });
    const res = await call(postGraphQL, multipartRequest(tokens.claire, body, {}, contentType), config(fake.url));
    expect(await refusal(res)).toMatchObject({ status: 400, error: expect.any(String), message: expect.stringMatching(/^Only the app's own ticketing operations/) });
    // A multipart body that does not start with its operations field.
    const form = `--xyz\r\nContent-Disposition: form-data; name="map"\r\n\r\n{}\r\n--xyz\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${JSON.stringify({ query: ADD_ATTACHMENT_MUTATION })}\r\n--xyz--\r\n`;
    const res2 = await call(postGraphQL, multipartRequest(tokens.claire, new Response(form).body!), config(fake.url));
    expect((await refusal(res2)).message).toMatch(/starts with its operations field/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('POST /api/ticketing/graphql: the service\'s answer is capped (issue 28)', () => {
  for (const mode of ['huge', 'huge-declared'] as const) {
    it(`answers 502 with a clear message when the answer passes ${MAX_ANSWER_BYTES} bytes (${mode === 'huge' ? 'chunked' : 'declared'}), without reading it whole`, async () => {
      fake.mode = mode;
      const res = await call(postGraphQL, gqlRequest(TICKETS_QUERY, { first: 20 }, tokens.claire), config(fake.url, { connectTimeoutMs: 1000, timeoutMs: 20_000 }));
      expect(res.status).toBe(502);
      expect(await res.json()).toEqual({ error: expect.any(String), message: ANSWER_TOO_LARGE_MESSAGE });
      expect(ANSWER_TOO_LARGE_MESSAGE).toBe('The ticketing service\'s answer was too large (over 4,194,304 bytes) and was not passed on.');
      // The proxy let go of the connection: the service could not send the rest.
      await expect.poll(() => fake.answer.closed).toBe(true);
      expect(fake.answer.finished).toBe(false);
      expect(fake.answer.sent).toBeLessThan(HUGE_ANSWER_BYTES / 2);
      if (mode === 'huge-declared') expect(fake.answer.sent).toBeLessThan(MAX_ANSWER_BYTES);
    }, 30_000);
  }
});

describe('the proxy in front of the ticketing emulator', () => {
  const ticketingConfig = () => config(ticketing.url);

  it('answers 404 for another organisation\'s ticket, without its data', async () => {
    const res = await call(postGraphQL, gqlRequest(TICKET_QUERY, { id: 'SR-100001' }, tokens.adam), ticketingConfig());
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).toContain('NOT_FOUND');
    const own = await call(postGraphQL, gqlRequest(TICKET_QUERY, { id: 'SR-100001' }, tokens.claire), ticketingConfig());
    expect(own.status).toBe(200);
  });

  it('uploads an attachment (multipart, streamed), hands out a download link, and only the owner\'s token opens the file', async () => {
    const { body, contentType } = graphqlMultipart(
      { operationName: 'AddAttachment', query: ADD_ATTACHMENT_MUTATION, variables: { ticketId: 'SR-100001', file: null } },
      [{ path: 'variables.file', fileName: 'photo.png', contentType: 'image/png', chunks: [PNG] }],
    );
    const req = new Request('http://localhost/api/ticketing/graphql', { method: 'POST', headers: { 'content-type': contentType, authorization: `Bearer ${tokens.claire}` }, body, duplex: 'half' } as RequestInit);
    const res = await call(postGraphQL, req, ticketingConfig());
    expect(res.status).toBe(200);
    const answer = await res.json() as { data: { addAttachment: { attachment: { id: string; url: string; size: number } } } };
    const { attachment } = answer.data.addAttachment;
    expect(attachment.size).toBe(PNG.length);
    expect(attachment.url.startsWith(DOWNLOAD_PATH)).toBe(true);

    const link = attachment.url.slice(DOWNLOAD_PATH.length);
    const download = await call(getDownload, new Request(`http://localhost${attachment.url}`), ticketingConfig(), { link });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(download.headers.get('cache-control')).toContain('no-store');
    expect(Buffer.from(await download.arrayBuffer()).equals(PNG)).toBe(true);

    // A link for the same file but another organisation's user (as if forged with the secret): the service says no → 404.
    const foreign = sealLink(SECRET, { sub: 'adam', resource: `/attachments/${attachment.id}`, token: tokens.adam, exp: Math.floor(Date.now() / 1000) + 60 });
    expect((await call(getDownload, new Request(`http://localhost${DOWNLOAD_PATH}${foreign}`), ticketingConfig(), { link: foreign })).status).toBe(404);
    // A changed link does not open: 403; an expired one: 410.
    const tampered = link.slice(0, 20) + (link[20] === 'A' ? 'B' : 'A') + link.slice(21);
    expect((await call(getDownload, new Request('http://localhost/x'), ticketingConfig(), { link: tampered })).status).toBe(403);
    const expired = sealLink(SECRET, { sub: 'x', resource: `/attachments/${attachment.id}`, token: tokens.claire, exp: Math.floor(Date.now() / 1000) - 1 });
    expect((await call(getDownload, new Request('http://localhost/x'), ticketingConfig(), { link: expired })).status).toBe(410);
    expect(LINK_TTL_SECONDS).toBe(300);
  });

  it('passes the service\'s own refusal of a file on (415 for a text file)', async () => {
    const { body, contentType } = graphqlMultipart(
      { query: ADD_ATTACHMENT_MUTATION, variables: { ticketId: 'SR-100001', file: null } },
      [{ path: 'variables.file', fileName: 'notes.txt', contentType: 'text/plain', chunks: [Buffer.from('hello')] }],
    );
    const req = new Request('http://localhost/api/ticketing/graphql', { method: 'POST', headers: { 'content-type': contentType, authorization: `Bearer ${tokens.claire}` }, body, duplex: 'half' } as RequestInit);
    expect((await call(postGraphQL, req, ticketingConfig())).status).toBe(415);
  });

  it('gives the on-premises user package links that download', async () => {
    const res = await call(postGraphQL, gqlRequest(WIRE_FLOW_QUERY, {}, tokens.otto), ticketingConfig());
    const body = await res.json() as { data: { wireFlow: { packages: { versions: { downloadUrl: string; sha256: string }[] }[] } } };
    const version = body.data.wireFlow.packages[0]!.versions[0]!;
    expect(version.downloadUrl.startsWith(DOWNLOAD_PATH)).toBe(true);
    const link = version.downloadUrl.slice(DOWNLOAD_PATH.length);
    const file = await call(getDownload, new Request(`http://localhost${version.downloadUrl}`), ticketingConfig(), { link });
    expect(file.status).toBe(200);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(Buffer.from(await file.arrayBuffer())).digest('hex')).toBe(version.sha256);
  });
});

describe('statusForAnswer', () => {
  it('maps an answer that is only NOT_FOUND or FORBIDDEN to 404/403, and leaves partial data alone', () => {
    expect(statusForAnswer(200, { data: { ticket: null }, errors: [{ extensions: { code: 'NOT_FOUND' } }] })).toBe(404);
    expect(statusForAnswer(200, { data: null, errors: [{ extensions: { code: 'FORBIDDEN' } }] })).toBe(403);
    expect(statusForAnswer(200, { data: { a: 1, ticket: null }, errors: [{ extensions: { code: 'NOT_FOUND' } }] })).toBe(200);
    expect(statusForAnswer(200, { data: { ticket: null }, errors: [{ extensions: { code: 'NOT_FOUND' } }, { extensions: { code: 'X' } }] })).toBe(200);
    expect(statusForAnswer(200, { data: { ok: 1 } })).toBe(200);
  });
});
