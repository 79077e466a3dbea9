import type { APIContext } from 'astro';
import { basketProducts, comparisonProducts } from '../../lib/catalogue/cached.ts';
import type { ComparisonProductDetail } from '../../lib/catalogue/index.ts';
import type { DataSource } from '../../lib/cache/data-cache.ts';
import { json } from '../../lib/http/json.ts';
import { endpoint, READ_ONLY } from '../../lib/http/endpoint.ts';
import { getLogger } from '../../lib/log/index.ts';
import { presetImageUrl } from '../../components/ui/image-url.ts';
import type { PresetName } from '../../components/ui/image-presets.ts';
import type { BasketSummary } from '../basket/view.ts';
import type { ComparisonApiProduct } from '../comparison/model.ts';
import { apiContext } from '../platform/context.ts';
import type { Services } from '../platform/context.ts';
import { catalogueContext } from './context.ts';
import { brandOf } from '../../site/brands.ts';
import type { Brand } from '../../site/types.ts';
import { parseCatalogueQuery, type CatalogueApiQuery } from './api-query.ts';

/**
 * The catalogue API routes (/api/catalogue/basket and /comparison), which the basket and
 * comparison islands call, through the process's one data cache.
 */

export type ImageUrl = (src: string | null | undefined) => Promise<string>;

/** What a loader gets besides the query: the data source, the services, the system data (brands) and the image URL maker. */
interface LoaderContext {
  data: DataSource;
  services: Services;
  brands: readonly Brand[];
  /** The product image in the route's preset. */
  imageUrl: ImageUrl;
}

type Loader<T> = (ctx: LoaderContext, q: CatalogueApiQuery) => Promise<T[]>;

/** Basket data for slugs, with the product image as a ready 56×56 URL. */
export const basketData: Loader<BasketSummary> = async ({ data, services, imageUrl }, q) => {
  const products = await basketProducts(data, catalogueContext(services.catalogue, q.language), q.slugs);
  return Promise.all(products.map(async (p) => ({
    slug: p.slug,
    name: p.name,
    route: p.route,
    imageUrl: await imageUrl(p.image?.url),
    classification: { slug: p.classification.slug, name: p.classification.name },
    variants: p.variants,
  })));
};


/** Comparison data for slugs: the product image 180×180 and the brand's image (spec §9: height 96), when the system data has one. */
export const comparisonData: Loader<ComparisonApiProduct> = async ({ data, services, brands, imageUrl }, q) => {
  const products: ComparisonProductDetail[] = await comparisonProducts(data, catalogueContext(services.catalogue, q.language), q.slugs);
  return Promise.all(products.map(async (p) => {
    const logo = brandOf(brands, { pimId: p.brand.id })?.image;
    return {
      slug: p.slug,
      name: p.name,
      brand: p.brand.name,
      brandImageUrl: logo ? await presetImageUrl('Brand', logo.url) : null,
      shortDescription: p.shortDescription,
      route: p.route,
      imageUrl: await imageUrl(p.image?.url),
      classification: { slug: p.classification.slug, name: p.classification.name },
      specifications: p.specifications,
      variants: p.variants,
    };
  }));
};

/**
 * A GET route over `?language=…&slugs=…` that answers `{ products }`: bad input is a 400 with a
 * clear message, a catalogue failure a 502; images use one preset.
 */
export function catalogueApiRoute<T>(name: string, load: Loader<T>, preset: PresetName) {
  return endpoint(READ_ONLY, async ({ url, locals }: APIContext) => {
    const q = parseCatalogueQuery(url.searchParams);
    if (!q.ok) return json({ error: 'bad-request', message: q.message }, 400);
    const api = apiContext(locals);
    try {
      const products = await load({ data: api.data, services: api.services, brands: api.system.brands, imageUrl: (src) => presetImageUrl(preset, src) }, q.value);
      return json({ products }, 200, 'public, max-age=300');
    } catch (err) {
      getLogger(`api/catalogue/${name}`).error((err as Error).message);
      return json({ error: 'bad-gateway', message: 'The catalogue is not available right now.' }, 502);
    }
  });
}

/** GET /api/catalogue/basket?language=en&slugs=kappa-310,alpha-550: what the comparison basket shows of each product (name, variants, image, route). */
export const getBasket = catalogueApiRoute('basket', basketData, 'GalleryThumbnail');
/** GET /api/catalogue/comparison?language=en&slugs=kappa-310,kappa-320: what the comparison shows of each product (every specification reading, variants, brand, image 180×180). */
export const getComparison = catalogueApiRoute('comparison', comparisonData, 'ProductCard');
