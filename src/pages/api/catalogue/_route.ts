import type { APIRoute } from 'astro';
import { presetImageUrl } from '../../../components/ui/image-url.ts';
import type { PresetName } from '../../../components/ui/image-presets.ts';
import { parseCatalogueQuery, type CatalogueApiQuery, type ImageUrl } from '../../../models/catalogue-api.ts';
import { getLogger } from '../../../lib/log/index.ts';

const json = (body: unknown, status: number, cache = 'no-store') =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': cache } });

/**
 * A GET route over `?language=…&slugs=…` that answers `{ products }`: bad input is a 400 with a
 * clear message, a catalogue failure a 502; images use one preset.
 */
export function catalogueRoute(name: string, load: (q: CatalogueApiQuery, imageUrl: ImageUrl) => Promise<unknown[]>, preset: PresetName): APIRoute {
  return async ({ url }) => {
    const q = parseCatalogueQuery(url.searchParams);
    if (!q.ok) return json({ error: q.message }, 400);
    try {
      const products = await load(q.value, (src) => presetImageUrl(preset, src));
      return json({ products }, 200, 'public, max-age=300');
    } catch (err) {
      getLogger(`api/catalogue/${name}`).error((err as Error).message);
      return json({ error: 'The catalogue is not available right now.' }, 502);
    }
  };
}
