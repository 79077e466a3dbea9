import * as v from 'valibot';
import { allowedImageTransforms } from '../../components/ui/image-presets.ts';

/**
 * The query of `/_image`, checked before Astro's endpoint sees it. Astro's own URLs (getImage,
 * <Image>, the catalogue presets) always pass: `href`, `w`, `h`, `f`, `q`, `fit`. Anything else
 * (other parameters, a repeated one, a size beyond 4000, a vector or unknown format, a source
 * outside the allowed domains) gets a 400 with a message naming the parameter, so a request can
 * neither make the server produce an inline SVG nor fill the image cache with variants.
 */

/** A remote image pattern, as in Astro's `image.remotePatterns`. */
export interface RemotePattern {
  protocol?: string;
  hostname?: string;
  port?: string;
  pathname?: string;
}

/** Where remote images may come from: the PIM and content hub (their emulators on loopback locally). Used by astro.config.mjs too. */
export const IMAGE_REMOTE_PATTERNS: RemotePattern[] = [
  { protocol: 'http', hostname: '127.0.0.1' },
  { protocol: 'http', hostname: 'localhost' },
];

/** Output formats: raster only, so nothing made here can run script. */
export const IMAGE_FORMATS = ['webp', 'png', 'avif', 'jpeg', 'jpg'] as const;
/** The Content-Types of those formats; any other answer of /_image is sent as a download. */
export const RASTER_TYPES: ReadonlySet<string> = new Set(['image/webp', 'image/png', 'image/avif', 'image/jpeg']);
/** Astro's fit values. */
export const IMAGE_FITS = ['fill', 'contain', 'cover', 'none', 'scale-down'] as const;
/** Astro's named qualities (sharp service). */
export const IMAGE_QUALITIES = ['low', 'mid', 'high', 'max'] as const;
export const MAX_IMAGE_SIZE = 4000;
const MAX_HREF = 2048;
const PARAMS = ['href', 'w', 'h', 'f', 'q', 'fit'] as const;

const matchesWildcard = (value: string, pattern: string): boolean => {
  if (pattern.startsWith('**.')) return value.endsWith(pattern.slice(2)) && value.length > pattern.length - 2;
  if (pattern.startsWith('*.')) {
    const rest = pattern.slice(1);
    return value.endsWith(rest) && !value.slice(0, -rest.length).includes('.') && value.length > rest.length;
  }
  return value === pattern;
};

const matchesPath = (path: string, pattern: string): boolean => {
  if (pattern.endsWith('/**')) return path.startsWith(pattern.slice(0, -2));
  if (pattern.endsWith('/*')) {
    const base = pattern.slice(0, -1);
    return path.startsWith(base) && !path.slice(base.length).includes('/');
  }
  return path === pattern;
};

/** True when an absolute URL matches one of the patterns (Astro's remotePatterns semantics). */
export function isAllowedRemote(href: string, patterns: readonly RemotePattern[] = IMAGE_REMOTE_PATTERNS): boolean {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  return patterns.some((p) =>
    (!p.protocol || url.protocol === `${p.protocol.replace(/:$/, '')}:`)
    && (!p.hostname || matchesWildcard(url.hostname, p.hostname))
    && (!p.port || url.port === p.port)
    && (!p.pathname || matchesPath(url.pathname, p.pathname)));
}

/** A built asset of the app (`/_astro/<name>.<hash>.<ext>`), one file name, no traversal. */
const LOCAL_ASSET = /^\/_astro\/[A-Za-z0-9_@-][A-Za-z0-9._@-]*\.(?:png|jpe?g|webp|avif|gif|svg|tiff?)$/;

const isAllowedSource = (href: string) => LOCAL_ASSET.test(href) || (/^https?:\/\//i.test(href) && isAllowedRemote(href));

const sizeMessage = (name: string) => `${name} must be a whole number from 1 to ${MAX_IMAGE_SIZE}`;
const Size = (name: string) => v.optional(v.pipe(
  v.string(),
  v.regex(/^[1-9]\d{0,3}$/, sizeMessage(name)),
  v.transform(Number),
  v.maxValue(MAX_IMAGE_SIZE, sizeMessage(name)),
));

const qualityMessage = `q must be a whole number from 1 to 100 or one of ${IMAGE_QUALITIES.join(', ')}`;

export const ImageParamsSchema = v.pipe(
  v.strictObject({
    href: v.pipe(
      v.string(),
      v.maxLength(MAX_HREF, `href must be at most ${MAX_HREF} characters`),
      v.check(isAllowedSource, 'href must be an /_astro/ asset or an image on an allowed domain'),
    ),
    w: Size('w'),
    h: Size('h'),
    f: v.picklist(IMAGE_FORMATS, `f must be one of ${IMAGE_FORMATS.join(', ')}`),
    q: v.optional(v.union([
      v.pipe(v.string(), v.regex(/^(?:[1-9]\d?|100)$/), v.transform(Number)),
      v.picklist(IMAGE_QUALITIES),
    ], qualityMessage)),
    fit: v.optional(v.picklist(IMAGE_FITS, `fit must be one of ${IMAGE_FITS.join(', ')}`)),
  }),
  v.check((p) => p.w !== undefined || p.h !== undefined, 'w or h is required'),
);
export type ImageParams = v.InferOutput<typeof ImageParamsSchema>;

/**
 * True for every path Astro's router would take for its image endpoint: percent-encoded
 * (`/%5Fimage`), with doubled or trailing slashes (`//_image`, `/_image/`) or in another case.
 */
export function isImageEndpoint(pathname: string): boolean {
  let p = pathname;
  for (let i = 0; i < 3 && p.includes('%'); i++) {
    try {
      p = decodeURIComponent(p);
    } catch {
      break;
    }
  }
  return p.replace(/[/\\]+/g, '/').replace(/(.)\/$/, '$1').toLowerCase() === '/_image';
}

/**
 * Checks the query of an `/_image` request.
 *
 * @example parseImageParams(new URLSearchParams('href=/_astro/a.b1.svg&w=480&h=270&f=webp')) // { ok: true, … }
 * @example parseImageParams(new URLSearchParams('href=/_astro/a.svg&w=abc&f=webp')) // { ok: false, message: 'w must be a whole number from 1 to 4000' }
 */
export function parseImageParams(query: URLSearchParams): { ok: true; params: ImageParams } | { ok: false; message: string } {
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (!(PARAMS as readonly string[]).includes(key)) return { ok: false, message: `Unknown parameter ${JSON.stringify(key.slice(0, 40))} (allowed: ${PARAMS.join(', ')})` };
    if (seen.has(key)) return { ok: false, message: `${key} must be given once` };
    seen.add(key);
  }
  if (!query.has('href')) return { ok: false, message: 'href is required' };
  if (!query.has('f')) return { ok: false, message: `f must be one of ${IMAGE_FORMATS.join(', ')}` };
  const result = v.safeParse(ImageParamsSchema, Object.fromEntries(query));
  if (result.success) return { ok: true, params: result.output };
  return { ok: false, message: result.issues[0].message };
}

/** The values the presets use, for the messages of refused requests. */
const presetValues = <K extends 'format' | 'quality' | 'fit'>(key: K) => [...new Set(allowedImageTransforms().map((t) => t[key]))];

export type TransformCheck =
  | { ok: true }
  /** A size of a preset's shape that is not one of its widths: the nearest one's URL (a redirect). */
  | { ok: false; nearest: string }
  | { ok: false; message: string };

/** Same shape: the heights agree within rounding (srcset heights are rounded to whole pixels). */
const sameAspect = (w: number, h: number, t: { width: number; height: number }) => Math.abs(w * t.height - h * t.width) <= w + t.width;

/**
 * Whether `/_image` may render these parameters (issue 28): only the transforms of the image
 * presets (allowedImageTransforms: every srcset width of every preset and format, at 1x and 2x)
 * are rendered. A size of a preset's shape at another width is sent to the nearest allowed width;
 * anything else is refused with a message naming what the presets use.
 *
 * @example checkImageTransform({ href, w: 480, h: 270, f: 'webp', q: 90, fit: 'cover' }) // { ok: true }
 * @example checkImageTransform({ href, w: 500, h: 281, f: 'webp', q: 90, fit: 'cover' }) // { ok: false, nearest: '/_image?href=…&w=480&h=270&…' }
 */
export function checkImageTransform(params: ImageParams): TransformCheck {
  const allowed = allowedImageTransforms();
  const formats = presetValues('format');
  const qualities = presetValues('quality');
  const fits = presetValues('fit');
  if (!(formats as string[]).includes(params.f)) return { ok: false, message: `f must be one the image presets use: ${formats.join(', ')}` };
  if (!(qualities as unknown[]).includes(params.q)) return { ok: false, message: `q must be the image presets' quality: ${qualities.join(', ')}` };
  if (!(fits as unknown[]).includes(params.fit)) return { ok: false, message: `fit must be one the image presets use: ${fits.join(', ')}` };
  if (params.w === undefined || params.h === undefined) return { ok: false, message: 'w and h are both required: a size of the image presets' };
  const { w, h } = params;
  const family = allowed.filter((t) => t.format === params.f && t.quality === params.q && t.fit === params.fit && sameAspect(w, h, t));
  if (family.some((t) => t.width === w && t.height === h)) return { ok: true };
  if (family.length === 0) return { ok: false, message: `${w}x${h} is not a size of the image presets` };
  const nearest = family.reduce((best, t) => {
    const d = Math.abs(t.width - w) - Math.abs(best.width - w);
    return d < 0 || (d === 0 && t.width > best.width) ? t : best;
  });
  return { ok: false, nearest: canonicalImagePath({ ...params, w: nearest.width, h: nearest.height }) };
}

/**
 * The one URL of an image (the disk cache's key and a redirect's target): the parameters in a
 * fixed order, each encoded the same way, so that reordering or re-encoding a query cannot make
 * another cache entry of the same image.
 */
export function canonicalImagePath(params: ImageParams): string {
  const q = new URLSearchParams();
  q.set('href', params.href);
  if (params.w !== undefined) q.set('w', String(params.w));
  if (params.h !== undefined) q.set('h', String(params.h));
  q.set('f', params.f);
  if (params.q !== undefined) q.set('q', String(params.q));
  if (params.fit !== undefined) q.set('fit', params.fit);
  return `/_image?${q.toString()}`;
}

export type ImageRequest =
  /** Render (or serve from the cache) under this canonical path. */
  | { kind: 'render'; path: string }
  /** Another width of a preset's shape: redirect to the nearest width the presets render. */
  | { kind: 'redirect'; location: string }
  | { kind: 'refuse'; message: string };

/** What `/_image` does with a query: the checks of {@link parseImageParams} and {@link checkImageTransform} in one answer. */
export function imageRequest(query: URLSearchParams): ImageRequest {
  const parsed = parseImageParams(query);
  if (!parsed.ok) return { kind: 'refuse', message: parsed.message };
  const transform = checkImageTransform(parsed.params);
  if (transform.ok) return { kind: 'render', path: canonicalImagePath(parsed.params) };
  return 'nearest' in transform ? { kind: 'redirect', location: transform.nearest } : { kind: 'refuse', message: transform.message };
}
