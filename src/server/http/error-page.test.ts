import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppHandler } from './app-server.ts';
import { ERROR_PAGE_CSP } from './error-page.ts';
import { ServiceError } from '../../lib/graphql/query.ts';

const servers: Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((ok) => s.close(ok))));
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Our app handler over an empty dist/, with an Astro handler that fails the way the test says. */
async function serverFailingWith(err: unknown): Promise<string> {
  const distDir = await mkdtemp(join(tmpdir(), 'error-page-'));
  dirs.push(distDir);
  await mkdir(join(distDir, 'client'));
  const handle = createAppHandler({
    distDir,
    astroHandler: (_req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => {
      res.setHeader('X-Half-Done', 'yes');
      next?.(err);
    },
  });
  const server = createServer((req, res) => void handle(req, res));
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the Node server error page (the Astro handler failed)', () => {
  it('is the error page with 500 in the language of the URL, without the error', async () => {
    const origin = await serverFailingWith(new TypeError('secret internals at /srv/app.js:12'));
    const res = await fetch(`${origin}/de/ueber-uns`);
    expect(res.status).toBe(500);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-half-done')).toBeNull();
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).toContain('<title>Fehler | Komax</title>');
    expect(html).toContain('<h1>Leider ist ein Fehler aufgetreten</h1>');
    expect(html).toContain('href="/de"');
    expect(html).not.toContain('secret internals');
    expect(html).not.toContain('<script');
  });

  it('is 503 with Retry-After when an upstream service is down, in English without a locale prefix', async () => {
    const origin = await serverFailingWith(new ServiceError('Content hub unreachable: no answer within 5000 ms', { operation: 'systemData', failure: 'timeout' }));
    const res = await fetch(`${origin}/style-guide`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('60');
    const html = await res.text();
    expect(html).toContain('<title>Error | Komax</title>');
    expect(html).toContain('Sorry, something went wrong');
    expect(html).toContain('We apologize for the inconvenience, but this page is currently not working as expected');
    expect(html).toContain('The site may be undergoing maintenance.');
    expect(html).not.toContain('Content hub unreachable');
  });

  it('has a strict CSP: no scripts, only its own hashed inline style', async () => {
    const origin = await serverFailingWith(new Error('x'));
    const res = await fetch(`${origin}/en/x`);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toBe(ERROR_PAGE_CSP);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const style = /<style>(.*?)<\/style>/.exec(await res.text())![1]!;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  });
});
