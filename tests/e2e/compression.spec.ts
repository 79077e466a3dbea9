import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { test, expect, PORT, DATA } from './fixtures/index.ts';

// Compression on every path (issue 9): prerendered pages and payloads from their precompressed
// siblings, build assets from theirs, on-demand pages and API answers compressed on the fly.

const STATIC = join(process.cwd(), process.env.DIST_DIR ?? 'dist', 'static', 'live');
const BR = { 'Accept-Encoding': 'br' };

interface Got { status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer }

/** A request that does not decompress: what a client is sent, byte for byte. */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: PORT, path, method, agent: false, headers: { host: `localhost:${PORT}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a page, a script, a payload and an API answer come in brotli to a client that accepts it', async ({ request }) => {
  const page = await request.get('/en', { headers: BR });
  expect(page.status()).toBe(200);
  expect(page.headers()['content-encoding']).toBe('br');
  expect(page.headers()['x-render']).toBe('prerendered');
  expect(page.headers()['vary']).toContain('Accept-Encoding');
  expect(page.headers()['etag']).toMatch(/-br"$/);
  expect(page.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  const html = await page.text();
  expect(html).toContain('<html');

  const script = [...html.matchAll(/(?:src|href)="(\/_astro\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  expect(script.length).toBeGreaterThan(0);
  let encoded = 0;
  for (const src of script) {
    const asset = await get(src, BR);
    const plain = await get(src);
    expect(asset.status).toBe(200);
    if (plain.bytes.byteLength >= 1024) {
      expect(asset.headers['content-encoding'], src).toBe('br');
      expect(brotliDecompressSync(asset.bytes).equals(plain.bytes)).toBe(true);
      encoded++;
    }
  }
  expect(encoded).toBeGreaterThan(0);

  const payload = await request.get(`/en${DATA.aboutUs}/_payload.json`, { headers: BR });
  expect(payload.headers()['content-encoding']).toBe('br');
  expect((await payload.json()).page.title).toBeTruthy();

  const api = await request.get('/api/news-feed?lang=en', { headers: BR });
  expect(api.status()).toBe(200);
  expect(api.headers()['content-encoding']).toBe('br');
  expect(api.headers()['content-type']).toContain('application/json');
  await api.json();
});

test('a 304 per coding: the brotli ETag revalidates, the identity one is a different representation', async () => {
  const first = await get('/en', BR);
  const etag = String(first.headers.etag);
  expect((await get('/en', { ...BR, 'If-None-Match': etag })).status).toBe(304);
  const plain = await get('/en', { 'If-None-Match': etag });
  expect([plain.status, plain.headers['content-encoding']]).toEqual([200, undefined]);
  const head = await get('/en', BR, 'HEAD');
  expect([head.headers['content-encoding'], head.headers['content-length'], head.bytes.byteLength]).toEqual(['br', String(first.bytes.byteLength), 0]);
});

test('no answer over 1 KB goes out uncompressed to a client that accepts br and gzip (a sample of the route table)', async () => {
  const latest = JSON.parse(readFileSync(join(STATIC, 'localhost/builds/latest.json'), 'utf8')) as { id: string };
  const meta = JSON.parse(readFileSync(join(STATIC, 'localhost/builds/meta', `${latest.id}.json`), 'utf8')) as { routes: Record<string, unknown> };
  const routes = Object.keys(meta.routes).sort();
  const step = Math.max(1, Math.floor(routes.length / 25));
  const sample = routes.filter((_, i) => i % step === 0);
  const paths = [
    ...sample, ...sample.slice(0, 8).map((r) => `${r}/_payload.json`),
    '/sitemap.xml', `/builds/meta/${latest.id}.json`,
    // On demand: parameters that change the page, a 404, the API.
    '/en/stories?page=2', `/en${DATA.aboutUs}?direct=1`, '/en/no-such-page-at-all', '/api/news-feed?lang=en',
  ];
  const offenders: string[] = [];
  for (const path of paths) {
    const res = await get(path, { 'Accept-Encoding': 'gzip, deflate, br' });
    if (res.status === 304 || res.status === 301 || res.status === 302) continue;
    if (res.bytes.byteLength > 1024 && !res.headers['content-encoding']) offenders.push(`${path} (${res.status}, ${res.bytes.byteLength} bytes, ${res.headers['content-type']})`);
  }
  expect(offenders).toEqual([]);
});
