import type { DataSource, KeyPart } from '../cache/data-cache.ts';
import type { CatalogueContext } from './catalogue-service.ts';
import {
  getBasketProducts, getClassificationProducts, getClassifications, getComparisonProducts, getProduct, getProductsByCapability, getProductsFull,
  getServiceProduct, indexClassifications,
} from './index.ts';
import type { Classification, ClassificationType, ProductDetail, ProductReference } from './types.ts';

/**
 * The catalogue's records through a {@link DataSource}: each getter owns its cache key (the
 * language included), shared by the on-demand cache and the prerender's memo. Keys start with
 * `catalogue`; the `…Key` functions let the prerender seed records it loaded in bulk.
 */
const key = (ctx: CatalogueContext, name: string, ...parts: KeyPart[]): KeyPart[] => ['catalogue', name, ctx.language, ...parts];

export const classifications = (data: DataSource, ctx: CatalogueContext): Promise<Classification[]> => data.get(key(ctx, 'classifications'), () => getClassifications(ctx));
const lookup = async (data: DataSource, ctx: CatalogueContext) => indexClassifications(await classifications(data, ctx));

export const classificationProducts = (data: DataSource, ctx: CatalogueContext, slug: string, type: ClassificationType) =>
  data.get(key(ctx, 'classificationProducts', slug, type), async () => getClassificationProducts(ctx, await lookup(data, ctx), slug, type, true));

/** The references of every product and service product of a language (every root's tree, each once). */
export const allReferences = (data: DataSource, ctx: CatalogueContext): Promise<ProductReference[]> => data.get(key(ctx, 'allReferences'), async () => {
  const roots = (await classifications(data, ctx)).filter((c) => c.parentId === null);
  const trees = await Promise.all(roots.map((r) => classificationProducts(data, ctx, r.slug, r.type)));
  const seen = new Set<string>();
  return trees.flat().filter((r) => (seen.has(`${r.kind}:${r.slug}`) ? false : (seen.add(`${r.kind}:${r.slug}`), true)));
});

/** Every product of a language with every detail, in bulk (the prerender's load; one query per 100 products). */
export const allProducts = (data: DataSource, ctx: CatalogueContext): Promise<ProductDetail[]> => data.get(key(ctx, 'allProducts'), async () => {
  const slugs = (await allReferences(data, ctx)).filter((r) => r.kind === 'product').map((r) => r.slug);
  return getProductsFull(ctx, await lookup(data, ctx), slugs);
});

export const productKey = (ctx: CatalogueContext, slug: string) => key(ctx, 'product', slug);
/** A product; rejects with ProductNotFoundError when the catalogue has none. */
export const product = (data: DataSource, ctx: CatalogueContext, slug: string) => data.get(productKey(ctx, slug), async () => getProduct(ctx, await lookup(data, ctx), slug));

export const serviceProductKey = (ctx: CatalogueContext, slug: string) => key(ctx, 'serviceProduct', slug);
/** A service product; rejects with ProductNotFoundError when the catalogue has none. */
export const serviceProduct = (data: DataSource, ctx: CatalogueContext, slug: string) =>
  data.get(serviceProductKey(ctx, slug), async () => getServiceProduct(ctx, await lookup(data, ctx), slug));

export const capabilityProducts = (data: DataSource, ctx: CatalogueContext, capabilityId: string) =>
  data.get(key(ctx, 'capabilityProducts', capabilityId), async () => getProductsByCapability(ctx, await lookup(data, ctx), capabilityId));

export const basketProducts = (data: DataSource, ctx: CatalogueContext, slugs: string[]) =>
  data.get(key(ctx, 'basket', slugs.join(',')), async () => getBasketProducts(ctx, await lookup(data, ctx), slugs));
export const comparisonProducts = (data: DataSource, ctx: CatalogueContext, slugs: string[]) =>
  data.get(key(ctx, 'comparison', slugs.join(',')), async () => getComparisonProducts(ctx, await lookup(data, ctx), slugs));
