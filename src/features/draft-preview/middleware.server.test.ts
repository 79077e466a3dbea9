import { describe, expect, it, vi } from 'vitest';
import type { DataSource } from '../../lib/cache/data-cache.ts';
import { draftPreview, draftSource } from './middleware.server.ts';

/** The parts of Astro's context the helper reads. */
function ctx(path: string, cookie?: string, method = 'GET') {
  const url = new URL(`http://localhost${path}`);
  const request = new Request(url, { method, headers: cookie ? { cookie } : {} });
  const jar = new Map((cookie ?? '').split(/;\s*/).filter(Boolean).map((c) => c.split('=') as [string, string]));
  const cookies = { get: (name: string) => (jar.has(name) ? { value: jar.get(name)! } : undefined) };
  return { url, request, cookies } as unknown as Parameters<typeof draftPreview>[0];
}
const page = () => new Response('<html></html>', { status: 200, headers: { 'Cache-Control': 'public, max-age=60', 'Content-Type': 'text/html' } });

describe('draftPreview', () => {
  it('leaves a request without parameter or cookie alone, without checking the editor cookie', () => {
    const isEditor = vi.fn(() => true);
    const p = draftPreview(ctx('/en/about-us'), isEditor);
    expect(p.stage).toBe('PUBLISHED');
    expect(p.redirect).toBeNull();
    const res = page();
    expect(p.finish(res)).toBe(res);
    expect(isEditor).not.toHaveBeenCalled();
  });

  it('answers ?preview=DRAFT of an editor with a 302 to the clean URL that sets the cookie', () => {
    const p = draftPreview(ctx('/en/about-us?preview=DRAFT&x=1'), () => true);
    expect(p.redirect?.status).toBe(302);
    expect(p.redirect?.headers.get('location')).toBe('/en/about-us?x=1');
    expect(p.redirect?.headers.get('set-cookie')).toBe('kmx_preview=DRAFT; Path=/; HttpOnly; SameSite=Lax');
    expect(p.redirect?.headers.get('cache-control')).toBe('private, no-store');
  });

  it('renders an editor with the cookie in DRAFT: no-store and noindex', () => {
    const p = draftPreview(ctx('/en/about-us', 'kmx_preview=DRAFT'), () => true);
    expect(p.stage).toBe('DRAFT');
    const res = p.finish(page());
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
  });

  it('clears the cookie of a request without a valid editor cookie and renders PUBLISHED', () => {
    const p = draftPreview(ctx('/en/about-us', 'kmx_preview=DRAFT'), () => false);
    expect(p.stage).toBe('PUBLISHED');
    expect(p.redirect).toBeNull();
    const res = p.finish(page());
    expect(res.headers.get('set-cookie')).toBe('kmx_preview=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBeNull();
  });

  it('ignores a visitor\'s ?preview=DRAFT, API routes and other methods', () => {
    expect(draftPreview(ctx('/en/about-us?preview=DRAFT'), () => false)).toMatchObject({ stage: 'PUBLISHED', redirect: null });
    expect(draftPreview(ctx('/api/news-feed?preview=DRAFT', 'kmx_preview=DRAFT'), () => true)).toMatchObject({ stage: 'PUBLISHED', redirect: null });
    expect(draftPreview(ctx('/en/about-us', 'kmx_preview=DRAFT', 'POST'), () => true)).toMatchObject({ stage: 'PUBLISHED', redirect: null });
  });
});

describe('draftSource', () => {
  it('loads DRAFT records fresh per request, never through the shared cache; everything else goes through it', async () => {
    const shared: DataSource = { get: vi.fn((_key, load) => load()) };
    const source = draftSource(shared);
    const load = vi.fn(async () => 'draft page');
    const key = ['content', 'page', 'DRAFT', 'en', 'site-main', '/about-us'];
    expect(await source.get(key, load)).toBe('draft page');
    expect(await source.get(key, load)).toBe('draft page');
    expect(load).toHaveBeenCalledTimes(1);
    expect(shared.get).not.toHaveBeenCalled();
    await source.get(['catalogue', 'product', 'en', 'alpha-565'], async () => 'product');
    await source.get(['content', 'systemData', 'PUBLISHED'], async () => 'system');
    expect(shared.get).toHaveBeenCalledTimes(2);
    // Another request loads again.
    await draftSource(shared).get(key, load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
