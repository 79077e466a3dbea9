import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getLogger } from '../../lib/log/index.ts';
import { captureLogs, type CapturedLogs } from '../../../tests/support/log.ts';
import { inRequestContext, requestIdFrom, withRequestId } from './request-id.ts';
import { DOWNLOAD_PATH, downloadLink } from '../../features/tickets/proxy.server.ts';
import type { TicketingConfig } from '../../lib/ticketing/types.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('requestIdFrom', () => {
  it.each(['abc-123', 'f47ac10b-58cc-4372-a567-0e02b2c3d479', 'Root=1-5759e988-bd862e3fe1be46a994272793', 'a'.repeat(64), 'x.y_z:1/2+3='])('takes over the safe id %j', (id) => {
    expect(requestIdFrom(id)).toBe(id);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['too long', 'a'.repeat(65)],
    ['with a line break', 'abc\ninjected'],
    ['with spaces', 'abc def'],
    ['with quotes', 'abc"def'],
    ['with markup', '<script>'],
    ['repeated', ['a', 'b']],
  ])('generates a new id when the incoming one is %s', (_why, header) => {
    expect(requestIdFrom(header)).toMatch(UUID);
  });
});

describe('withRequestId', () => {
  let server: Server;
  let origin: string;
  let logs: CapturedLogs;
  const log = getLogger('test');

  beforeEach(async () => {
    logs = captureLogs('debug');
    server = createServer((req, res) => withRequestId(req, res, async () => {
      log.debug('handling');
      await new Promise((r) => setTimeout(r, 2));
      log.warn({ path: req.url }, 'after a timer');
      res.end('ok');
    }));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    logs.restore();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  /** Waits for the request's closing `request` line (written when the response is closed). */
  const linesOf = async (reqId: string) => {
    await expect.poll(() => logs.lines.some((l) => l.reqId === reqId && l.component === 'http')).toBe(true);
    return logs.lines.filter((l) => l.reqId === reqId);
  };

  it('echoes a safe incoming id and puts it on every line logged during the request', async () => {
    const res = await fetch(`${origin}/en?q=1`, { headers: { 'X-Request-Id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    const lines = await linesOf('abc-123');
    expect(lines.map((l) => l.msg)).toEqual(['handling', 'after a timer', expect.stringMatching(/^GET \/en 200 in \d+ ms$/)]);
    expect(lines.at(-1)).toMatchObject({ component: 'http', level: 'info', method: 'GET', path: '/en', status: 200, ms: expect.any(Number), aborted: false });
    expect(logs.lines.every((l) => typeof l.reqId === 'string')).toBe(true);
  });

  it('logs a sealed download link without its seal, in the request line and anywhere else', async () => {
    const link = downloadLink({ linkSecret: 'a-link-secret' } as TicketingConfig, 'u1', 'eyJhbGciOi.eyJzdWIi.c2ln', '/attachments/att-1');
    const seal = link.slice(DOWNLOAD_PATH.length);
    await fetch(`${origin}${link}`, { headers: { 'X-Request-Id': 'sealed-1' } });
    const lines = await linesOf('sealed-1');
    const text = logs.text();
    expect(text).not.toContain(seal);
    expect(text).not.toContain(seal.slice(0, 24));
    expect(lines.find((l) => l.component === 'http')).toMatchObject({ path: `${DOWNLOAD_PATH}[redacted]`, msg: expect.stringContaining(`GET ${DOWNLOAD_PATH}[redacted] 200`) });
    expect(lines.find((l) => l.msg === 'after a timer')).toMatchObject({ path: `${DOWNLOAD_PATH}[redacted]` });
  });

  it('generates an id for a request without a safe one and uses it for the lines and the header', async () => {
    const res = await fetch(`${origin}/x`, { headers: { 'X-Request-Id': 'x'.repeat(200) } });
    const id = res.headers.get('x-request-id')!;
    expect(id).toMatch(UUID);
    expect((await linesOf(id)).map((l) => l.msg)).toEqual(['handling', 'after a timer', expect.stringMatching(/^GET \/x 200 in \d+ ms$/)]);
    expect(logs.text()).not.toContain('x'.repeat(65));
  });

  it('keeps the lines of concurrent requests apart', async () => {
    await Promise.all(['r1', 'r2', 'r3'].map((id) => fetch(`${origin}/${id}`, { headers: { 'X-Request-Id': id } })));
    for (const id of ['r1', 'r2', 'r3']) {
      const lines = await linesOf(id);
      expect(lines.find((l) => l.msg === 'after a timer')).toMatchObject({ path: `/${id}` });
    }
  });
});

describe('inRequestContext', () => {
  it('gives the handler the id to send itself, and adds no closing-line listener when info lines are off', async () => {
    const logs = captureLogs('warn');
    const seen: { id: string; header: unknown; added: number }[] = [];
    const server = createServer((req, res) => {
      const before = res.listenerCount('close');
      inRequestContext(req, res, (id) => {
        seen.push({ id, header: res.getHeader('x-request-id'), added: res.listenerCount('close') - before });
        res.setHeader('X-Request-Id', id);
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers: { 'X-Request-Id': 'abc-9' } });
      expect(res.headers.get('x-request-id')).toBe('abc-9');
      expect(seen).toEqual([{ id: 'abc-9', header: undefined, added: 0 }]);
      expect(logs.lines).toEqual([]);
    } finally {
      logs.restore();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
