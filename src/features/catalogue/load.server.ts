import {
  capabilityProducts as cachedCapabilityProducts, classificationProducts, classifications as cachedClassifications, product as cachedProduct,
  serviceProduct as cachedServiceProduct,
} from '../../lib/catalogue/cached.ts';
import { CATALOGUE_BASE, finalSlug, isCatalogueSlug } from '../../lib/catalogue/routes.ts';
import { ProductNotFoundError, type ClassificationType, type ProductReference } from '../../lib/catalogue/index.ts';
import { getLogger } from '../../lib/log/index.ts';
import { localizedPath } from '../../site/paths.ts';
import type { RequestContext } from '../../site/request.ts';
import { loadChrome } from '../platform/chrome.server.ts';
import { pageContext } from '../platform/context.ts';
import { sitePageLocation } from '../platform/direct.server.ts';
import type { LoadContext } from '../platform/context.ts';
import { notFoundModel, type NotFoundModel } from '../platform/page-model.ts';
import { resolveRoute, type RedirectTo, type RouteResult } from '../platform/route.server.ts';
import { availableClassificationIds, rootOf, buildClassificationModel, buildProductModel, buildServiceModel, isProductAvailable, resolveTarget } from './builders.ts';
import { catalogueContext } from './context.ts';
import type { CatalogueModel } from './model.ts';
import { relatedStoriesFor } from './stories.server.ts';
import { mainSite } from '../../site/main-site.ts';

const CATALOGUE_KINDS = ['catalogue-classification', 'catalogue-product', 'catalogue-service'] as const;

/**
 * Loads a catalogue route (spec 2.1): the final slug names a classification or a product; a path
 * that is not the canonical route of what it names gets a 302 there (product links from content
 * point at /products/{slug}). What the country does not offer is a 404, and so is a slug the
 * catalogue does not know ('No product found for slug'). Other catalogue errors are rethrown.
 * The catalogue prerender source builds its routes with this same function.
 */
export async function loadCatalogueRoute(lc: LoadContext, req: RequestContext, type: ClassificationType): Promise<CatalogueModel | NotFoundModel | RedirectTo> {
  const ctx = catalogueContext(lc.services.catalogue, req.locale.language);
  const cc = req.country.countryCode;
  const [chrome, classifications] = await Promise.all([loadChrome(lc, req.site), cachedClassifications(lc.data, ctx)]);
  const target = resolveTarget(finalSlug(req.page.segments, type), type, classifications);
  const available = availableClassificationIds(classifications, cc);
  const canonical = (route: string): RedirectTo | null => (route === req.page.pagePath ? null : { kind: 'redirect', location: localizedPath(req.site, req.locale, route), status: 302 });

  if (target.kind === 'classification') {
    const c = target.classification;
    if (!available.has(c.id)) return notFoundModel(chrome);
    const moved = canonical(c.route);
    if (moved) return moved;
    // The products of the whole tree, filtered by the builder: one record per root, shared by all its
    // classifications. A catalogue base lists every root of its type (smart-factory, at /smart-factory, too).
    const roots = c.parentId === null && c.route === CATALOGUE_BASE[type] ? classifications.filter((x) => x.parentId === null && x.type === type) : [rootOf(c, classifications)];
    const products = (await Promise.all(roots.map((r) => classificationProducts(lc.data, ctx, r.slug, type)))).flat();
    return buildClassificationModel(chrome, c, classifications, products, cc);
  }

  if (!isCatalogueSlug(target.slug)) return notFoundModel(chrome);
  try {
    if (type === 'service') {
      const service = await cachedServiceProduct(lc.data, ctx, target.slug);
      if (!isProductAvailable(service, cc, available)) return notFoundModel(chrome);
      return canonical(service.route) ?? buildServiceModel(chrome, service, classifications, cc, await relatedStoriesFor(lc.data, lc.content, service.slug));
    }
    const product = await cachedProduct(lc.data, ctx, target.slug);
    if (!isProductAvailable(product, cc, available)) return notFoundModel(chrome);
    const moved = canonical(product.route);
    if (moved) return moved;
    const capabilityProducts = Object.fromEntries(await Promise.all(product.capabilities.map(async (cap) => [
      cap.id,
      await cachedCapabilityProducts(lc.data, ctx, cap.id).catch((err: unknown) => {
        // The capability search is not critical: the page shows without it.
        getLogger('catalogue').warn(`capability ${cap.id}: ${(err as Error).message}`);
        return [] as ProductReference[];
      }),
    ] as const)));
    return buildProductModel(chrome, product, capabilityProducts, classifications, cc, await relatedStoriesFor(lc.data, lc.content, product.slug));
  } catch (err) {
    if (err instanceof ProductNotFoundError) return notFoundModel(chrome);
    throw err;
  }
}

/**
 * What a catalogue route file renders. The catalogue exists only on the main site: another site's
 * catalogue path is a 302 to the main site's (spec 2.1: the final slug resolves there), unknown
 * locales get the 404 page. The query (utm parameters, a shared comparison …) travels along to
 * the canonical route.
 */
export async function catalogueRoute(locals: App.Locals, url: URL, type: ClassificationType): Promise<RouteResult<CatalogueModel>> {
  const ctx = pageContext(locals);
  const main = mainSite(ctx.request.system);
  if (!ctx.prerender && !ctx.notFound && ctx.request.area === 'page' && !ctx.request.site.isMain && main) {
    return { kind: 'redirect', location: sitePageLocation(ctx.request, url, main, ctx.request.page.pagePath, url.search), status: 302 };
  }
  const result = await resolveRoute<CatalogueModel>(locals, url, {
    kinds: CATALOGUE_KINDS,
    offered: (req) => req.site.isMain,
    load: (lc, req) => loadCatalogueRoute(lc, req, type),
  });
  return result.kind === 'redirect' ? { ...result, location: `${result.location}${url.search}` } : result;
}
