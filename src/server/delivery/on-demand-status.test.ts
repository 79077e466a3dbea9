import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppHandler } from '../http/app-server.ts';
import { NOT_FOUND_CACHE_PRIVATE, NOT_FOUND_CACHE_PUBLIC } from './on-demand-status.ts';

let dist: string;
let server: Server;
let port: number;

/**
 * A stand-in for Astro's handler that answers as Astro's node adapter writes a response: the
 * statusText of the page response (`OK`, Astro's for every page) as the reason, then writeHead
 * with the headers. `/x-cache` sets its own Cache-Control, `/x-cookie` a cookie, `/x-next` hands
 * on to the server's own 404 (no route).
 */
const astroHandler = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => {
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/x-next') return next?.();
  const headers: Record<string, string> = { 'Content-Type': 'text/html; charset=utf-8' };
  if (path === '/x-cache') headers['Cache-Control'] = 'private, max-age=5';
  if (path === '/x-cookie') headers['Set-Cookie'] = 'nextRelease=true; Path=/; HttpOnly';
  res.statusMessage = 'OK';
  res.writeHead(path === '/en' ? 200 : 404, headers).end('<h1>Page not found</h1>');
};

beforeAll(async () => {
  dist = await mkdtemp(join(tmpdir(), 'on-demand-status-'));
  await mkdir(join(dist, 'client'), { recursive: true });
  const handle = createAppHandler({ distDir: dist, astroHandler });
  server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await rm(dist, { recursive: true, force: true });
});

/** The raw status line and headers of a GET (lowercase header names). */
function head(path: string, extra: Record<string, string> = {}): Promise<{ statusLine: string; headers: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const lines = Object.entries({ Host: 'localhost', Connection: 'close', ...extra }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      socket.write(`GET ${path} HTTP/1.1\r\n${lines}\r\n`);
    });
    let data = '';
    socket.on('data', (c: Buffer) => { data += c.toString('latin1'); });
    socket.on('end', () => {
      const [top] = data.split('\r\n\r\n');
      const [statusLine, ...rest] = top!.split('\r\n');
      resolve({ statusLine: statusLine!, headers: Object.fromEntries(rest.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()])) });
    });
    socket.on('error', reject);
  });
}

describe('on-demand answers', () => {
  it('carry the reason phrase of their status: 404 Not Found (Astro said OK), 200 OK', async () => {
    const missing = await head('/en/no-such-page');
    expect(missing.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect((await head('/en')).statusLine).toBe('HTTP/1.1 200 OK');
    expect((await head('/x-next')).statusLine).toBe('HTTP/1.1 404 Not Found');
  });

  it('a public page\'s 404 may be cached for a minute; the server\'s own 404 too', async () => {
    expect((await head('/en/no-such-page')).headers['cache-control']).toBe(NOT_FOUND_CACHE_PUBLIC);
    expect(NOT_FOUND_CACHE_PUBLIC).toBe('public, max-age=60');
    expect((await head('/x-next')).headers['cache-control']).toBe(NOT_FOUND_CACHE_PUBLIC);
    // A 200 is left to the app.
    expect((await head('/en')).headers['cache-control']).toBeUndefined();
  });

  it('a 404 that may be personal is never stored: private areas, cookies, credentials, an answer setting a cookie', async () => {
    for (const path of ['/en/mykomax/tickets/x', '/de/editor', '/api/nope', '/file/nope', '/blank-callback/x']) {
      expect((await head(path)).headers['cache-control'], path).toBe(NOT_FOUND_CACHE_PRIVATE);
    }
    expect((await head('/en/no-such-page', { Cookie: 'nextRelease=true' })).headers['cache-control']).toBe('no-store');
    expect((await head('/en/no-such-page', { Authorization: 'Bearer x' })).headers['cache-control']).toBe('no-store');
    expect((await head('/x-cookie')).headers['cache-control']).toBe('no-store');
  });

  it('keeps a Cache-Control the app set', async () => {
    const own = await head('/x-cache');
    expect(own.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(own.headers['cache-control']).toBe('private, max-age=5');
  });
});
