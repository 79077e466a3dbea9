import { describe, expect, it } from 'vitest';
import { allowedImageTransforms } from '../../components/ui/image-presets.ts';
import { imageRequest, isAllowedRemote, isImageEndpoint, parseImageParams } from './image-params.ts';

const parse = (query: string) => parseImageParams(new URLSearchParams(query));
const PIM = encodeURIComponent('http://127.0.0.1:4101/assets/img/p1.svg');

describe('parseImageParams', () => {
  it('accepts what Astro emits for catalogue presets and local assets', () => {
    expect(parse(`href=${PIM}&w=480&h=480&q=90&f=webp&fit=contain`)).toEqual({
      ok: true,
      params: { href: 'http://127.0.0.1:4101/assets/img/p1.svg', w: 480, h: 480, q: 90, f: 'webp', fit: 'contain' },
    });
    expect(parse('href=%2F_astro%2Fplaceholder.B1x_9-z.svg&w=128&h=180&f=png&q=90&fit=cover')).toMatchObject({ ok: true });
    expect(parse(`href=${encodeURIComponent('http://localhost:4100/assets/img/a.svg')}&w=1&f=avif&q=high`)).toMatchObject({ ok: true, params: { q: 'high' } });
    expect(parse(`href=${PIM}&h=4000&f=jpeg&q=100&fit=scale-down`)).toMatchObject({ ok: true });
  });

  it.each([
    ['', 'href is required'],
    ['w=10&f=webp', 'href is required'],
    [`href=${PIM}&w=10`, 'f must be one of webp, png, avif, jpeg, jpg'],
    [`href=${PIM}&f=webp`, 'w or h is required'],
    [`href=${PIM}&w=abc&f=webp`, 'w must be a whole number from 1 to 4000'],
    [`href=${PIM}&w=99999&f=webp`, 'w must be a whole number from 1 to 4000'],
    [`href=${PIM}&w=4001&f=webp`, 'w must be a whole number from 1 to 4000'],
    [`href=${PIM}&w=0&f=webp`, 'w must be a whole number from 1 to 4000'],
    [`href=${PIM}&w=-5&f=webp`, 'w must be a whole number from 1 to 4000'],
    [`href=${PIM}&w=1.5&f=webp`, 'w must be a whole number from 1 to 4000'],
    [`href=${PIM}&w=1e3&f=webp`, 'w must be a whole number from 1 to 4000'],
    [`href=${PIM}&w=010&f=webp`, 'w must be a whole number from 1 to 4000'],
    [`href=${PIM}&w=10&h=&f=webp`, 'h must be a whole number from 1 to 4000'],
    [`href=${PIM}&w=10&f=exe`, 'f must be one of webp, png, avif, jpeg, jpg'],
    [`href=${PIM}&w=10&f=svg`, 'f must be one of webp, png, avif, jpeg, jpg'],
    [`href=${PIM}&w=10&f=WEBP`, 'f must be one of webp, png, avif, jpeg, jpg'],
    [`href=${PIM}&w=10&f=webp&q=0`, 'q must be a whole number from 1 to 100 or one of low, mid, high, max'],
    [`href=${PIM}&w=10&f=webp&q=101`, 'q must be a whole number from 1 to 100 or one of low, mid, high, max'],
    [`href=${PIM}&w=10&f=webp&q=best`, 'q must be a whole number from 1 to 100 or one of low, mid, high, max'],
    [`href=${PIM}&w=10&f=webp&fit=stretch`, 'fit must be one of fill, contain, cover, none, scale-down'],
    [`href=${PIM}&w=10&f=webp&background=red`, 'Unknown parameter "background" (allowed: href, w, h, f, q, fit)'],
    [`href=${PIM}&w=10&f=webp&cachebuster=1`, 'Unknown parameter "cachebuster" (allowed: href, w, h, f, q, fit)'],
    [`href=${PIM}&w=10&w=20&f=webp`, 'w must be given once'],
  ])('rejects %j: %s', (query, message) => {
    expect(parse(query)).toEqual({ ok: false, message });
  });

  it.each([
    'https://evil.example/a.png',
    'http://evil.example/a.svg',
    'http://127.0.0.1.evil.example/a.svg',
    'http://localhost@evil.example/a.svg',
    'http://user:pw@127.0.0.1/a.svg',
    'https://127.0.0.1/a.svg',
    'ftp://127.0.0.1/a.svg',
    'file:///etc/passwd',
    'data:image/svg+xml,<svg onload=alert(1)>',
    '//evil.example/a.svg',
    '/etc/passwd',
    '/_astro/../server/entry.mjs',
    '/_astro/sub/a.svg',
    '/_astro/a.svg?x=1',
    '/_astro/a.html',
    'a.svg',
    `http://127.0.0.1/${'a'.repeat(2100)}.svg`,
  ])('rejects the source %j', (href) => {
    const result = parse(`href=${encodeURIComponent(href)}&w=10&f=webp`);
    expect(result.ok).toBe(false);
    expect((result as { message: string }).message).toMatch(/^href must be/);
  });
});

describe('isAllowedRemote', () => {
  it('follows Astro remotePatterns semantics', () => {
    const patterns = [{ protocol: 'https', hostname: '**.cdn.example', pathname: '/img/**' }, { hostname: '*.one.example', port: '8443' }];
    expect(isAllowedRemote('https://a.b.cdn.example/img/x/y.png', patterns)).toBe(true);
    expect(isAllowedRemote('https://cdn.example/img/y.png', patterns)).toBe(false);
    expect(isAllowedRemote('http://a.cdn.example/img/y.png', patterns)).toBe(false);
    expect(isAllowedRemote('https://a.cdn.example/other/y.png', patterns)).toBe(false);
    expect(isAllowedRemote('https://x.one.example:8443/y.png', patterns)).toBe(true);
    expect(isAllowedRemote('https://x.y.one.example:8443/y.png', patterns)).toBe(false);
    expect(isAllowedRemote('https://x.one.example/y.png', patterns)).toBe(false);
  });
});

describe('isImageEndpoint', () => {
  it.each(['/_image', '/%5Fimage', '/%5fimage', '//_image', '///_image', '/_image/', '/_image%2F', '/%2F_image', '/%255Fimage', '/_IMAGE', '\\_image'])('takes %j as the image endpoint', (path) => {
    expect(isImageEndpoint(path)).toBe(true);
  });

  it.each(['/', '/en', '/_images', '/en/_image', '/_image.png', '/_astro/_image', '/%E0%A4%A'])('does not take %j', (path) => {
    expect(isImageEndpoint(path)).toBe(false);
  });
});

describe('imageRequest: only the image presets\' transforms are rendered (issue 28)', () => {
  const q = (w: number | null, h: number | null, rest = 'f=webp&q=90&fit=cover') => new URLSearchParams(`href=${PIM}${w ? `&w=${w}` : ''}${h ? `&h=${h}` : ''}&${rest}`);

  it('renders every transform the presets make, under one canonical path whatever the order and encoding of the query', () => {
    for (const t of allowedImageTransforms()) {
      expect(imageRequest(q(t.width, t.height, `f=${t.format}&q=${t.quality}&fit=${t.fit}`)).kind, `${t.width}x${t.height} ${t.fit} ${t.format}`).toBe('render');
    }
    const canonical = imageRequest(q(480, 270));
    expect(canonical).toEqual({ kind: 'render', path: `/_image?href=${PIM}&w=480&h=270&f=webp&q=90&fit=cover` });
    expect(imageRequest(new URLSearchParams(`fit=cover&q=90&f=webp&h=270&w=480&href=${encodeURIComponent('http://127.0.0.1:4101/assets/img/p1.svg').replace('%3A', '%3a')}`))).toEqual(canonical);
  });

  it('renders the 2x density of each srcset width', () => {
    expect(imageRequest(q(1560, 878)).kind).toBe('render'); // Inline 780x439 at 2x
    expect(imageRequest(q(112, 112, 'f=webp&q=90&fit=contain')).kind).toBe('render'); // GalleryThumbnail 56 at 2x
  });

  it('sends another width of a preset\'s shape to the nearest width the presets render', () => {
    expect(imageRequest(q(500, 281))).toEqual({ kind: 'redirect', location: `/_image?href=${PIM}&w=490&h=276&f=webp&q=90&fit=cover` });
    expect(imageRequest(q(470, 264))).toMatchObject({ kind: 'redirect', location: expect.stringContaining('&w=480&h=270&') });
    expect(imageRequest(q(1, 1, 'f=webp&q=90&fit=contain'))).toEqual({ kind: 'redirect', location: `/_image?href=${PIM}&w=40&h=40&f=webp&q=90&fit=contain` });
    expect(imageRequest(q(4000, 2250))).toMatchObject({ kind: 'redirect', location: expect.stringContaining('&w=2400&h=1350&') });
    expect(imageRequest(q(3999, 3999))).toMatchObject({ kind: 'redirect', location: expect.stringContaining('&w=1920&h=1920&') });
  });

  it.each([
    [q(333, 777), '333x777 is not a size of the image presets'],
    [q(480, null), 'w and h are both required: a size of the image presets'],
    [q(null, 270), 'w and h are both required: a size of the image presets'],
    [q(480, 270, 'f=webp&q=80&fit=cover'), 'q must be the image presets\' quality: 90, 100'],
    [q(480, 270, 'f=webp&q=high&fit=cover'), 'q must be the image presets\' quality: 90, 100'],
    [q(480, 270, 'f=avif&q=90&fit=cover'), 'f must be one the image presets use: webp, png'],
    [q(480, 270, 'f=webp&q=90'), 'fit must be one the image presets use: cover, contain'],
    [q(480, 270, 'f=webp&q=90&fit=fill'), 'fit must be one the image presets use: cover, contain'],
    [q(480, 270, 'f=png&q=90&fit=cover'), '480x270 is not a size of the image presets'],
  ])('refuses %s: %s', (query, message) => {
    expect(imageRequest(query)).toEqual({ kind: 'refuse', message });
  });

  it('keeps the checks of parseImageParams first', () => {
    expect(imageRequest(new URLSearchParams(`href=${PIM}&w=480&h=270&f=webp&q=90&fit=cover&x=1`))).toEqual({ kind: 'refuse', message: 'Unknown parameter "x" (allowed: href, w, h, f, q, fit)' });
  });
});
