import type { APIRoute } from 'astro';
import { presetImageUrl } from '../../../components/catalogue/image-url.ts';
import { comparisonData, parseCatalogueQuery } from '../../../models/catalogue-api.ts';

const json = (body: unknown, status: number, cache = 'no-store') =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': cache } });

/**
 * GET /api/catalogue/comparison?language=en&slugs=kappa-310,kappa-320: what the comparison shows
 * of each product (every specification reading, variants, brand, image 180×180). Bad input is a
 * 400 with a clear message.
 */
export const GET: APIRoute = async ({ url }) => {
  const q = parseCatalogueQuery(url.searchParams);
  if (!q.ok) return json({ error: q.message }, 400);
  try {
    const products = await comparisonData(q.value, (src) => presetImageUrl('ProductCard', src));
    return json({ products }, 200, 'public, max-age=300');
  } catch (err) {
    console.error('[api/catalogue/comparison]', (err as Error).message);
    return json({ error: 'The catalogue is not available right now.' }, 502);
  }
};
