import { getImage } from 'astro:assets';
import placeholder from './assets/placeholder.png';
import { transformOf, type PresetName } from './image-presets.ts';
import { getLogger } from '../../lib/log/index.ts';

const log = getLogger('catalogue');

/**
 * The transformed URL (/_image?…) of a catalogue image in a preset, for islands that get image
 * URLs as data (basket, comparison). Server-only; a missing image gives the placeholder.
 */
export async function presetImageUrl(preset: PresetName, src: string | null | undefined): Promise<string> {
  const t = transformOf(preset);
  const remote = !!src && /^https?:\/\//i.test(src);
  try {
    const img = await getImage({ src: remote ? src! : placeholder, width: t.width, height: t.height, fit: t.fit, format: t.format, quality: t.quality });
    return img.src;
  } catch (err) {
    log.warn(`image ${src}: ${(err as Error).message}`);
    return remote ? src! : placeholder.src;
  }
}
