import { describe, expect, it } from 'vitest';
import { IMAGE_PRESETS, sourceFormats, transformOf } from './image-presets.ts';

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
    for (const p of Object.values(IMAGE_PRESETS)) expect(p.quality).toBe(90);
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
