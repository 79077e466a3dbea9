import { catalogueLogger, catalogueQuery, type CatalogueContext } from './catalogue-service.ts';
import { ProductNotFoundError } from './errors.ts';
import {
  mapBasketProduct, mapClassifications, mapComparisonProduct, mapProduct, mapReferences, mapServiceProduct,
  type ClassificationLookup,
} from './map.ts';
import * as q from './queries.ts';
import * as s from './schema.ts';
import type {
  BasketProductSummary, Classification, ClassificationType, ComparisonProductDetail, ProductDetail, ProductReference, ServiceProductDetail,
} from './types.ts';

export type { CatalogueConfig, CatalogueContext } from './catalogue-service.ts';
export type { ClassificationLookup } from './map.ts';
export type * from './types.ts';
export { CatalogueError, NO_PRODUCT_FOUND, ProductNotFoundError } from './errors.ts';
export { indexClassifications } from './map.ts';
export { CATALOGUE_BASE, finalSlug, isCatalogueSlug, productRoute } from './routes.ts';

/** The catalogue accepts at most this many slugs per request. */
export const MAX_SLUGS = 100;

const warn = (msg: string) => catalogueLogger.warn(msg);

/** Every classification of both trees, with routes and lineage (roots first, depth-first by sort index). */
export async function getClassifications(ctx: CatalogueContext): Promise<Classification[]> {
  const raw = await catalogueQuery(ctx, 'allClassifications', q.ALL_CLASSIFICATIONS, { language: ctx.language }, s.AllClassificationsSchema);
  return mapClassifications(raw.allClassifications, warn);
}

/** The products (or service products) of a classification; with `recursive`, of its whole subtree. */
export async function getClassificationProducts(
  ctx: CatalogueContext, lookup: ClassificationLookup, slug: string, type: ClassificationType, recursive = true,
): Promise<ProductReference[]> {
  const raw = await catalogueQuery(ctx, 'classificationProducts', q.CLASSIFICATION_PRODUCTS, { language: ctx.language, slug, type, recursive }, s.ClassificationProductsSchema);
  return mapReferences(raw.classificationProducts, lookup, warn);
}

/** One product with every detail; throws ProductNotFoundError ('No product found for slug …') when there is none. */
export async function getProduct(ctx: CatalogueContext, lookup: ClassificationLookup, slug: string): Promise<ProductDetail> {
  const raw = await catalogueQuery(ctx, 'product', q.PRODUCT_BY_SLUG, { language: ctx.language, slug }, s.ProductSchema);
  const product = raw.product ? mapProduct(raw.product, lookup, warn) : null;
  if (!product) throw new ProductNotFoundError(slug, 'product');
  return product;
}

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Full products for many slugs (the prerender's bulk load); unknown slugs are skipped. */
export async function getProductsFull(ctx: CatalogueContext, lookup: ClassificationLookup, slugs: string[]): Promise<ProductDetail[]> {
  const parts = await Promise.all(chunks(slugs, MAX_SLUGS).map((part) =>
    catalogueQuery(ctx, 'productsFull', q.PRODUCTS_FULL_BY_SLUGS, { language: ctx.language, slugs: part }, s.ProductsFullSchema)));
  return parts.flatMap((p) => p.productDetailsBySlugs).map((p) => mapProduct(p, lookup, warn)).filter((p): p is ProductDetail => p !== null);
}

/** Basket view data (names, variants, images) in the order asked; unknown slugs are skipped. */
export async function getBasketProducts(ctx: CatalogueContext, lookup: ClassificationLookup, slugs: string[]): Promise<BasketProductSummary[]> {
  if (slugs.length === 0) return [];
  const raw = await catalogueQuery(ctx, 'productsBySlugs', q.PRODUCTS_BY_SLUGS, { language: ctx.language, slugs: slugs.slice(0, MAX_SLUGS) }, s.ProductsBySlugsSchema);
  return raw.productsBySlugs.map((p) => mapBasketProduct(p, lookup, warn)).filter((p): p is BasketProductSummary => p !== null);
}

/** Comparison view data (specifications, variants, brand) in the order asked; unknown slugs are skipped. */
export async function getComparisonProducts(ctx: CatalogueContext, lookup: ClassificationLookup, slugs: string[]): Promise<ComparisonProductDetail[]> {
  if (slugs.length === 0) return [];
  const raw = await catalogueQuery(ctx, 'productDetailsBySlugs', q.PRODUCT_DETAILS_BY_SLUGS, { language: ctx.language, slugs: slugs.slice(0, MAX_SLUGS) }, s.ProductDetailsBySlugsSchema);
  return raw.productDetailsBySlugs.map((p) => mapComparisonProduct(p, lookup, warn)).filter((p): p is ComparisonProductDetail => p !== null);
}

export async function getProductsByCapability(ctx: CatalogueContext, lookup: ClassificationLookup, capabilityId: string): Promise<ProductReference[]> {
  const raw = await catalogueQuery(ctx, 'productsByCapability', q.PRODUCTS_BY_CAPABILITY, { language: ctx.language, capabilityId }, s.ProductsByCapabilitySchema);
  return mapReferences(raw.productsByCapability, lookup, warn);
}

/** One service product; throws ProductNotFoundError ('No product found for slug …') when there is none. */
export async function getServiceProduct(ctx: CatalogueContext, lookup: ClassificationLookup, slug: string): Promise<ServiceProductDetail> {
  const raw = await catalogueQuery(ctx, 'serviceProduct', q.SERVICE_PRODUCT, { language: ctx.language, slug }, s.ServiceProductSchema);
  const service = raw.serviceProduct ? mapServiceProduct(raw.serviceProduct, lookup, warn) : null;
  if (!service) throw new ProductNotFoundError(slug, 'serviceProduct');
  return service;
}
