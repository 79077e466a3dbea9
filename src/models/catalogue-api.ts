import * as v from 'valibot';
import { getBasketProducts, getComparisonProducts, MAX_SLUGS, type ComparisonProductDetail, type Specification, type Variant } from '../lib/catalogue/index.ts';
import { indexClassifications } from '../lib/catalogue/map.ts';
import { UI_LANGUAGES } from '../site/locale.ts';
import { cacheKey, DataCache } from '../server/data-cache.ts';
import { cachedClassifications, catalogueContext } from './catalogue-load.ts';
import type { BasketSummary } from '../features/basket/view.ts';

/**
 * Data behind the catalogue API routes (/api/catalogue/basket and /comparison), which the basket
 * and comparison islands call. API routes run without the page middleware, so they keep their
 * own small data cache.
 */
const cache = new DataCache({ max: 50 });
const caching = { cache, cacheMode: 'use' as const, nextRelease: false };

const Slug = v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'slugs are lowercase kebab-case, e.g. kappa-310'), v.maxLength(100));

/** The query of both routes: `?language=en&slugs=kappa-310,alpha-550`. */
export const CatalogueApiQuery = v.object({
  language: v.picklist(UI_LANGUAGES, `language must be one of ${UI_LANGUAGES.join(', ')}`),
  slugs: v.pipe(
    v.string('slugs is required: a comma-separated list of product slugs'),
    v.transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter(Boolean))]),
    v.minLength(1, 'slugs must name at least one product'),
    v.maxLength(MAX_SLUGS, `slugs may name at most ${MAX_SLUGS} products`),
    v.array(Slug),
  ),
});
export type CatalogueApiQuery = v.InferOutput<typeof CatalogueApiQuery>;

/** Validates the query; a clear message for the 400 answer otherwise. */
export function parseCatalogueQuery(params: URLSearchParams): { ok: true; value: CatalogueApiQuery } | { ok: false; message: string } {
  const raw = { language: params.get('language') ?? undefined, slugs: params.get('slugs') ?? undefined };
  const parsed = v.safeParse(CatalogueApiQuery, raw);
  return parsed.success ? { ok: true, value: parsed.output } : { ok: false, message: parsed.issues[0].message };
}

export type ImageUrl = (src: string | null | undefined) => Promise<string>;

/** Basket data for slugs, with the product image as a ready 56×56 URL. */
export async function basketData(q: CatalogueApiQuery, imageUrl: ImageUrl): Promise<BasketSummary[]> {
  const ctx = catalogueContext(q.language);
  const classifications = await cachedClassifications(caching, ctx);
  const products = await cache.get(cacheKey(['basket', q.language, q.slugs.join(',')], false), () => getBasketProducts(ctx, indexClassifications(classifications), q.slugs));
  return Promise.all(products.map(async (p) => ({
    slug: p.slug,
    name: p.name,
    route: p.route,
    imageUrl: await imageUrl(p.image?.url),
    classification: { slug: p.classification.slug, name: p.classification.name },
    variants: p.variants,
  })));
}

/** What the comparison island gets per product. */
export interface ComparisonApiProduct {
  slug: string;
  name: string;
  brand: string;
  shortDescription: string | null;
  route: string;
  imageUrl: string;
  classification: { slug: string; name: string };
  specifications: Specification[];
  variants: Variant[];
}

export async function comparisonData(q: CatalogueApiQuery, imageUrl: ImageUrl): Promise<ComparisonApiProduct[]> {
  const ctx = catalogueContext(q.language);
  const classifications = await cachedClassifications(caching, ctx);
  const products: ComparisonProductDetail[] = await cache.get(cacheKey(['comparison', q.language, q.slugs.join(',')], false), () => getComparisonProducts(ctx, indexClassifications(classifications), q.slugs));
  return Promise.all(products.map(async (p) => ({
    slug: p.slug,
    name: p.name,
    brand: p.brand.name,
    shortDescription: p.shortDescription,
    route: p.route,
    imageUrl: await imageUrl(p.image?.url),
    classification: { slug: p.classification.slug, name: p.classification.name },
    specifications: p.specifications,
    variants: p.variants,
  })));
}
