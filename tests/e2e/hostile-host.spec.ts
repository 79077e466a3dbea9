import { connect } from 'node:net';
import { test, expect, raw, PORT } from './fixtures/index.ts';

/** An HTTP/1.0 request without any Host header (an HTTP/1.1 one Node itself rejects). */
function withoutHost(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(PORT, '127.0.0.1', () => socket.end(`GET ${path} HTTP/1.0\r\n\r\n`));
    let data = '';
    socket.on('data', (c: Buffer) => { data += c.toString(); });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

/** Raw bytes on a fresh connection; the whole answer once the server closes. */
function rawRequest(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(PORT, '127.0.0.1', () => socket.write(bytes));
    let data = '';
    socket.on('data', (c: Buffer) => { data += c.toString(); });
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}

test.describe('hostile Host headers', () => {
  for (const host of ['x/../..', '..', '%2e%2e', 'a%2fb', 'a\\b', '..\\..\\..']) {
    test(`${JSON.stringify(host)} gets 400 and no file`, async () => {
      for (const path of ['/en', '/sitemap.xml', '/robots.txt', '/builds/latest.json', '/server/entry.mjs']) {
        const res = await raw(path, { host });
        expect(res.status, path).toBe(400);
        expect(res.text, path).toBe('Invalid Host header');
      }
    });
  }

  test('ports, IPv6 literals and odd spellings: served when valid, 400 otherwise, never a 5xx', async () => {
    const main = (await raw('/en')).text;
    for (const host of [`localhost:${PORT}`, 'localhost', 'LOCALHOST:80', 'localhost.:443', '[::1]', `[::1]:${PORT}`, '[2001:DB8::1]:8080', '127.0.0.1', `127.0.0.1:${PORT}`]) {
      const res = await raw('/en', { headers: { host } });
      expect(res.status, host).toBe(200);
      expect(res.text, host).toBe(main);
    }
    for (const host of ['localhost:99999', 'localhost:0', 'localhost:', 'localhost:80:80', 'user@localhost', 'localhost/en', 'local host', '[::1', '[not-ipv6]', '::1', '-localhost', `${'a'.repeat(64)}.localhost`, `${'a.'.repeat(140)}localhost`, '*.localhost', 'localhost\\']) {
      const res = await raw('/en', { headers: { host } });
      expect(res.status, host).toBe(400);
      expect(res.text, host).toBe('Invalid Host header');
    }
  });

  test('an absolute-form target cannot name another host; a second Host header is ignored', async () => {
    const absolute = await rawRequest(`GET http://evil.example/en HTTP/1.1\r\nHost: localhost:${PORT}\r\nConnection: close\r\n\r\n`);
    expect(absolute).toMatch(/^HTTP\/1\.1 400 /);
    expect(absolute).not.toContain('evil.example');
    const twice = await rawRequest(`GET /en/stories?page=2 HTTP/1.1\r\nHost: localhost:${PORT}\r\nHost: evil.example\r\nConnection: close\r\n\r\n`);
    expect(twice).toMatch(/^HTTP\/1\.1 (200|400) /);
    expect(twice).not.toContain('evil.example');
  });

  test('an absent Host gets 400', async () => {
    const answer = await withoutHost('/en');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('Missing Host header');
  });

  test('upper case and a trailing dot are served like the plain host', async () => {
    for (const host of ['LOCALHOST', 'localhost.', 'LocalHost.']) {
      const res = await raw('/en', { host });
      expect(res.status, host).toBe(200);
      expect(res.headers['x-render'], host).toBe('prerendered');
    }
    const events = await raw('/en', { host: 'Events.Localhost.' });
    expect(events.headers['x-render']).toBe('prerendered');
    expect(events.text).toBe((await raw('/en', { host: 'events.localhost' })).text);
  });

  test('an unknown valid host is served the main site from the static tree', async () => {
    const main = await raw('/en');
    for (const host of ['unknown.example', 'evil.example', '203.0.113.7', '[2001:db8::1]']) {
      const res = await raw('/en', { host });
      expect(res.status, host).toBe(200);
      expect(res.headers['x-render'], host).toBe('prerendered');
      expect(res.text, host).toBe(main.text);
    }
    // A subdomain of a site is that site.
    const sub = await raw('/en', { host: 'foo.events.localhost' });
    expect(sub.text).toBe((await raw('/en', { host: 'events.localhost' })).text);
    expect((await raw('/sitemap.xml', { host: 'evil.example' })).text).toBe((await raw('/sitemap.xml')).text);
  });

  test('on-demand pages never see an unknown host in their links', async () => {
    const res = await raw('/en/stories?page=2', { host: 'evil.example' });
    expect(res.status).toBe(200);
    expect(res.headers['x-render']).toBe('on-demand');
    expect(res.text).not.toContain('evil.example');
    expect(res.text).toContain(`<link rel="canonical" href="http://localhost:${PORT}/en/stories?page=2"`);
  });
});
