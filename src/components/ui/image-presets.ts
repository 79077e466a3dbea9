/**
 * Every image size the catalogue renders, in one place (spec §3 asset presets, §9 image sizes).
 * Markup names a preset; PresetImage.astro (pages) and the catalogue API (islands) turn it into
 * an astro:assets transform. Defaults: webp (png where asked for too), quality 90, cropped.
 */

export type ImageFit = 'cover' | 'contain';
export type ImageFormat = 'webp' | 'png';

export interface ImagePreset {
  width: number;
  /** Omitted for width-only presets: the height follows the source's aspect ratio (16:9 unless given). */
  height?: number;
  fit: ImageFit;
  /** The last format is the <img>; earlier ones become <source>s of a <picture> (spec: png and webp). */
  formats: readonly ImageFormat[];
  quality: number;
}

const QUALITY = 90;
const crop = (width: number, height?: number): ImagePreset => ({ width, height, fit: 'cover', formats: ['webp'], quality: QUALITY });
/** Product photos keep the whole machine in a square frame instead of cutting it. */
const whole = (width: number, height: number): ImagePreset => ({ width, height, fit: 'contain', formats: ['webp'], quality: QUALITY });

export const IMAGE_PRESETS = {
  // Asset presets of the content model (spec §3).
  Stretched: crop(1180),
  StretchedVideo: crop(1200, 675),
  BreakOut: crop(980),
  Inline: crop(780),
  AsideSquare: crop(960, 960),
  AsideVideo: crop(960, 540),
  // Catalogue sizes (spec §9).
  Classification: crop(480),
  ClassificationHighRes: crop(1200),
  GalleryThumbnail: whole(56, 56),
  Gallery: whole(480, 480),
  LightboxThumbnail: whole(80, 80),
  Lightbox: whole(1180, 1180),
  ProductCard: whole(180, 180),
  Capability: crop(480),
  DocumentThumbnail: { width: 128, height: 180, fit: 'cover', formats: ['webp', 'png'], quality: QUALITY },
  VideoThumbnail: crop(1180),
} as const satisfies Record<string, ImagePreset>;

export type PresetName = keyof typeof IMAGE_PRESETS;

/** Aspect ratio assumed for width-only presets of remote images (the PIM's pictures are 16:9). */
export const DEFAULT_ASPECT = 16 / 9;

export interface TransformOptions {
  width: number;
  height: number;
  fit: ImageFit;
  format: ImageFormat;
  quality: number;
}

/**
 * The astro:assets transform of a preset. Remote images need both dimensions, so a width-only
 * preset gets its height from `aspect`.
 *
 * @example transformOf('Classification') // { width: 480, height: 270, fit: 'cover', format: 'webp', quality: 90 }
 */
export function transformOf(name: PresetName, opts: { aspect?: number; format?: ImageFormat } = {}): TransformOptions {
  const p: ImagePreset = IMAGE_PRESETS[name];
  const height = p.height ?? Math.round(p.width / (opts.aspect ?? DEFAULT_ASPECT));
  return { width: p.width, height, fit: p.fit, format: opts.format ?? p.formats[p.formats.length - 1]!, quality: p.quality };
}

/** The <source> formats of a preset, before its <img> one. */
export function sourceFormats(name: PresetName): ImageFormat[] {
  return IMAGE_PRESETS[name].formats.slice(0, -1) as ImageFormat[];
}
