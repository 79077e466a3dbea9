import { test, expect, raw, PORT, type RawResponse } from './fixtures/index.ts';
import { editorCookieHeader, E2E_EDITOR_PASSWORD } from './fixtures/editor.ts';
import { observatoryGrade, parseSetCookie, type ObservatoryGrade } from '../support/observatory.ts';

// HTTP Observatory A+ (issue 15, scope 5): the real headers of every kind of response the running
// server sends, graded by the Observatory's published rules (tests/support/observatory.ts).
//
// Graded as the deployment serves them: over https (TLS ends at the proxy or CDN, which passes our
// headers through), so the HSTS, SRI and insecure-scheme rules apply. One substitution, stated
// here: the emulators of this test run are plain http on loopback, and the build's policy names
// them (img-src http://127.0.0.1:*, the third-party scripts' origin); in a deployment those are the
// services' https origins, so loopback http origins are read as https before grading. Nothing else
// is changed. Cookies of a local host have no `Secure` (by design, see isLocalHostname): the grade
// counts that as it is (-5, still A+), and the cookie attributes are checked on their own below.

const SCANNED = 'www.komax.example';

interface Kind {
  name: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Statuses this kind answers. */
  status: number[];
}

const asHttps = (text: string) => text.replace(/http:\/\/(127\.0\.0\.1|localhost)(?=[:/\s;'"]|$)/g, 'https://$1');

function headersAsDeployed(res: RawResponse): Record<string, string | string[] | undefined> {
  const out: Record<string, string | string[] | undefined> = { ...res.headers };
  const csp = res.headers['content-security-policy'];
  if (typeof csp === 'string') out['content-security-policy'] = asHttps(csp);
  return out;
}

/** The kind's answer, the answer asked with a foreign Origin (CORS), and the http hop behind a TLS proxy. */
async function gradeKind(kind: Kind): Promise<{ res: RawResponse; grade: ObservatoryGrade }> {
  const opts = { method: kind.method, headers: kind.headers, body: kind.body };
  const res = await raw(kind.path, opts);
  expect(kind.status, `${kind.name}: ${kind.path} answered ${res.status}`).toContain(res.status);
  const cors = await raw(kind.path, { ...opts, headers: { ...kind.headers, origin: 'https://evil.example' } });
  const hop = await raw(kind.path, { ...opts, host: SCANNED, headers: { ...kind.headers, 'x-forwarded-proto': 'http' } });
  expect([301, 308], `${kind.name}: the http hop`).toContain(hop.status);
  const grade = observatoryGrade({
    response: { url: `https://localhost:${PORT}${kind.path}`, status: res.status, headers: headersAsDeployed(res), body: asHttps(res.text) },
    httpRedirects: [{ url: `http://${SCANNED}${kind.path}` }, { url: hop.headers.location as string }],
    cors: { origin: 'https://evil.example', headers: cors.headers },
  });
  return { res, grade };
}

test.describe('HTTP Observatory grade of every kind of response', () => {
  test('A+ (at least 100) on pages, the customer area, the editor, APIs, assets, errors, redirects and 304s', async () => {
    const home = await raw('/en');
    const script = /src="(\/_astro\/[^"]+\.js)"/.exec(home.text)?.[1];
    const image = /src="(\/_image\?[^"]+)"/.exec(home.text)?.[1]?.replace(/&amp;/g, '&');
    expect(script, 'a module script on /en').toBeTruthy();
    expect(image, 'an image on /en').toBeTruthy();
    const report = JSON.stringify({ 'csp-report': { 'document-uri': `http://localhost:${PORT}/en`, 'violated-directive': 'img-src', 'blocked-uri': 'https://evil.example/x.png' } });

    const kinds: Kind[] = [
      { name: 'prerendered page', path: '/en', status: [200] },
      { name: '304 of a prerendered page', path: '/en', headers: { 'if-none-match': home.headers.etag as string }, status: [304] },
      { name: 'on-demand page', path: '/en/stories?page=2', status: [200] },
      { name: 'search results', path: '/en/search?q=crimp', status: [200] },
      { name: 'customer area', path: '/en/mykomax', status: [200] },
      { name: 'sign-in callback frame', path: '/blank-callback', status: [200] },
      { name: 'editor sign-in page', path: '/en/editor', status: [200] },
      { name: 'editor area', path: '/en/editor', headers: { cookie: editorCookieHeader() }, status: [200] },
      { name: 'editor sign-in API (sets the session cookie)', path: '/api/editor-area-autentication', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: E2E_EDITOR_PASSWORD }), status: [200] },
      { name: 'draft preview start (sets the preview cookie)', path: '/en?preview=DRAFT', headers: { cookie: editorCookieHeader() }, status: [302] },
      { name: 'next-release toggle (sets its cookie)', path: '/en?nextRelease=true', status: [200] },
      { name: 'API (GET)', path: '/api/news-feed?lang=en', status: [200] },
      { name: 'API (POST, CSP report)', path: '/api/csp-report', method: 'POST', headers: { 'content-type': 'application/csp-report' }, body: report, status: [204] },
      { name: 'API error', path: '/api/mykomax/session', status: [401] },
      { name: 'static asset', path: script!, status: [200] },
      { name: 'favicon', path: '/favicon.svg', status: [200] },
      { name: 'image endpoint', path: image!, status: [200] },
      { name: 'payload', path: '/en/_payload.json', status: [200] },
      { name: 'sitemap', path: '/sitemap.xml', status: [200] },
      { name: '404 page', path: '/en/no-such-page', status: [404] },
      { name: '400 refused path', path: '/en/%2e%2e/x', status: [400] },
      { name: '414 long path', path: `/en/${'a'.repeat(3000)}`, status: [414] },
      { name: '405 method', path: '/en', method: 'TRACE', status: [405] },
      { name: 'trailing-slash redirect', path: '/en/about-us/', status: [301] },
      { name: 'locale redirect', path: '/about-us', status: [302] },
    ];
    const table: string[] = [];
    for (const kind of kinds) {
      const { res, grade } = await gradeKind(kind);
      const failing = Object.entries(grade.tests).filter(([, t]) => t.modifier < 0).map(([name, t]) => `${name}: ${t.result} (${t.modifier})`);
      table.push(`${kind.name.padEnd(48)} ${String(res.status).padEnd(4)} ${String(grade.score).padStart(4)} ${grade.grade}${failing.length ? `  [${failing.join('; ')}]` : ''}`);
      expect.soft(grade.score, `${kind.name}: ${failing.join('; ')}`).toBeGreaterThanOrEqual(100);
      expect.soft(grade.grade, kind.name).toBe('A+');
    }
    console.log(`kind${' '.repeat(45)}status score\n${table.join('\n')}`);
  });

  test('every HTML page: a CSP header without unsafe-inline scripts, objects off, base and framing locked', async () => {
    for (const path of ['/en', '/en/stories?page=2', '/en/mykomax', '/en/editor', '/en/no-such-page', '/en/search?q=x', '/en/about-us']) {
      const res = await raw(path);
      const csp = res.headers['content-security-policy'] as string;
      expect(csp, path).toBeTruthy();
      const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...sources]) => [name!, sources]));
      const scripts = directives.get('script-src') ?? directives.get('default-src')!;
      expect(scripts, path).not.toContain("'unsafe-inline'");
      expect(scripts, path).not.toContain("'unsafe-eval'");
      expect(directives.get('object-src') ?? directives.get('default-src'), path).toEqual(["'none'"]);
      expect([["'none'"], ["'self'"]], path).toContainEqual(directives.get('base-uri'));
      expect(directives.get('frame-ancestors'), path).toEqual(["'none'"]);
      expect(directives.get('report-uri'), path).toEqual(['/api/csp-report']);
      expect(directives.get('report-to'), path).toEqual(['csp-endpoint']);
      expect(res.headers['reporting-endpoints'], path).toBe('csp-endpoint="/api/csp-report"');
      expect(Number(/max-age=(\d+)/.exec(res.headers['strict-transport-security'] as string)?.[1]), path).toBeGreaterThanOrEqual(31_536_000);
      expect(res.headers['cross-origin-resource-policy'], path).toBe('same-site');
    }
    // The one page that may be framed, by our own pages only.
    expect((await raw('/blank-callback')).headers['content-security-policy']).toContain("frame-ancestors 'self'");
  });

  test('every cookie the server sets is HttpOnly and SameSite (Secure outside localhost: unit-tested per cookie)', async () => {
    const setters: [string, Parameters<typeof raw>[1]][] = [
      ['/api/editor-area-autentication', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: E2E_EDITOR_PASSWORD }) }],
      ['/en?preview=DRAFT', { headers: { cookie: editorCookieHeader() } }],
      ['/en?preview=off', { headers: { cookie: `${editorCookieHeader()}; kmx_preview=DRAFT` } }],
      ['/en?nextRelease=true', {}],
      ['/en?nextRelease=false', { headers: { cookie: 'nextRelease=true' } }],
    ];
    let seen = 0;
    for (const [path, opts] of setters) {
      const res = await raw(path, opts);
      const cookies = [res.headers['set-cookie'] ?? []].flat();
      expect(cookies.length, path).toBeGreaterThan(0);
      for (const header of cookies) {
        const cookie = parseSetCookie(header);
        expect(cookie.httpOnly, header).toBe(true);
        expect(['lax', 'strict'], header).toContain(cookie.sameSite);
        seen++;
      }
    }
    expect(seen).toBeGreaterThanOrEqual(5);
  });
});

test.describe('the CSP reporting endpoint', () => {
  const post = (body: string, contentType: string) => raw('/api/csp-report', { method: 'POST', headers: { 'content-type': contentType }, body });

  test('takes both report formats with 204 and refuses anything else with a message', async () => {
    expect((await post(JSON.stringify({ 'csp-report': { 'document-uri': 'https://www.komax.example/en', 'violated-directive': 'script-src-elem', 'blocked-uri': 'inline' } }), 'application/csp-report')).status).toBe(204);
    expect((await post(JSON.stringify([{ type: 'csp-violation', url: 'https://www.komax.example/en', body: { effectiveDirective: 'img-src', blockedURL: 'https://evil.example/x.png' } }]), 'application/reports+json')).status).toBe(204);
    const wrongType = await post('{}', 'application/json');
    expect([wrongType.status, JSON.parse(wrongType.text).error]).toEqual([415, 'unsupported-media-type']);
    expect((await post('{"csp-report":', 'application/csp-report')).status).toBe(400);
    expect((await post(JSON.stringify({ 'csp-report': { 'script-sample': 'x'.repeat(20_000) } }), 'application/csp-report')).status).toBe(413);
    const get = await raw('/api/csp-report');
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
  });

  test('in the browser, a script the policy does not allow is blocked and the violation names the reporting endpoint', async ({ page }) => {
    await page.goto('/en');
    // An inline script the policy has no hash for. (The browser delivers the report through the
    // Reporting API in its own time, batched; the endpoint's answers are tested above.)
    const violation = await page.evaluate(() => new Promise<{ directive: string; disposition: string }>((resolve) => {
      document.addEventListener('securitypolicyviolation', (e) => resolve({ directive: e.effectiveDirective, disposition: e.disposition }), { once: true });
      const s = document.createElement('script');
      s.textContent = 'window.kmxInjected = true';
      document.body.append(s);
    }));
    expect(violation).toEqual({ directive: 'script-src-elem', disposition: 'enforce' });
    expect(await page.evaluate(() => (window as unknown as { kmxInjected?: boolean }).kmxInjected)).toBeUndefined();
  });
});
