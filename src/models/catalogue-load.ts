import { relatedStoriesFor } from './catalogue-stories.ts';
import {
  CatalogueError, getClassificationProducts, getClassifications, getProduct, getProductsByCapability, getServiceProduct, indexClassifications,
  ProductNotFoundError, type CatalogueContext, type Classification, type ClassificationType, type ProductReference,
} from '../lib/catalogue/index.ts';
import { CATALOGUE_BASE, finalSlug, isCatalogueSlug } from '../lib/catalogue/routes.ts';
import { cacheKey, productCacheKey, type CacheMode, type DataCache } from '../server/data-cache.ts';
import { catalogueContext } from './catalogue-context.ts';
import type { RequestContext } from '../site/request.ts';
import {
  availableClassificationIds, buildClassificationModel, buildProductModel, buildServiceModel, isProductAvailable, resolveTarget,
  type CatalogueModel,
} from './catalogue.ts';
import { loadChrome, type ContentPageModel, type Loaders } from './content-page.ts';
import { localizedPath } from '../site/paths.ts';
import { getLogger } from '../lib/log/index.ts';

export { catalogueContext };

export interface CatalogueCache {
  cache: DataCache;
  cacheMode: CacheMode;
  nextRelease: boolean;
}

/** Every classification of a language, through the data cache. */
export function cachedClassifications(c: CatalogueCache, ctx: CatalogueContext): Promise<Classification[]> {
  return c.cache.get(cacheKey(['catalogue', 'classifications', ctx.language], c.nextRelease), () => getClassifications(ctx), c.cacheMode);
}

export type CatalogueRoute =
  | { kind: 'page'; model: CatalogueModel }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' };

/**
 * Loads a catalogue route on demand (spec 2.1): the final slug names a classification or a
 * product; a path that is not the canonical route of what it names gets a 302 there (product
 * links from content point at /products/{slug}). What the country does not offer is a 404, and
 * so is a slug the catalogue does not know ('No product found for slug'). Other catalogue
 * errors are rethrown.
 */
export async function loadCatalogueRoute(l: Loaders, req: RequestContext, type: ClassificationType, href: (route: string) => string): Promise<CatalogueRoute> {
  const ctx = catalogueContext(req.locale.language);
  const cc = req.country.countryCode;
  const [chrome, classifications] = await Promise.all([loadChrome(l, req), cachedClassifications(l, ctx)]);
  const target = resolveTarget(finalSlug(req.page.segments, type), type, classifications);
  const available = availableClassificationIds(classifications, cc);
  const canonical = (route: string): CatalogueRoute | null => (route === req.page.pagePath ? null : { kind: 'redirect', location: href(route) });

  if (target.kind === 'classification') {
    const c = target.classification;
    if (!available.has(c.id)) return { kind: 'not-found' };
    const moved = canonical(c.route);
    if (moved) return moved;
    // A catalogue base lists the products of every root of its type (smart-factory lives below /products).
    const roots = c.parentId === null && c.route === CATALOGUE_BASE[type] ? classifications.filter((x) => x.parentId === null && x.type === type) : [c];
    const lookup = indexClassifications(classifications);
    const products: ProductReference[] = (await Promise.all(roots.map((r) => l.cache.get(
      cacheKey(['catalogue', 'classificationProducts', ctx.language, r.slug, type], l.nextRelease),
      () => getClassificationProducts(ctx, lookup, r.slug, type, true),
      l.cacheMode,
    )))).flat();
    return { kind: 'page', model: buildClassificationModel(chrome, c, classifications, products, cc) };
  }

  if (!isCatalogueSlug(target.slug)) return { kind: 'not-found' };
  const lookup = indexClassifications(classifications);
  try {
    if (type === 'service') {
      const service = await l.cache.get(productCacheKey(ctx.language, cc, `service:${target.slug}`, l.nextRelease), () => getServiceProduct(ctx, lookup, target.slug), l.cacheMode);
      if (!isProductAvailable(service, cc, available)) return { kind: 'not-found' };
      const moved = canonical(service.route);
      if (moved) return moved;
      return { kind: 'page', model: buildServiceModel(chrome, service, classifications, cc, await relatedStoriesCached(l, service.slug)) };
    }
    const product = await l.cache.get(productCacheKey(ctx.language, cc, target.slug, l.nextRelease), () => getProduct(ctx, lookup, target.slug), l.cacheMode);
    if (!isProductAvailable(product, cc, available)) return { kind: 'not-found' };
    const moved = canonical(product.route);
    if (moved) return moved;
    const capabilityProducts = Object.fromEntries(await Promise.all(product.capabilities.map(async (cap) => [
      cap.id,
      await l.cache.get(cacheKey(['catalogue', 'capabilityProducts', ctx.language, cap.id], l.nextRelease), () => getProductsByCapability(ctx, lookup, cap.id), l.cacheMode)
        .catch((err: unknown) => {
          // The capability search is not critical: the page shows without it.
          getLogger('catalogue').warn(`capability ${cap.id}: ${(err as Error).message}`);
          return [] as ProductReference[];
        }),
    ] as const)));
    return { kind: 'page', model: buildProductModel(chrome, product, capabilityProducts, classifications, cc, await relatedStoriesCached(l, product.slug)) };
  } catch (err) {
    if (err instanceof ProductNotFoundError) return { kind: 'not-found' };
    throw err;
  }
}

export { CatalogueError };

const CATALOGUE_KINDS = ['catalogue-classification', 'catalogue-product', 'catalogue-service'];

/** Whether a prerendered model is a catalogue page model. */
export function isCatalogueModel(model: { kind: string } | undefined): model is CatalogueModel {
  return !!model && CATALOGUE_KINDS.includes(model.kind);
}

export type CataloguePageResult =
  | { kind: 'page'; model: CatalogueModel }
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found'; model: ContentPageModel };

/**
 * What a catalogue route file renders: the prerendered model when there is one, else a load on
 * demand. The catalogue exists only on the main site: other sites (and unknown locales) get the
 * 404 page.
 */
export async function catalogueRoute(locals: App.Locals, type: ClassificationType): Promise<CataloguePageResult | null> {
  const req = locals.request;
  const loaders = locals.loaders;
  if (!req || !loaders) return null;
  const preset = locals.prerender?.model;
  if (isCatalogueModel(preset)) return { kind: 'page', model: preset };
  const notFound = async (): Promise<CataloguePageResult> => ({ kind: 'not-found', model: { kind: 'content-page', ...(await loadChrome(loaders, req)), page: null } });
  if (locals.notFound || !req.site.isMain || req.area !== 'page') return notFound();
  const result = await loadCatalogueRoute(loaders, req, type, (route) => localizedPath(req.site, req.locale, route));
  if (result.kind === 'not-found') return notFound();
  return result;
}

/** Related stories through the data cache, keyed by the content locale chain and product slug. */
function relatedStoriesCached(l: Loaders, slug: string) {
  return l.cache.get(cacheKey(['relatedStories', l.content.locales.join('|'), slug], l.nextRelease), () => relatedStoriesFor(l.content, slug), l.cacheMode);
}
