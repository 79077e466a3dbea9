import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIContext, APIRoute } from 'astro';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphqlMultipart, startDemoIdentity, startDemoTicketing, type DemoIdentity, type DemoTicketing } from '../../../emulators/testing.ts';
import { MAX_PROXY_BODY_BYTES } from '../../lib/ticketing/limits.ts';
import { LINK_TTL_SECONDS, sealLink } from '../../lib/ticketing/links.server.ts';
import type { TicketingConfig } from '../../lib/ticketing/types.ts';
import { MULTIPART_UPLOADS } from '../../lib/http/upload-guard.ts';
import { DOWNLOAD_PATH, getDownload, postGraphQL, statusForAnswer, TOO_LARGE_MESSAGE, UNAVAILABLE_MESSAGE } from './proxy.server.ts';

// The tickets proxy against the real identity emulator (bearer verification) and either the real
// ticketing emulator or a recording stand-in (limits, streaming, headers, failures).

let identity: DemoIdentity;
let ticketing: DemoTicketing;
const tokens: Record<'claire' | 'adam' | 'otto', string> = { claire: '', adam: '', otto: '' };
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2048, 7)]);
const SECRET = 'proxy-test-secret-0123456789abcdefghij';

/** A recording stand-in for the ticketing service: counts requests and bytes, answers JSON (or hangs). */
interface FakeUpstream { url: string; requests: { headers: IncomingMessage['headers']; bytes: number; complete: boolean }[]; mode: 'answer' | 'hang'; close(): Promise<void> }
let fake: FakeUpstream;

async function startFake(): Promise<FakeUpstream> {
  const state: FakeUpstream = { url: '', requests: [], mode: 'answer', close: async () => {} };
  const server: Server = createServer((req, res) => {
    const record = { headers: req.headers, bytes: 0, complete: false };
    state.requests.push(record);
    req.on('data', (chunk: Buffer) => { record.bytes += chunk.length; });
    req.on('end', () => {
      record.complete = true;
      if (state.mode === 'hang') return;
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

const gqlRequest = (query: string, variables: Record<string, unknown>, token?: string) => new Request('http://localhost/api/ticketing/graphql', {
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  body: JSON.stringify({ query, variables }),
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

const multipartRequest = (token: string, body: ReadableStream<Uint8Array>, extra: Record<string, string> = {}) => new Request('http://localhost/api/ticketing/graphql', {
  method: 'POST',
  headers: { 'content-type': 'multipart/form-data; boundary=xyz', authorization: `Bearer ${token}`, ...extra },
  body,
  duplex: 'half',
} as RequestInit);

describe('POST /api/ticketing/graphql', () => {
  it('answers 401 without a bearer token, or with a forged one, and calls nobody', async () => {
    const none = await call(postGraphQL, gqlRequest('{ viewer { id } }', {}), config(fake.url));
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toContain('Bearer');
    const forged = await call(postGraphQL, gqlRequest('{ viewer { id } }', {}, `${tokens.claire.slice(0, -4)}AAAA`), config(fake.url));
    expect(forged.status).toBe(401);
    expect(fake.requests).toHaveLength(0);
  });

  it('adds the verified identity token and the debug level, and forwards the body', async () => {
    const res = await call(postGraphQL, gqlRequest('{ viewer { id } }', { a: 1 }, tokens.claire), config(fake.url, undefined, 'info'));
    expect(res.status).toBe(200);
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.headers['x-identity-token']).toBe(tokens.claire);
    expect(fake.requests[0]!.headers['x-debug-level']).toBe('info');
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
    expect(fake.requests[0]!.bytes).toBe(JSON.stringify({ query: '{ viewer { id } }', variables: { a: 1 } }).length);
  });

  it('refuses a body whose Content-Length passes 100 MB with 413 before reading any of it', async () => {
    const { stream, state } = generated(MAX_PROXY_BODY_BYTES + 1);
    const req = multipartRequest(tokens.claire, stream, { 'content-length': String(MAX_PROXY_BODY_BYTES + 1) });
    expect(req.headers.get('content-length')).toBe(String(MAX_PROXY_BODY_BYTES + 1));
    const res = await call(postGraphQL, req, config(fake.url));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: TOO_LARGE_MESSAGE, limit: 104_857_600 });
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
    const { stream, state } = generated(MAX_PROXY_BODY_BYTES + 20 * 1024 * 1024);
    const res = await call(postGraphQL, multipartRequest(tokens.claire, stream), config(fake.url));
    expect(res.status).toBe(413);
    expect((await res.json() as { error: string }).error).toBe(TOO_LARGE_MESSAGE);
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.requests[0]?.complete).toBe(false);
    expect(fake.requests[0]!.bytes).toBeLessThanOrEqual(MAX_PROXY_BODY_BYTES);
    expect(state.pulled).toBeGreaterThan(MAX_PROXY_BODY_BYTES);
  }, 60_000);

  it('streams a large upload through: memory does not grow by the body size', async () => {
    const total = 100 * 1024 * 1024;
    const { stream } = generated(total);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
    const res = await call(postGraphQL, multipartRequest(tokens.claire, stream), config(fake.url));
    clearInterval(sampler);
    expect(res.status).toBe(200);
    expect(fake.requests[0]!.bytes).toBe(total);
    expect(peak - before).toBeLessThan(40 * 1024 * 1024);
  }, 60_000);

  it('declares the upload guard for multipart bodies: a cap per client and a minimum rate (upload-guard.ts)', () => {
    expect(postGraphQL.limits.upload).toBe(MULTIPART_UPLOADS);
  });

  it('refuses other content types with 415', async () => {
    const req = new Request('http://localhost/api/ticketing/graphql', { method: 'POST', headers: { 'content-type': 'text/plain', authorization: `Bearer ${tokens.claire}` }, body: '{}' });
    expect((await call(postGraphQL, req, config(fake.url))).status).toBe(415);
  });

  it('answers 503 with a clear message when the service is down, and 504 when it does not answer in time', async () => {
    const down = await call(postGraphQL, gqlRequest('{ viewer { id } }', {}, tokens.claire), config('http://127.0.0.1:9/graphql'));
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: UNAVAILABLE_MESSAGE });
    fake.mode = 'hang';
    const started = Date.now();
    const slow = await call(postGraphQL, gqlRequest('{ viewer { id } }', {}, tokens.claire), config(fake.url, { connectTimeoutMs: 500, timeoutMs: 300 }));
    expect(slow.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('rewrites the service\'s file addresses to same-origin download links', async () => {
    const res = await call(postGraphQL, gqlRequest('{ viewer { id } }', {}, tokens.claire), config(fake.url));
    const body = await res.json() as { data: { file: string } };
    expect(body.data.file.startsWith(DOWNLOAD_PATH)).toBe(true);
    expect(JSON.stringify(body)).not.toContain('127.0.0.1');
  });
});

describe('the proxy in front of the ticketing emulator', () => {
  const ticketingConfig = () => config(ticketing.url);
  const TICKET = 'query($id: ID!) { ticket(id: $id) { id subject attachments { id url } } }';

  it('answers 404 for another organisation\'s ticket, without its data', async () => {
    const res = await call(postGraphQL, gqlRequest(TICKET, { id: 'SR-100001' }, tokens.adam), ticketingConfig());
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(text).toContain('NOT_FOUND');
    const own = await call(postGraphQL, gqlRequest(TICKET, { id: 'SR-100001' }, tokens.claire), ticketingConfig());
    expect(own.status).toBe(200);
  });

  it('uploads an attachment (multipart, streamed), hands out a download link, and only the owner\'s token opens the file', async () => {
    const { body, contentType } = graphqlMultipart(
      { query: 'mutation($ticketId: ID!, $file: Upload!) { addAttachment(ticketId: $ticketId, file: $file) { attachment { id url size } errors { message } } }', variables: { ticketId: 'SR-100001', file: null } },
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
      { query: 'mutation($ticketId: ID!, $file: Upload!) { addAttachment(ticketId: $ticketId, file: $file) { errors { message } } }', variables: { ticketId: 'SR-100001', file: null } },
      [{ path: 'variables.file', fileName: 'notes.txt', contentType: 'text/plain', chunks: [Buffer.from('hello')] }],
    );
    const req = new Request('http://localhost/api/ticketing/graphql', { method: 'POST', headers: { 'content-type': contentType, authorization: `Bearer ${tokens.claire}` }, body, duplex: 'half' } as RequestInit);
    expect((await call(postGraphQL, req, ticketingConfig())).status).toBe(415);
  });

  it('gives the on-premises user package links that download', async () => {
    const res = await call(postGraphQL, gqlRequest('{ wireFlow { ... on WireFlowOnPrem { packages { versions { downloadUrl sha256 } } } } }', {}, tokens.otto), ticketingConfig());
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
