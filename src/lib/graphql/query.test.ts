import { afterEach, describe, expect, it } from 'vitest';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as v from 'valibot';
import { graphQLService, isBadUserInput, isServiceUnavailable, ServiceError } from './query.ts';
import { errorPageStatus, RETRY_AFTER_SECONDS } from '../../site/error-page.ts';

class TestError extends ServiceError {
  override name = 'TestError';
}
const service = graphQLService({ name: 'test', ErrorClass: TestError, unreachable: 'Test service unreachable' });
const Schema = v.object({ hello: v.string() });

const servers: (TcpServer | HttpServer)[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((ok) => s.close(ok))));
});

async function listen<S extends TcpServer | HttpServer>(server: S): Promise<string> {
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

/** A server that accepts connections and never answers. */
const hanging = () => listen(createTcpServer((socket) => { sockets.push(socket); socket.on('data', () => {}); }));

const call = (endpoint: string, timeoutMs = 300) =>
  service.query({ endpoint, connectTimeoutMs: 200, timeoutMs }, 'hello', '{ hello }', {}, Schema);

describe('the GraphQL transport', () => {
  it('gives up on a service that accepts but never answers, within the total timeout', async () => {
    const endpoint = await hanging();
    const started = performance.now();
    const err = await call(endpoint).catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(TestError);
    expect((err as TestError).message).toBe('Test service unreachable: no answer within 300 ms');
    expect((err as TestError).operation).toBe('hello');
    expect((err as TestError).failure).toBe('timeout');
    expect(isServiceUnavailable(err)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(250);
  });

  it('gives up on an answer that starts but never finishes (the total timeout covers the body)', async () => {
    const endpoint = await listen(createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
    }));
    const err = await call(endpoint).catch((e: unknown) => e);
    expect((err as TestError).message).toBe('Test service unreachable: no answer within 300 ms');
  });

  it('names a refused connection as unreachable, and a service down', async () => {
    const endpoint = await listen(createTcpServer());
    await new Promise((ok) => servers.pop()!.close(ok));
    const err = await call(endpoint).catch((e: unknown) => e);
    expect((err as TestError).message).toMatch(/^Test service unreachable: .*ECONNREFUSED/);
    expect((err as TestError).failure).toBe('unreachable');
    expect(isServiceUnavailable(err)).toBe(true);
  });

  it('counts a 5xx as unavailable, a GraphQL error as a plain failure', async () => {
    let status = 503;
    const endpoint = await listen(createHttpServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ message: 'Boom' }] }));
    }));
    const down = await call(endpoint).catch((e: unknown) => e);
    expect((down as TestError).message).toBe('Boom');
    expect(isServiceUnavailable(down)).toBe(true);
    status = 200;
    const failed = await call(endpoint).catch((e: unknown) => e);
    expect((failed as TestError).message).toBe('Boom');
    expect(isServiceUnavailable(failed)).toBe(false);
  });

  it('asks a query once more when the connection closes before the answer; never a mutation, never a third time', async () => {
    // Each connection's request is answered only from the `resets`-th connection on; earlier ones are reset.
    let connections = 0;
    let resets = 1;
    const endpoint = await listen(createTcpServer((socket) => {
      sockets.push(socket);
      const n = ++connections;
      socket.once('data', () => {
        if (n <= resets) { socket.resetAndDestroy(); return; }
        const body = JSON.stringify({ data: { hello: 'again' } });
        socket.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
      });
    }));
    expect(await call(endpoint, 2000)).toEqual({ hello: 'again' });
    expect(connections).toBe(2);

    connections = 0;
    const mutation = await service.query({ endpoint, connectTimeoutMs: 200, timeoutMs: 2000 }, 'change', 'mutation { hello }', {}, Schema).catch((e: unknown) => e);
    expect((mutation as TestError).failure).toBe('unreachable');
    expect(connections).toBe(1);

    connections = 0;
    resets = 5;
    const twice = await call(endpoint, 2000).catch((e: unknown) => e);
    expect((twice as TestError).failure).toBe('unreachable');
    expect(connections).toBe(2);
  });

  it('answers normally within the timeouts', async () => {
    const endpoint = await listen(createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { hello: 'world' } }));
    }));
    expect(await call(endpoint, 2000)).toEqual({ hello: 'world' });
  });
});

describe('isServiceUnavailable', () => {
  it('looks through wrapping errors', () => {
    const inner = new TestError('x', { operation: 'op', failure: 'timeout' });
    expect(isServiceUnavailable(new Error('render failed', { cause: inner }))).toBe(true);
    expect(isServiceUnavailable(new Error('plain'))).toBe(false);
    expect(isServiceUnavailable(null)).toBe(false);
  });

  it('makes the error page answer 503 for a service that is down or failing, 500 for a bad answer', () => {
    expect(errorPageStatus(new TestError('Content hub unreachable: no answer within 5000 ms', { operation: 'systemData', failure: 'timeout' })))
      .toEqual({ status: 503, retryAfter: RETRY_AFTER_SECONDS });
    expect(errorPageStatus(new TestError('GraphQL Error (Code: 502)', { operation: 'pages', status: 502 })).status).toBe(503);
    expect(errorPageStatus(new TestError('Unknown field', { operation: 'pages', status: 200 }))).toEqual({ status: 500 });
  });
});

describe('isBadUserInput', () => {
  it('is true only when every error is the service refusing the input', () => {
    expect(isBadUserInput([{ message: 'No story', extensions: { code: 'BAD_USER_INPUT' } }])).toBe(true);
    expect(isBadUserInput([{ message: 'No story', extensions: { code: 'BAD_USER_INPUT' } }, { message: 'boom', extensions: { code: 'INTERNAL_SERVER_ERROR' } }])).toBe(false);
    expect(isBadUserInput([{ message: 'boom' }])).toBe(false);
    expect(isBadUserInput([])).toBe(false);
    expect(isBadUserInput(undefined)).toBe(false);
  });
});
