import { test, expect, raw, PORT } from './fixtures/index.ts';

/** An SVG with <script> served by the content hub emulator (a hostile upload). */
const SCRIPT_SVG = `http://127.0.0.1:${PORT - 200}/assets/unsafe/script.svg`;
const image = (query: string) => raw(`/_image?${query}`);
const href = (u: string) => `href=${encodeURIComponent(u)}`;

/** An answer that a browser would run as a document: SVG (or anything not raster) shown inline. */
function isInlineActive(res: { status: number; headers: Record<string, string | string[] | undefined> }): boolean {
  const type = String(res.headers['content-type'] ?? '');
  if (res.status !== 200 || /^image\/(?:webp|png|avif|jpeg)$/.test(type)) return false;
  const sandboxed = /\bsandbox\b/.test(String(res.headers['content-security-policy'] ?? ''));
  const download = /^attachment/.test(String(res.headers['content-disposition'] ?? ''));
  return !(sandboxed && download);
}

test.describe('/_image', () => {
  test('an SVG with <script> never comes back as an inline SVG', async () => {
    const source = await fetch(SCRIPT_SVG);
    expect(source.headers.get('content-type')).toBe('image/svg+xml');
    expect(await source.text()).toContain('<script>');

    // The document thumbnail preset, the one made as png (only the presets' sizes are rendered).
    const rasterised = await image(`${href(SCRIPT_SVG)}&w=128&h=180&f=png&q=90&fit=cover`);
    expect(rasterised.status).toBe(200);
    expect(rasterised.headers['content-type']).toBe('image/png');
    expect(rasterised.text).not.toContain('<script');
    // The image's own policy, with the header-only directives every answer gets (framing, reporting).
    expect(rasterised.headers['content-security-policy']).toBe("sandbox; default-src 'none'; frame-ancestors 'none'; report-uri /api/csp-report; report-to csp-endpoint");

    for (const query of [`${href(SCRIPT_SVG)}&w=160&h=90`, `${href(SCRIPT_SVG)}&w=160&h=90&f=svg`, `${href(SCRIPT_SVG)}&w=480&h=270&f=webp&q=90&fit=cover`]) {
      const res = await image(query);
      expect(isInlineActive(res), query).toBe(false);
      expect(res.text, query).not.toContain('<script');
    }
  });

  test('bad parameters get 400 with a message, before Astro sees them', async () => {
    const good = `${href(SCRIPT_SVG)}&h=90&f=webp`;
    const cases: [string, RegExp][] = [
      [`${good}&w=abc`, /^w must be a whole number from 1 to 4000$/],
      [`${good}&w=99999`, /^w must be a whole number from 1 to 4000$/],
      [`${href(SCRIPT_SVG)}&w=10&f=exe`, /^f must be one of webp, png, avif, jpeg, jpg$/],
      [`${href('https://evil.example/cat.png')}&w=10&f=webp`, /^href must be an \/_astro\/ asset or an image on an allowed domain$/],
      [`${href('/etc/passwd')}&w=10&f=webp`, /^href must be/],
      [`${good}&w=10&q=1000`, /^q must be/],
      [`${good}&w=10&fit=stretch`, /^fit must be/],
      [`${good}&w=10&x=1`, /^Unknown parameter "x"/],
    ];
    for (const [query, message] of cases) {
      const res = await image(query);
      expect(res.status, query).toBe(400);
      expect(res.text, query).toMatch(message);
    }
  });

  test('only the image presets\' sizes are rendered: another width of a preset\'s shape is sent to the nearest, anything else is 400', async () => {
    const pim = `http://127.0.0.1:${PORT - 201}/assets/img/kappa-310.svg`;
    const near = await image(`${href(pim)}&w=470&h=264&f=webp&q=90&fit=cover`);
    expect(near.status).toBe(301);
    expect(near.headers.location).toBe(`/_image?${href(pim)}&w=480&h=270&f=webp&q=90&fit=cover`);
    const odd = await image(`${href(pim)}&w=1234&h=321&f=webp&q=90&fit=cover`);
    expect([odd.status, odd.text]).toEqual([400, '1234x321 is not a size of the image presets']);
    expect((await image(`${href(pim)}&w=480&h=270&f=webp&q=37&fit=cover`)).status).toBe(400);
  });

  test('other spellings of the endpoint path are checked too', async () => {
    for (const path of ['/%5Fimage', '//_image']) {
      const res = await raw(`${path}?${href(SCRIPT_SVG)}&w=160&h=90`);
      expect(res.status, path).toBe(400);
      expect(res.text, path).toBe('f must be one of webp, png, avif, jpeg, jpg');
    }
    // An encoded slash is refused before any route (src/server/http/request-target.ts).
    for (const path of ['/%2F_image', '/_image%2F']) {
      const res = await raw(`${path}?${href(SCRIPT_SVG)}&w=160&h=90`);
      expect([res.status, res.text], path).toEqual([400, 'Bad request: encoded slashes are not allowed in the path.']);
    }
  });

  test('the catalogue pictures (SVGs from the PIM) still come out as raster images', async () => {
    const pim = `http://127.0.0.1:${PORT - 201}/assets/img/kappa-310.svg`;
    const res = await image(`${href(pim)}&w=480&h=480&q=90&f=webp&fit=contain`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
  });
});
