import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { test, expect, PORT } from './fixtures/index.ts';

// What is the same for every visitor is rendered once and kept (src/server/render-pool/shared-renders.ts):
// the 404 page per site × locale with the path filled in, and the customer-area shells. A kept
// answer says so in Server-Timing; it must be exactly what a fresh render gives (a request with a
// cookie no page reads is never shared: always rendered).

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string; kept: boolean }

function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: PORT, path, agent: false, headers: { host: `localhost:${PORT}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const body = (coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, kept: /\bkept-render\b/.test(String(res.headers['server-timing'] ?? '')) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const releaseOf = (a: Answer) => /<meta name="release-id" content="([^"]*)"/.exec(a.body)?.[1];

/** Never shared: a cookie the shared renders do not know. */
const FRESH = { cookie: 'e2e-fresh=1' };

/**
 * Requests new paths made by `pathOf(i)` until one is answered from a kept render, then a fresh
 * render of the same path. A release switched or content edited by another test between the two
 * (the release id is in the page; kept renders follow releases) makes them differ: the next
 * paths are tried. Returns the first kept answer that equals its fresh render, else the last
 * pair (the assertions then show what differs every time).
 */
async function keptAndFresh(pathOf: (i: number) => string, headers: Record<string, string> = {}): Promise<[Answer, Answer, string]> {
  let last: [Answer, Answer, string] | null = null;
  for (let i = 0; i < 12; i++) {
    const path = pathOf(i);
    const answer = await get(path, headers);
    if (!answer.kept) continue;
    const fresh = await get(path, { ...headers, ...FRESH });
    last = [answer, fresh, path];
    if (releaseOf(fresh) === releaseOf(answer) && fresh.body === answer.body) return last;
  }
  if (last) return last;
  throw new Error(`no kept answer for ${pathOf(0)} …`);
}

test('a 404 of a path without a page is the kept 404 page of its site and locale, with its own path filled in', async () => {
  const tag = `${Date.now().toString(36)}`;
  const [kept, fresh, path] = await keptAndFresh((i) => `/de/kept-404-${tag}-${i}/below`);
  expect(kept.status).toBe(404);
  expect(fresh.kept).toBe(false);
  expect(fresh.status).toBe(404);
  expect(kept.body).toBe(fresh.body);
  expect(kept.body).toContain(`href="/fr${path.slice(3)}"`);
  // (Cache-Control differs: an answer to a request with a cookie is never stored by a cache.)
  for (const h of ['content-type', 'content-security-policy', 'x-render', 'vary']) expect(kept.headers[h], h).toEqual(fresh.headers[h]);
  // A page that exists is never answered with it.
  const page = await get('/de/about-us');
  expect([page.status, page.kept]).toEqual([200, false]);
});

test('a route that finds no product keeps its own 404 page the same way', async () => {
  const tag = `${Date.now().toString(36)}`;
  const [kept, fresh] = await keptAndFresh((i) => `/en/products/no-such-product-${tag}-${i}`);
  expect([kept.status, fresh.status, fresh.kept]).toEqual([404, 404, false]);
  expect(kept.body).toBe(fresh.body);
  expect(kept.headers['content-security-policy']).toBe(fresh.headers['content-security-policy']);
});

test('a customer-area shell is kept and answered compressed once, the same page as a fresh render', async () => {
  for (const encoding of ['br', 'gzip', '']) {
    const headers: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
    const [kept, fresh] = await keptAndFresh(() => '/en/mykomax/inventory', headers);
    expect(kept.status).toBe(200);
    expect(kept.headers['content-encoding']).toBe(encoding || undefined);
    expect(kept.headers.vary).toBe('Accept-Encoding');
    expect(kept.body).toBe(fresh.body);
    expect(kept.headers['content-security-policy']).toBe(fresh.headers['content-security-policy']);
  }
});
