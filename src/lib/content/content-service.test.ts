import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contentQuery, type ContentContext } from './content-service.ts';
import { ContentError } from './errors.ts';

/** What the stand-in answers next, and what it received. */
let reply: { status: number; body: unknown } = { status: 200, body: { data: {} } };
let received: { headers: IncomingHttpHeaders; body: { query: string; variables: Record<string, unknown> } } | null = null;

let server: Server;
let endpoint: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      received = { headers: req.headers, body: JSON.parse(raw) };
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = null;
});

const ctx = (extra: Partial<ContentContext> = {}): ContentContext => ({
  config: { endpoint }, locales: ['de-CH', 'de', 'en'], stage: 'PUBLISHED', ...extra,
});
const Greeting = v.object({ greeting: v.string() });
const ask = (c = ctx()) => contentQuery(c, 'greeting', 'query Greeting($name: String) { greeting(name: $name) }', { name: 'Ada' }, Greeting);
const failure = async (p: Promise<unknown>): Promise<ContentError> => {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ContentError);
  return err as ContentError;
};

describe('a successful query', () => {
  it('sends the query, its variables and the ordered locale list header', async () => {
    reply = { status: 200, body: { data: { greeting: 'Grüezi' } } };
    await expect(ask()).resolves.toEqual({ greeting: 'Grüezi' });
    expect(received!.headers['x-content-locales']).toBe('de-CH,de,en');
    expect(received!.body.query).toContain('greeting(name: $name)');
    expect(received!.body.variables).toEqual({ name: 'Ada' });
  });

  it('sends the locale list of each request', async () => {
    reply = { status: 200, body: { data: { greeting: 'Hello' } } };
    await ask(ctx({ locales: ['en'] }));
    expect(received!.headers['x-content-locales']).toBe('en');
  });
});

describe('GraphQL errors', () => {
  it('surface as a ContentError with the first error message', async () => {
    reply = { status: 200, body: { data: null, errors: [{ message: 'Navigation nav-x not found' }, { message: 'second' }] } };
    const err = await failure(ask());
    expect(err.message).toBe('Navigation nav-x not found');
    expect(err.operation).toBe('greeting');
    expect(err.status).toBe(200);
  });

  it("give 'GraphQL Error (Code: 500)' for an HTTP 500 without errors", async () => {
    reply = { status: 500, body: {} };
    const err = await failure(ask());
    expect(err.message).toBe('GraphQL Error (Code: 500)');
    expect(err.status).toBe(500);
  });

  it('prefer the first error message over the status code', async () => {
    reply = { status: 500, body: { errors: [{ message: 'Database unavailable' }] } };
    expect((await failure(ask())).message).toBe('Database unavailable');
  });
});

describe('responses that fail the schema', () => {
  it('raise a ContentError naming the operation and the path', async () => {
    reply = { status: 200, body: { data: { greeting: 42 } } };
    const err = await failure(ask());
    expect(err.operation).toBe('greeting');
    expect(err.message).toMatch(/^Unexpected greeting response at greeting: /);
  });

  it('raise a ContentError for a missing field', async () => {
    reply = { status: 200, body: { data: {} } };
    expect((await failure(ask())).message).toContain('Unexpected greeting response');
  });
});

describe('an unreachable content hub', () => {
  it('raises a ContentError keeping the cause', async () => {
    // A port that was free a moment ago: nothing listens there any more.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));

    const err = await failure(ask(ctx({ config: { endpoint: `http://127.0.0.1:${port}/graphql` } })));
    expect(err.message).toMatch(/^Content hub unreachable: /);
    expect(err.status).toBeUndefined();
    expect(err.cause).toBeInstanceOf(Error);
  });
});
