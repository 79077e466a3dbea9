import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIContext } from 'astro';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDemoIdentity, type DemoIdentity } from '../../../emulators/testing.ts';
import type { TicketingConfig } from '../../lib/ticketing/types.ts';
import { ADD_ATTACHMENT_MUTATION, CREATE_TICKET_MUTATION } from '../../lib/ticketing/documents.ts';
import { postGraphQL, STALLED_MESSAGE } from './proxy.server.ts';

// The tickets proxy and idempotency: the visitor's Idempotency-Key goes on to the service, a
// malformed one is refused before anything is sent, and an upload the visitor stops sending is
// answered 408 with a text about the upload (not 504 "the service is not reachable").

let identity: DemoIdentity;
let token = '';
let upstream: { url: string; requests: IncomingMessage['headers'][]; close(): Promise<void> };

beforeAll(async () => {
  identity = await startDemoIdentity();
  token = (await identity.signIn('customer@demo.komax.test')).access_token;
  const requests: IncomingMessage['headers'][] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.headers);
    req.resume();
    req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"data":{"ok":true}}'); });
    req.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  upstream = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`,
    requests,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}, 30_000);
afterAll(async () => {
  await upstream?.close();
  await identity?.close();
});
beforeEach(() => { upstream.requests.length = 0; });

const config = (): TicketingConfig => ({ endpoint: upstream.url, debugLevel: 'none', linkSecret: 'x'.repeat(40), timeouts: { connectTimeoutMs: 1000, timeoutMs: 1500 }, uploadIdleMs: 300 });
const context = (request: Request) => ({
  request, params: {}, url: new URL(request.url),
  locals: { api: { services: { identity: { issuer: identity.issuer, audience: 'kmx-web', clientId: 'kmx-web', introspection: { ...identity.introspection, cacheTtlMs: 15_000 }, managementUrl: '', timeouts: { connectTimeoutMs: 1000, timeoutMs: 3000 } }, ticketing: config() } } },
}) as unknown as APIContext;

const mutation = (headers: Record<string, string>) => new Request('http://localhost/api/ticketing/graphql', {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
  // The app's own document (the proxy passes nothing else).
  body: JSON.stringify({ operationName: 'CreateTicket', query: CREATE_TICKET_MUTATION, variables: { input: {} } }),
});

describe('the tickets proxy and the Idempotency-Key', () => {
  it('passes the visitor\'s key on to the service, as the draft\'s quoted string', async () => {
    const res = await postGraphQL(context(mutation({ 'Idempotency-Key': '6d1f3a2b-0c4e-4b7a-9f10-aa55cc77ee99' })));
    expect(res.status).toBe(200);
    expect(upstream.requests[0]?.['idempotency-key']).toBe('"6d1f3a2b-0c4e-4b7a-9f10-aa55cc77ee99"');
  });

  it('refuses a malformed key with 400 and a clear text, and sends nothing', async () => {
    const res = await postGraphQL(context(mutation({ 'Idempotency-Key': '"abc"' })));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.any(String), message: 'The Idempotency-Key must have at least 16 characters.' });
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('an upload the visitor stops sending', () => {
  /** A multipart upload that sends `first` and then nothing more: a visitor whose connection stalled. */
  const stalling = (first: string) => {
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) { sent = true; controller.enqueue(new TextEncoder().encode(first)); }
        return new Promise(() => {});
      },
    }, { highWaterMark: 0 });
    return new Request('http://localhost/api/ticketing/graphql', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz', authorization: `Bearer ${token}` },
      body,
      duplex: 'half',
    } as RequestInit);
  };
  const expectStalled = async (res: Response) => {
    expect(res.status).toBe(408);
    const answer = (await res.json()) as { error: string; message: string };
    expect(answer).toEqual({ error: expect.any(String), message: STALLED_MESSAGE });
    expect(answer.message).toMatch(/upload stalled/);
    expect(answer.message).not.toMatch(/not reachable/);
  };

  it('is answered 408 saying the upload stalled, not that the service is unreachable (stalled in the file)', async () => {
    const operations = JSON.stringify({ operationName: 'AddAttachment', query: ADD_ATTACHMENT_MUTATION, variables: { ticketId: 't-1', file: null } });
    await expectStalled(await postGraphQL(context(stalling(`--xyz\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${operations}\r\n--xyz\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.file"]}\r\n--xyz\r\nContent-Disposition: form-data; name="0"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF`))));
  });

  it('is answered 408 as well when it stalls before its operations field is complete, and nothing reaches the service', async () => {
    await expectStalled(await postGraphQL(context(stalling('--xyz\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{'))));
    expect(upstream.requests).toHaveLength(0);
  });
});
