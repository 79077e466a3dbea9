/**
 * Every image size the site renders, in one place (spec §3 asset presets, §9 image sizes): content
 * modules and the catalogue. Markup names a preset; PresetImage.astro (pages) and the catalogue
 * API (islands) turn it into an astro:assets transform. Defaults: webp (png where asked for too),
 * quality 90, cropped.
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
  /** The logo of a navigation item's marketing section in its mega menu (spec §9: 304x52 cropped). */
  MarketingLogo: crop(304, 52),
  // Catalogue sizes (spec §9).
  Classification: crop(480),
  ClassificationHighRes: crop(1200),
  GalleryThumbnail: whole(56, 56),
  Gallery: whole(480, 480),
  LightboxThumbnail: whole(80, 80),
  Lightbox: whole(1180, 1180),
  ProductCard: whole(180, 180),
  /** Story contact images (§9), also the author portrait of a quote module. */
  ContactPortrait: crop(80, 80),
  Capability: crop(480),
  DocumentThumbnail: { width: 128, height: 180, fit: 'cover', formats: ['webp', 'png'], quality: QUALITY },
  VideoThumbnail: crop(1180),
  /**
   * Brand images (spec §3, §9: height 96, quality 100): the logo scaled, never cropped, into a box
   * 96 high and at most three times as wide (a logo of 3:1 or narrower is exactly 96 high), lossless enough for thin lines.
   */
  Brand: { width: 288, height: 96, fit: 'contain', formats: ['webp'], quality: 100 },
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

/** Fractions of a preset's width offered in a srcset: smaller screens and 1x displays load less. */
export const SRCSET_FRACTIONS = [0.5, 0.75, 1] as const;
/** Below this width a srcset candidate is not worth its request. */
const MIN_SRCSET_WIDTH = 40;

/**
 * The transforms of a responsive image: the preset at fractions of its width, each with the
 * preset's aspect ratio, smallest first, never wider than the preset (the last one is the preset).
 *
 * @example srcsetTransforms('Inline').map((t) => `${t.width}x${t.height}`) // ['390x220', '585x329', '780x439']
 */
export function srcsetTransforms(name: PresetName, opts: { aspect?: number; format?: ImageFormat; fractions?: readonly number[] } = {}): TransformOptions[] {
  const full = transformOf(name, opts);
  const widths = new Set<number>();
  for (const f of opts.fractions ?? SRCSET_FRACTIONS) {
    if (!(f > 0 && f <= 1)) continue;
    const w = Math.round(full.width * f);
    if (w >= MIN_SRCSET_WIDTH || f === 1) widths.add(w);
  }
  widths.add(full.width);
  return [...widths].sort((a, b) => a - b).map((width) => ({
    ...full,
    width,
    height: width === full.width ? full.height : Math.round((full.height * width) / full.width),
  }));
}

/** A srcset attribute from transformed URLs and their widths: 'a.webp 390w, b.webp 780w'. */
export function srcsetOf(candidates: readonly { url: string; width: number }[]): string {
  return candidates.map((c) => `${c.url} ${c.width}w`).join(', ');
}

/** Pixel densities the image endpoint renders each srcset width at: 1x, and 2x for high-density screens. */
export const IMAGE_DENSITIES = [1, 2] as const;
/** Largest side the image endpoint makes (a 2x candidate beyond it is left out). */
export const MAX_RENDERED_SIDE = 4000;

let allowed: readonly TransformOptions[] | null = null;

/**
 * Every transform the image endpoint renders (issue 28): each preset in each of its formats at
 * each srcset width (the same {@link srcsetTransforms} that writes the srcsets, so the two cannot
 * drift; the preset's own size is its largest candidate) and at each of {@link IMAGE_DENSITIES}.
 * Anything else is refused or sent to the nearest of these (src/server/images/image-params.ts), so a
 * client cannot make the server render (and store) a new variant per request.
 *
 * @example allowedImageTransforms().some((t) => t.width === 390 && t.height === 219) // true: Inline's half-width candidate
 */
export function allowedImageTransforms(): readonly TransformOptions[] {
  if (allowed) return allowed;
  const seen = new Map<string, TransformOptions>();
  for (const name of Object.keys(IMAGE_PRESETS) as PresetName[]) {
    for (const format of IMAGE_PRESETS[name].formats) {
      for (const t of srcsetTransforms(name, { format })) {
        for (const d of IMAGE_DENSITIES) {
          const scaled = { ...t, width: t.width * d, height: t.height * d };
          if (scaled.width > MAX_RENDERED_SIDE || scaled.height > MAX_RENDERED_SIDE) continue;
          seen.set(`${scaled.width}x${scaled.height}|${scaled.fit}|${scaled.format}|${scaled.quality}`, scaled);
        }
      }
    }
  }
  allowed = [...seen.values()];
  return allowed;
}
