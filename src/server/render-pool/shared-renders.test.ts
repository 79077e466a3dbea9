import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { KEPT_TIMING, SharedRenders, sharedRenderKey, type SharedRenderRequest } from './shared-renders.ts';

const request = (path: string, more: Partial<Omit<SharedRenderRequest, 'url' | 'headers'>> & { headers?: Record<string, string> } = {}): SharedRenderRequest => {
  const { headers, ...rest } = more;
  return {
    method: 'GET', url: new URL(`http://localhost:4321${path}`), headers: new Headers(headers), releaseId: 'r1',
    pagePath: null, siteId: 'main', localeSegment: 'en', customerShell: false, plain: true, route: '/[...path]', ...rest,
  };
};
const shell = (path: string, more: Parameters<typeof request>[1] = {}) => request(path, { pagePath: '/mykomax', customerShell: true, ...more });

/** The 404 page as the App renders it: the path in the language menu of every locale. */
const notFoundPage = (tail: string, extra = '') => new Response(`<html><a href="/de${tail}">Deutsch</a><a href="/fr${tail}">Français</a>${extra}</html>`, {
  status: 404, headers: { 'Content-Type': 'text/html', 'Content-Security-Policy': "script-src 'sha256-x'" },
});

describe('sharedRenderKey: which renders may be shared', () => {
  it('shares a 404 per site × locale × the cookies pages read, with the path below the locale as the part filled in', () => {
    const a = sharedRenderKey(request('/en/no-such-page-1'))!;
    const b = sharedRenderKey(request('/en/other/missing-page'))!;
    expect(a).toEqual({ kind: '404', key: b.key, fill: '/no-such-page-1' });
    expect(b.fill).toBe('/other/missing-page');
    expect(sharedRenderKey(request('/de/no-such-page-1', { localeSegment: 'de' }))!.key).not.toBe(a.key);
    expect(sharedRenderKey(request('/en/no-such-page-1', { siteId: 'events' }))!.key).not.toBe(a.key);
    expect(sharedRenderKey(request('/en/no-such-page-1', { headers: { cookie: 'measurement=imperial' } }))!.key).not.toBe(a.key);
    // Each route its own 404 page (the catalogue's allows other inline styles).
    expect(sharedRenderKey(request('/en/products/no-such-product', { route: '/[locale]/products/[...path]' }))!.key).not.toBe(a.key);
  });

  it('shares a customer-area shell per path (its locale in it) and cookie values', () => {
    const a = sharedRenderKey(shell('/en/mykomax'))!;
    expect(a.fill).toBeNull();
    expect(a.kind).toBe('shell');
    expect(sharedRenderKey(shell('/de/mykomax', { localeSegment: 'de' }))!.key).not.toBe(a.key);
    expect(sharedRenderKey(shell('/en/mykomax/account'))!.key).not.toBe(a.key);
    expect(sharedRenderKey(shell('/en/mykomax', { headers: { cookie: 'locale=de' } }))!.key).not.toBe(a.key);
  });

  it('shares nothing that may be personal or special: other cookies, credentials, queries, previews, other methods, other pages', () => {
    for (const r of [
      request('/en/no-such-page-1', { headers: { cookie: 'kmx_editor=x' } }),
      shell('/en/mykomax', { headers: { cookie: 'locale=en; grant_42=abc' } }),
      shell('/en/mykomax', { headers: { authorization: 'Bearer t' } }),
      request('/en/no-such-page-1?q=1'),
      request('/en/no-such-page-1', { plain: false }),
      request('/en/no-such-page-1', { method: 'POST' }),
      // Paths the HTML would escape, or too short to be found only where the path is.
      request('/en/a%22b-page'),
      request('/en/abc'),
    ]) expect(sharedRenderKey(r), `${r.method} ${r.url.pathname}${r.url.search}`).toBeNull();
  });
});

describe('SharedRenders: kept once two visitors got the same render', () => {
  it('keeps a 404 after a second path renders exactly as the first with its path filled in, then answers any path from it', async () => {
    const cache = new SharedRenders();
    const key = (tail: string) => sharedRenderKey(request(`/en${tail}`))!;
    // First render: only a candidate.
    expect(await (await cache.offer('r1', key('/first-missing'), notFoundPage('/first-missing'))).text()).toBe(await notFoundPage('/first-missing').text());
    expect(cache.get('r1', key('/second-missing'))).toBeNull();
    await cache.offer('r1', key('/second-missing'), notFoundPage('/second-missing'));
    const kept = cache.get('r1', key('/third-missing'))!;
    const fresh = notFoundPage('/third-missing');
    expect(kept.headers.get('server-timing')).toBe(KEPT_TIMING);
    kept.headers.delete('server-timing');
    expect([kept.status, [...kept.headers], await kept.text()]).toEqual([fresh.status, [...fresh.headers], await fresh.text()]);
    expect(cache.hits).toBe(1);
  });

  it('never keeps a render that differs between visitors (a name in it), nor one that sets a cookie', async () => {
    const cache = new SharedRenders();
    const key = sharedRenderKey(shell('/en/mykomax'))!;
    const personal = (name: string) => new Response(`<p>Hello ${name}</p>`, { status: 200, headers: { 'Content-Type': 'text/html' } });
    for (const name of ['Ada', 'Bob', 'Cy', 'Di', 'Ed']) await cache.offer('r1', key, personal(name));
    expect(cache.get('r1', key)).toBeNull();
    const withCookie = () => new Response('<p>shell</p>', { status: 200, headers: { 'Set-Cookie': 'locale=en' } });
    await cache.offer('r1', key, withCookie());
    await cache.offer('r1', key, withCookie());
    expect(cache.get('r1', key)).toBeNull();
  });

  it('counts the same path twice as proof for that path alone, and another path as proof for every path', async () => {
    const cache = new SharedRenders();
    const key = (tail: string) => sharedRenderKey(request(`/en${tail}`))!;
    await cache.offer('r1', key('/same-missing'), notFoundPage('/same-missing'));
    expect(cache.get('r1', key('/same-missing'))).toBeNull();
    await cache.offer('r1', key('/same-missing'), notFoundPage('/same-missing'));
    expect(await cache.get('r1', key('/same-missing'))?.text()).toBe(await notFoundPage('/same-missing').text());
    expect(cache.get('r1', key('/other-missing'))).toBeNull();
    await cache.offer('r1', key('/other-missing'), notFoundPage('/other-missing'));
    expect(await cache.get('r1', key('/third-missing'))?.text()).toBe(await notFoundPage('/third-missing').text());
  });

  it('keeps nothing for a path whose renders differ between two requests', async () => {
    const cache = new SharedRenders();
    const key = sharedRenderKey(request('/en/same-missing'))!;
    await cache.offer('r1', key, notFoundPage('/same-missing', '<p>for Ada</p>'));
    await cache.offer('r1', key, notFoundPage('/same-missing', '<p>for Bob</p>'));
    expect(cache.get('r1', key)).toBeNull();
  });

  it('keeps a shell after two identical renders, and drops everything when the live release changes', async () => {
    const cache = new SharedRenders();
    const key = sharedRenderKey(shell('/en/mykomax'))!;
    const page = () => new Response('<main id="dashboard"></main>', { status: 200, headers: { 'Content-Type': 'text/html' } });
    await cache.offer('r1', key, page());
    await cache.offer('r1', key, page());
    expect(await cache.get('r1', key)?.text()).toBe('<main id="dashboard"></main>');
    expect(cache.get('r2', key)).toBeNull();
    expect(cache.size).toBe(0);
  });

  it('offers a 404 key only a 404 answer, and a shell key only a 200 (a page that exists is not the 404 page)', async () => {
    const cache = new SharedRenders();
    const key = (tail: string) => sharedRenderKey(request(`/en${tail}`))!;
    const page = (tail: string) => new Response(`<html><a href="/de${tail}">Deutsch</a></html>`, { status: 200, headers: { 'Content-Type': 'text/html' } });
    await cache.offer('r1', key('/existing-one'), page('/existing-one'));
    await cache.offer('r1', key('/existing-two'), page('/existing-two'));
    expect(cache.get('r1', key('/existing-three'))).toBeNull();
    const shellKey = sharedRenderKey(shell('/en/mykomax'))!;
    const missing = () => new Response('<p>missing</p>', { status: 404, headers: { 'Content-Type': 'text/html' } });
    await cache.offer('r1', shellKey, missing());
    await cache.offer('r1', shellKey, missing());
    expect(cache.get('r1', shellKey)).toBeNull();
  });

  it('answers a kept shell compressed once in the coding asked for, the same bytes as the render once decoded', async () => {
    const cache = new SharedRenders();
    const key = sharedRenderKey(shell('/en/mykomax'))!;
    const html = `<main id="dashboard">${'<p>Tickets, inventory and users in one place.</p>'.repeat(60)}</main>`;
    // The render's own length is not the compressed answer's.
    const page = () => new Response(html, { status: 200, headers: { 'Content-Type': 'text/html', 'Cache-Control': 'no-cache', 'Content-Length': String(html.length) } });
    await cache.offer('r1', key, page());
    await cache.offer('r1', key, page());
    const br = cache.get('r1', key, 'gzip, deflate, br')!;
    expect([br.headers.get('content-encoding'), br.headers.get('cache-control')]).toEqual(['br', 'no-cache']);
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.byteLength).toBeLessThan(html.length / 4);
    expect(brotliDecompressSync(brBytes).toString()).toBe(html);
    expect(br.headers.get('content-length')).toBeNull();
    const gz = cache.get('r1', key, 'gzip')!;
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(html);
    const plain = cache.get('r1', key, null)!;
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(html);
    // The second brotli answer is the bytes made for the first.
    expect(Buffer.from(await cache.get('r1', key, 'br')!.arrayBuffer()).equals(brBytes)).toBe(true);
  });

  it('keeps a small or binary shell as it is (not worth compressing, as the serving thread decides)', async () => {
    const cache = new SharedRenders();
    const key = sharedRenderKey(shell('/en/mykomax'))!;
    const page = () => new Response('<main id="dashboard"></main>', { status: 200, headers: { 'Content-Type': 'text/html' } });
    await cache.offer('r1', key, page());
    await cache.offer('r1', key, page());
    const kept = cache.get('r1', key, 'br')!;
    expect(kept.headers.get('content-encoding')).toBeNull();
    expect(await kept.text()).toBe('<main id="dashboard"></main>');
  });
});
