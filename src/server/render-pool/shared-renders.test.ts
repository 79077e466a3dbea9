import { describe, expect, it } from 'vitest';
import { SharedRenders, sharedRenderKey, type SharedRenderRequest } from './shared-renders.ts';

const request = (path: string, more: Partial<Omit<SharedRenderRequest, 'url' | 'headers'>> & { headers?: Record<string, string> } = {}): SharedRenderRequest => {
  const { headers, ...rest } = more;
  return {
    method: 'GET', url: new URL(`http://localhost:4321${path}`), headers: new Headers(headers), releaseId: 'r1',
    notFound: true, pagePath: null, siteId: 'main', localeSegment: 'en', customerShell: false, plain: true, ...rest,
  };
};
const shell = (path: string, more: Parameters<typeof request>[1] = {}) => request(path, { notFound: false, pagePath: '/mykomax', customerShell: true, ...more });

/** The 404 page as the App renders it: the path in the language menu of every locale. */
const notFoundPage = (tail: string, extra = '') => new Response(`<html><a href="/de${tail}">Deutsch</a><a href="/fr${tail}">Français</a>${extra}</html>`, {
  status: 404, headers: { 'Content-Type': 'text/html', 'Content-Security-Policy': "script-src 'sha256-x'" },
});

describe('sharedRenderKey: which renders may be shared', () => {
  it('shares a 404 per site × locale × the cookies pages read, with the path below the locale as the part filled in', () => {
    const a = sharedRenderKey(request('/en/no-such-page-1'))!;
    const b = sharedRenderKey(request('/en/other/missing-page'))!;
    expect(a).toEqual({ key: b.key, fill: '/no-such-page-1' });
    expect(b.fill).toBe('/other/missing-page');
    expect(sharedRenderKey(request('/de/no-such-page-1', { localeSegment: 'de' }))!.key).not.toBe(a.key);
    expect(sharedRenderKey(request('/en/no-such-page-1', { siteId: 'events' }))!.key).not.toBe(a.key);
    expect(sharedRenderKey(request('/en/no-such-page-1', { headers: { cookie: 'measurement=imperial' } }))!.key).not.toBe(a.key);
  });

  it('shares a customer-area shell per path (its locale in it) and cookie values', () => {
    const a = sharedRenderKey(shell('/en/mykomax'))!;
    expect(a.fill).toBeNull();
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
      request('/en/no-such-page-1', { notFound: false, pagePath: '/about-us' }),
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

  it('does not count the same path twice as proof', async () => {
    const cache = new SharedRenders();
    const key = sharedRenderKey(request('/en/same-missing'))!;
    await cache.offer('r1', key, notFoundPage('/same-missing'));
    await cache.offer('r1', key, notFoundPage('/same-missing'));
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
});
