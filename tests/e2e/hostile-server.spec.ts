import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, raw, PORT, DATA, type RawResponse } from './fixtures/index.ts';

// Hostile input at the server level (issue 15): traversal of the static server, open redirects,
// reflected input, the request line's bounds and odd methods. Every answer is a 4xx with a clear
// message or a normal page, never a 5xx, never a file from outside the live release. The API
// endpoints' own cases are in hostile-api.spec.ts, Host header tricks in hostile-host.spec.ts.

const DIST = join(process.cwd(), process.env.DIST_DIR ?? 'dist');

/** Text only files outside the served trees have (the app's own build and sources, the system). */
const OUTSIDE_MARKERS = ['"name": "komax-web-platform"', 'root:x:0:0', 'createRequestFromNodeRequest', '"main":"localhost"', 'REVALIDATE_SECRET'];

/**
 * Bytes sent as they are on a fresh connection (http.request refuses some targets, fetch
 * normalises them); resolves with the status and the whole answer once the server closes.
 */
function rawBytes(requestLine: string, headers = `Host: localhost:${PORT}\r\nConnection: close\r\n`): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(PORT, '127.0.0.1', () => socket.write(`${requestLine}\r\n${headers}\r\n`));
    let data = '';
    socket.on('data', (c: Buffer) => { data += c.toString('latin1'); });
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0), text: data }));
    socket.on('error', reject);
  });
}

function expectNoOutsideFile(text: string, what: string) {
  for (const marker of OUTSIDE_MARKERS) expect(text, `${what} must not show ${marker}`).not.toContain(marker);
}

/** The site's own origins: the site hosts of the live release (hosts.json), any port. */
const SITE_HOSTS: string[] = Object.keys((JSON.parse(readFileSync(join(DIST, 'static', 'live', 'hosts.json'), 'utf8')) as { hosts: Record<string, string> }).hosts);

/** A Location stays on the site: a path (never `//` or `/\`, which browsers read as another host), or a URL of a site host. */
function expectOwnLocation(location: string | undefined, what: string) {
  if (location === undefined) return;
  expect(location, what).not.toMatch(/^[/\\]{2}|^\/\\|^\\/);
  const url = new URL(location, `http://localhost:${PORT}`);
  expect(SITE_HOSTS, `${what} → ${location}`).toContain(url.hostname);
}

test.describe('path traversal on the static server', () => {
  const ENCODED = [
    // dot segments, plain and encoded
    '/%2e%2e/%2e%2e/package.json', '/_astro/%2e%2e/%2e%2e/server/entry.mjs', '/en/%2E%2E/%2e%2e/%2e%2e/etc/passwd', '/.%2e/.%2e/package.json',
    // encoded slashes and backslashes
    '/_astro/..%2f..%2fserver%2fentry.mjs', '/en/..%2F..%2F..%2Fpackage.json', '/sitemap.xml/..%2f..%2fhosts.json',
    '/_astro/..%5c..%5cserver%5centry.mjs', '/en/%5c..%5c..%5cpackage.json',
    // NUL and double encoding
    '/en%00', '/sitemap.xml%00.html', '/_astro/x%00.js', '/robots.txt%00/../../package.json',
    '/%252e%252e/%252e%252e/package.json', '/_astro/%252e%252e%252fserver%252fentry.mjs', '/en/%255c..%255cpackage.json',
    // overlong UTF-8 for '.' and '/'
    '/%c0%ae%c0%ae/%c0%ae%c0%ae/package.json', '/_astro/%c0%af..%c0%afserver',
  ];

  for (const path of ENCODED) {
    test(`${path} gets 400 with a message and no file`, async () => {
      const res = await raw(path);
      expect(res.status, path).toBe(400);
      expect(res.text, path).toMatch(/^Bad request: .+\.$/);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expectNoOutsideFile(res.text, path);
    });
  }

  test('raw dot segments and backslashes (sent as bytes, as no browser would) get 400', async () => {
    for (const target of ['/../../package.json', '/_astro/../../server/entry.mjs', '/en/./about-us', '/_astro/..\\..\\package.json', '/\\..\\..\\etc\\passwd', '/builds/../../hosts.json']) {
      const res = await rawBytes(`GET ${target} HTTP/1.1`);
      expect(res.status, target).toBe(400);
      expect(res.text, target).toMatch(/\r\n\r\nBad request: (dot segments|backslashes) .+\.$/);
      expectNoOutsideFile(res.text, target);
    }
  });

  test('paths that name files outside the trees are only ever pages of the site (404 or a redirect to a locale)', async () => {
    for (const path of ['/_astro/package.json', '/_astro/server/entry.mjs', '/builds/hosts.json', '/builds/meta', '/api/nope', '/api/package.json', '/file/nope', '/file/package.json', '/blank-callback/x', '/_image/x', '/server/entry.mjs', '/package.json', '/static/live/hosts.json', '/hosts.json', '/releases', '/client/favicon.svg', '/..;/package.json', '/en/server/entry.mjs']) {
      const res = await raw(path);
      expect(res.status, path).toBeLessThan(500);
      expect([200, 301, 302, 400, 404], path).toContain(res.status);
      expectNoOutsideFile(res.text, path);
      expectOwnLocation(res.headers.location as string | undefined, path);
    }
  });

  test('a page rendered on demand as not found says 404 Not Found and how long it may be cached', async () => {
    const headerOf = (text: string, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(text.split('\r\n\r\n')[0]!)?.[1]?.trim();
    const missing = await rawBytes('GET /en/no-such-page-e2e HTTP/1.1');
    expect(missing.text.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(headerOf(missing.text, 'x-render')).toBe('on-demand');
    expect(headerOf(missing.text, 'cache-control')).toBe('public, max-age=60');
    // With a cookie (a next-release or draft preview, a grant) the answer may be personal: never stored.
    const withCookie = await rawBytes('GET /en/no-such-page-e2e HTTP/1.1', `Host: localhost:${PORT}\r\nCookie: nextRelease=true\r\nConnection: close\r\n`);
    expect(withCookie.text.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(headerOf(withCookie.text, 'cache-control')).toBe('no-store');
  });

  test('a raw NUL or control byte in the request line is refused by the parser with 400 and a message', async () => {
    for (const target of ['/en\u0000', '/sitemap.xml\u0000.html', '/en\u0001/x']) {
      const res = await rawBytes(`GET ${target} HTTP/1.1`);
      expect(res.status, JSON.stringify(target)).toBe(400);
      expect(res.text).toMatch(/\r\n\r\nBad request: .+\.$/);
    }
  });
});

test.describe('the request line and headers are bounded', () => {
  test('a path over 2048 characters gets 414, a query over 4096 characters too', async () => {
    const path = await raw(`/en/${'a'.repeat(3000)}`);
    expect([path.status, path.text]).toEqual([414, 'URI too long: the path has more than 2048 characters.']);
    const query = await raw(`/en/search?q=${'x'.repeat(5000)}`);
    expect([query.status, query.text]).toEqual([414, 'URI too long: the query string has more than 4096 characters.']);
  });

  test('headers over 16 KiB get 431 with a message and our security headers', async () => {
    const res = await rawBytes('GET /en HTTP/1.1', `Host: localhost:${PORT}\r\nX-Filler: ${'a'.repeat(20_000)}\r\n`);
    expect(res.status).toBe(431);
    expect(res.text).toMatch(/\r\n\r\nRequest header fields too large: the request line and headers may have at most 16384 bytes\.$/);
    expect(res.text).toContain('Content-Security-Policy: ');
    expect(res.text).toContain('X-Content-Type-Options: nosniff');
    // Many small headers add up the same way.
    const many = await rawBytes('GET /en HTTP/1.1', `Host: localhost:${PORT}\r\n${Array.from({ length: 2000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n`);
    expect(many.status).toBe(431);
  });

  test('a request line the parser cannot read gets 400 with a message, not the parser error', async () => {
    for (const line of ['GET /en HTTP/9.9', 'GET  HTTP/1.1', 'G@T /en HTTP/1.1']) {
      const res = await rawBytes(line);
      expect(res.status, line).toBe(400);
      expect(res.text, line).toMatch(/\r\n\r\nBad request: the request could not be parsed\.$/);
      expect(res.text, line).not.toMatch(/HPE_|Parse Error/);
    }
  });

  test('methods no route takes get 405 with Allow; every other method a 4xx or a page, never a 5xx', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'SEARCH']) {
      const res = await raw('/en', { method });
      expect([res.status, res.headers.allow], method).toEqual([405, 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS']);
      expect(res.text, method).toMatch(/^Method not allowed: /);
    }
    for (const method of ['OPTIONS', 'PUT', 'PATCH', 'DELETE', 'POST']) {
      for (const path of ['/en', '/en/about-us', '/sitemap.xml', '/_astro/missing.js', '/builds/latest.json', '/api/news-feed', '/api/nope', '/file/nope', '/blank-callback']) {
        const res = await raw(path, { method });
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
  });

  test('odd but parseable queries never make a 5xx', async () => {
    for (const path of ['/en?q=%00', '/en/search?q=%00', '/en/search?q=%E0%A4%A', '/en/search?q=%', '/en/stories?page=-1', '/en/stories?page=1e400', '/en/stories?category=%00', `/en/search?q=${encodeURIComponent('\u202e\ud83d\ude00'.repeat(50))}`, '/en/locations?country=%00&type=%FF', '/_image?href=%00', '/en?nextRelease=%00']) {
      const res = await raw(path);
      expect(res.status, path).toBeLessThan(500);
    }
  });
});

test.describe('open redirects', () => {
  test('protocol-relative and backslash paths never redirect off the site', async () => {
    const cases: [string, number[]][] = [
      ['//evil.example', [302, 404]],
      ['//evil.example/', [301]],
      ['//evil.example/%2e%2e', [400]],
      ['/\\evil.example', [400]],
      ['/\\/evil.example/', [400]],
      ['/%2f%2fevil.example', [400]],
      ['/%2F%2Fevil.example/', [400]],
      ['/%5c%5cevil.example', [400]],
      ['/%09/evil.example', [400]],
      ['/evil.example/', [301]],
      ['/en/about-us/?next=//evil.example', [301]],
      ['///evil.example/', [301]],
      ['/en//evil.example/', [301]],
    ];
    for (const [path, statuses] of cases) {
      const res = await rawBytes(`GET ${path} HTTP/1.1`);
      expect(statuses, `${path}: ${res.text.split('\r\n')[0]}`).toContain(res.status);
      const location = /\r\nLocation: ([^\r]*)\r\n/i.exec(res.text)?.[1];
      expectOwnLocation(location, path);
    }
  });

  test('?direct= with external targets stays on the site', async () => {
    const id = DATA.englishOnlyPage.id;
    for (const path of [
      `/en/${id}?direct=https://evil.example`, `/${id}?direct=true`, `/en/${id}?direct=//evil.example`,
      '/en/https:%2f%2fevil.example?direct=true', '//evil.example?direct=true', '/en//evil.example?direct=true',
      '/en/evil.example?direct=true', `/en/${id}?direct=true&next=https://evil.example`, '/en/%2f%2fevil.example?direct=1',
    ]) {
      const res = await raw(path);
      expect(res.status, path).toBeLessThan(500);
      expectOwnLocation(res.headers.location as string | undefined, path);
    }
    // The real thing: a page id goes to the page's URL on its own site.
    const real = await raw(`/en/${id}?direct=true`);
    expect([real.status, real.headers.location]).toEqual([302, `/en${DATA.englishOnlyPage.path}`]);
  });

  test('trailing-slash redirects keep the query but never the host part', async () => {
    for (const [path, location] of [['/en/about-us/?x=//evil.example', '/en/about-us?x=//evil.example'], ['//evil.example/', '/evil.example'], ['///evil.example//', '/evil.example']]) {
      const res = await rawBytes(`GET ${path} HTTP/1.1`);
      expect(res.status, path).toBe(301);
      expect(/\r\nLocation: ([^\r]*)\r\n/i.exec(res.text)?.[1], path).toBe(location);
    }
  });

  test('the https redirect behind a TLS proxy goes to the host the client asked for, on https', async () => {
    const res = await raw('/en/about-us?x=1', { host: 'www.komax.example', headers: { 'x-forwarded-proto': 'http' } });
    expect([res.status, res.headers.location]).toEqual([301, 'https://www.komax.example/en/about-us?x=1']);
    // Its port is dropped, a bad Host never gets this far, and local hosts stay on http.
    expect((await raw('/en', { host: 'WWW.Komax.Example.', headers: { 'x-forwarded-proto': 'http' } })).headers.location).toBe('https://www.komax.example/en');
    expect((await raw('/en', { host: 'evil.example/x', headers: { 'x-forwarded-proto': 'http' } })).status).toBe(400);
    expect((await raw('/en', { headers: { 'x-forwarded-proto': 'http' } })).status).toBe(200);
  });
});

test.describe('reflected input is escaped', () => {
  const PAYLOAD = '"><b id="kmx-xss">x</b><script>alert(1)</script>\'';

  /** The raw body must not let the payload out of its attribute or text: no unescaped quote before the tag. */
  function expectEscaped(res: RawResponse, what: string) {
    expect(res.status, what).toBeLessThan(500);
    expect(res.text, what).not.toContain('"><b id="kmx-xss">');
    // In text Astro writes &lt;b …, in an attribute value id=&quot;…: either way never this element.
    expect(res.text, what).not.toContain('<b id="kmx-xss">');
  }

  const PAGES = [
    `/en/search?q=${encodeURIComponent(PAYLOAD)}`,
    `/en/locations?q=${encodeURIComponent(PAYLOAD)}`,
    `/en/locations?country=${encodeURIComponent(PAYLOAD)}&type=${encodeURIComponent(PAYLOAD)}&brand=${encodeURIComponent(PAYLOAD)}`,
    `/en/stories?category=${encodeURIComponent(PAYLOAD)}`,
    `/en/stories?page=${encodeURIComponent(PAYLOAD)}`,
    `/en/media-releases?page=${encodeURIComponent(PAYLOAD)}`,
    `/en/editor?site=${encodeURIComponent(PAYLOAD)}&lang=${encodeURIComponent(PAYLOAD)}&stage=${encodeURIComponent(PAYLOAD)}`,
    `/en/${encodeURIComponent(PAYLOAD).replace(/%2F/gi, '')}`,
    `/en/products/${encodeURIComponent(PAYLOAD).replace(/%2F/gi, '')}`,
    `/en/mykomax/${encodeURIComponent(PAYLOAD).replace(/%2F/gi, '')}`,
    `/_image?href=${encodeURIComponent(PAYLOAD)}&w=100&f=webp`,
  ];

  test('in the search query, the 404 path, filters and form values (raw HTML)', async () => {
    for (const path of PAGES) expectEscaped(await raw(path), path);
  });

  test('in the browser: the payload never becomes an element or a script', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });
    for (const path of PAGES.slice(0, 9)) {
      await page.goto(path);
      await expect(page.locator('#kmx-xss'), path).toHaveCount(0);
      const injected = await page.evaluate(() => [...document.scripts].filter((s) => s.textContent?.includes('alert(1)')).length);
      expect(injected, path).toBe(0);
    }
    // The search page shows the query as text.
    await page.goto(PAGES[0]!);
    await expect(page.getByRole('searchbox').first()).toHaveValue(PAYLOAD);
    expect(dialogs).toEqual([]);
  });
});
