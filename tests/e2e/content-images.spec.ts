import { test, expect } from './fixtures/index.ts';

// Content-module images go through the image service in the spec's asset presets (public-site §3:
// Stretched 1180, StretchedVideo 1200x675, BreakOut 980, Inline 780; webp, quality 90, crop) with
// a srcset never wider than the preset, fixed dimensions (no layout shift) and lazy loading except
// for the hero that opens the page.
const PRESETS: Record<string, { preset: string; width: number; height: number }> = {
  hero__image: { preset: 'Stretched', width: 1180, height: 664 },
  'image-text__image': { preset: 'BreakOut', width: 980, height: 551 },
  teaser__image: { preset: 'Inline', width: 780, height: 439 },
  video__poster: { preset: 'StretchedVideo', width: 1200, height: 675 },
  quote__portrait: { preset: 'ContactPortrait', width: 80, height: 80 },
  // The aside layouts (issue 29): AsideSquare 960x960 and AsideVideo 960x540.
  'aside-module__square': { preset: 'AsideSquare', width: 960, height: 960 },
  'aside-module__poster': { preset: 'AsideVideo', width: 960, height: 540 },
};

interface ImgInfo { cls: string; src: string; srcset: string; sizes: string; width: string; height: string; loading: string; fetchpriority: string | null }

/** Pages, the least number of module images on each and the kinds each must show. */
const PAGES: { path: string; min: number; kinds: string[] }[] = [
  { path: '/en', min: 4, kinds: ['hero__image'] },
  { path: '/en/solutions/digital-solutions', min: 4, kinds: ['hero__image'] },
  { path: '/en/about-us/quality', min: 3, kinds: ['aside-module__square', 'aside-module__poster'] },
];

for (const { path, min, kinds: expectedKinds } of PAGES) {
  test(`module images of ${path} use the presets with a srcset and load`, async ({ page, consoleErrors }) => {
    const images: string[] = [];
    page.on('response', (r) => { if (r.url().includes('/_image?')) images.push(`${r.status()} ${r.headers()['content-type']}`); });
    await page.goto(path);
    const main = page.getByRole('main');
    const imgs = await main.locator('img').evaluateAll((els) => els.map((e) => ({
      cls: e.className, src: e.getAttribute('src') ?? '', srcset: e.getAttribute('srcset') ?? '', sizes: e.getAttribute('sizes') ?? '',
      width: e.getAttribute('width') ?? '', height: e.getAttribute('height') ?? '', loading: e.getAttribute('loading') ?? '', fetchpriority: e.getAttribute('fetchpriority'),
    }) satisfies ImgInfo));
    expect(imgs.length).toBeGreaterThanOrEqual(min);
    const kinds = new Set<string>();
    for (const img of imgs) {
      const spec = PRESETS[img.cls];
      expect(spec, `${img.cls} has a preset`).toBeTruthy();
      kinds.add(img.cls);
      const url = new URL(img.src, 'http://x');
      expect(url.pathname).toBe('/_image');
      expect(Object.fromEntries(['w', 'h', 'f', 'q', 'fit'].map((k) => [k, url.searchParams.get(k)]))).toEqual({ w: String(spec!.width), h: String(spec!.height), f: 'webp', q: '90', fit: 'cover' });
      expect([img.width, img.height]).toEqual([String(spec!.width), String(spec!.height)]);
      const candidates = img.srcset.split(', ').map((c) => { const [u, d] = c.split(' '); return { url: new URL(u!, 'http://x'), w: Number(d!.slice(0, -1)) }; });
      expect(candidates.map((c) => c.w)).toEqual([0.5, 0.75, 1].map((f) => Math.round(spec!.width * f)));
      for (const c of candidates) {
        expect(c.url.pathname).toBe('/_image');
        expect(c.url.searchParams.get('w')).toBe(String(c.w));
        expect(c.w).toBeLessThanOrEqual(spec!.width);
      }
      expect(img.sizes).not.toBe('');
      if (img.cls === 'hero__image') expect([img.loading, img.fetchpriority]).toEqual(['eager', 'high']);
      else expect([img.loading, img.fetchpriority]).toEqual(['lazy', null]);
    }
    for (const kind of expectedKinds) expect(kinds.has(kind), kind).toBe(true);
    // Every image loads (lazy ones once scrolled to).
    for (const img of await main.locator('img').all()) {
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth > 0)).toBe(true);
    }
    // One answer per distinct image the browser chose (two teasers may show the same image).
    const chosen = new Set(await main.locator('img').evaluateAll((els) => els.map((e) => (e as HTMLImageElement).currentSrc)));
    expect(images.length).toBeGreaterThanOrEqual(chosen.size);
    expect(images.filter((r) => r !== '200 image/webp')).toEqual([]);
    void consoleErrors;
  });
}
