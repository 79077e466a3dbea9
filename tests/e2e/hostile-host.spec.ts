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
