import { describe, expect, it } from 'vitest';
import { allowedImageTransforms, IMAGE_DENSITIES, IMAGE_PRESETS, sourceFormats, srcsetOf, srcsetTransforms, transformOf, type PresetName, type TransformOptions } from './image-presets.ts';

describe('image presets', () => {
  it('hold the spec sizes (§3 asset presets, §9 image sizes)', () => {
    const size = (name: keyof typeof IMAGE_PRESETS) => [IMAGE_PRESETS[name].width, (IMAGE_PRESETS[name] as { height?: number }).height ?? null];
    expect(size('Stretched')).toEqual([1180, null]);
    expect(size('StretchedVideo')).toEqual([1200, 675]);
    expect(size('BreakOut')).toEqual([980, null]);
    expect(size('Inline')).toEqual([780, null]);
    expect(size('AsideSquare')).toEqual([960, 960]);
    expect(size('AsideVideo')).toEqual([960, 540]);
    expect(size('GalleryThumbnail')).toEqual([56, 56]);
    expect(size('Gallery')).toEqual([480, 480]);
    expect(size('LightboxThumbnail')).toEqual([80, 80]);
    expect(size('ProductCard')).toEqual([180, 180]);
    expect(size('Capability')).toEqual([480, null]);
    expect(size('Classification')).toEqual([480, null]);
    expect(size('ClassificationHighRes')).toEqual([1200, null]);
    expect(size('DocumentThumbnail')).toEqual([128, 180]);
    expect(size('VideoThumbnail')).toEqual([1180, null]);
  });

  it('default to webp at quality 90, cropped', () => {
    expect(transformOf('AsideSquare')).toEqual({ width: 960, height: 960, fit: 'cover', format: 'webp', quality: 90 });
    expect(transformOf('AsideVideo')).toEqual({ width: 960, height: 540, fit: 'cover', format: 'webp', quality: 90 });
    for (const [name, p] of Object.entries(IMAGE_PRESETS)) if (name !== 'Brand') expect(p.quality, name).toBe(90);
  });

  it('make brand images 96 high at quality 100, scaled into the box and never cropped (spec §9)', () => {
    expect(transformOf('Brand')).toEqual({ width: 288, height: 96, fit: 'contain', format: 'webp', quality: 100 });
  });

  it('give width-only presets a 16:9 height unless told otherwise', () => {
    expect(transformOf('Stretched')).toMatchObject({ width: 1180, height: 664 });
    expect(transformOf('Classification', { aspect: 4 / 3 })).toMatchObject({ width: 480, height: 360 });
  });

  it('make document thumbnails as png with a webp source', () => {
    expect(transformOf('DocumentThumbnail').format).toBe('png');
    expect(sourceFormats('DocumentThumbnail')).toEqual(['webp']);
    expect(sourceFormats('Gallery')).toEqual([]);
  });
});

describe('srcset transforms', () => {
  it('offer half, three quarters and the whole preset width, never more', () => {
    expect(srcsetTransforms('Stretched').map((t) => [t.width, t.height])).toEqual([[590, 332], [885, 498], [1180, 664]]);
    expect(srcsetTransforms('StretchedVideo').map((t) => [t.width, t.height])).toEqual([[600, 338], [900, 506], [1200, 675]]);
    expect(srcsetTransforms('BreakOut').map((t) => t.width)).toEqual([490, 735, 980]);
    expect(srcsetTransforms('Inline').map((t) => t.width)).toEqual([390, 585, 780]);
    for (const name of ['Stretched', 'StretchedVideo', 'BreakOut', 'Inline', 'AsideSquare', 'AsideVideo'] as const) {
      const ts = srcsetTransforms(name);
      expect(Math.max(...ts.map((t) => t.width))).toBe(IMAGE_PRESETS[name].width);
      expect(ts.at(-1)).toEqual(transformOf(name));
    }
  });

  it('keep the preset\'s aspect ratio, fit, format and quality at every width', () => {
    expect(srcsetTransforms('AsideSquare')).toEqual([
      { width: 480, height: 480, fit: 'cover', format: 'webp', quality: 90 },
      { width: 720, height: 720, fit: 'cover', format: 'webp', quality: 90 },
      { width: 960, height: 960, fit: 'cover', format: 'webp', quality: 90 },
    ]);
    expect(srcsetTransforms('AsideVideo').map((t) => t.height)).toEqual([270, 405, 540]);
    expect(srcsetTransforms('Inline', { format: 'png' }).every((t) => t.format === 'png')).toBe(true);
  });

  it('ignore fractions above 1 and candidates too small to be worth a request', () => {
    expect(srcsetTransforms('Inline', { fractions: [2, 1.5, 0.5] }).map((t) => t.width)).toEqual([390, 780]);
    expect(srcsetTransforms('ContactPortrait').map((t) => t.width)).toEqual([40, 60, 80]);
    expect(srcsetTransforms('GalleryThumbnail').map((t) => t.width)).toEqual([42, 56]);
  });

  it('write a srcset attribute', () => {
    expect(srcsetOf([{ url: '/_image?w=390', width: 390 }, { url: '/_image?w=780', width: 780 }])).toBe('/_image?w=390 390w, /_image?w=780 780w');
  });
});

describe('allowedImageTransforms (what /_image renders, issue 28)', () => {
  const key = (t: TransformOptions) => `${t.width}x${t.height}|${t.fit}|${t.format}|${t.quality}`;
  const made = (Object.keys(IMAGE_PRESETS) as PresetName[]).flatMap((name) => IMAGE_PRESETS[name].formats.flatMap((format) => [transformOf(name, { format }), ...srcsetTransforms(name, { format })]));

  it('hold every transform the pages and islands make (transformOf, srcsetTransforms), each at 1x and 2x, and nothing else', () => {
    const allowed = new Set(allowedImageTransforms().map(key));
    for (const t of made) {
      expect(allowed.has(key(t)), key(t)).toBe(true);
      expect(allowed.has(key({ ...t, width: t.width * 2, height: t.height * 2 })), `2x of ${key(t)}`).toBe(true);
    }
    const expected = new Set(made.flatMap((t) => IMAGE_DENSITIES.map((d) => key({ ...t, width: t.width * d, height: t.height * d }))));
    expect([...allowed].sort()).toEqual([...expected].sort());
  });
});
