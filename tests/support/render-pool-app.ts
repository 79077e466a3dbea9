// A stand-in for the built Astro App (its `render`), small enough to load in a render thread of a
// unit test (src/server/render-pool/). Only erasable TypeScript: render threads load it with
// Node's own type stripping. Its routes cover what an on-demand answer carries.

/** Blocks the thread (a render busy with CPU, not waiting for I/O). */
function spin(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) { /* busy */ }
}

export const SLOW_RENDER_MS = 1500;

export const app = {
  async render(request: Request, opts: { locals?: { releaseId?: string }; clientAddress?: string } = {}): Promise<Response> {
    const url = new URL(request.url);
    const html = (s: string) => `<!doctype html><html lang="en"><body>${s}</body></html>`;
    switch (url.pathname) {
      case '/en/page': {
        const headers = new Headers({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'self'; script-src 'sha256-abc'", 'Cache-Control': 'private, no-store' });
        headers.append('Set-Cookie', 'locale=en; Path=/; HttpOnly; SameSite=Lax');
        headers.append('Set-Cookie', 'measurement=metric; Path=/; SameSite=Lax');
        const body = html(`<h1>${request.method} ${url.host}${url.pathname}</h1><p>release ${opts.locals?.releaseId}</p><p>from ${opts.clientAddress}</p><p>cookie ${request.headers.get('cookie')}</p><p>ü ✓ 漢字</p>`);
        return new Response(body, { status: 200, headers });
      }
      case '/en/missing':
        return new Response(html('<h1>Page not found</h1>'), { status: 404, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'self'" } });
      case '/EN/page':
        return new Response(null, { status: 301, headers: { Location: '/en/page' } });
      case '/en/big':
        return new Response(html('<p>Komax wire processing</p>'.repeat(2000)), { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
      case '/en/slow':
        spin(SLOW_RENDER_MS);
        return new Response(html('slow'), { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
      case '/en/throws':
        throw Object.assign(new Error('the content hub is down'), { unavailable: true });
      case '/en/crash':
        // A render that takes its thread down (out of memory, a native fault).
        process.exit(3);
        break;
      case '/en/hang':
        return new Promise<Response>(() => {});
    }
    return new Response(html('fallback'), { status: 404, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  },
};
