import { classificationProducts, classifications as cachedClassifications, product, productKey, serviceProduct } from '../../lib/catalogue/cached.ts';
import { getProductsFull, indexClassifications, ProductNotFoundError, type ProductReference } from '../../lib/catalogue/index.ts';
import { relatedStoriesKey } from '../../lib/content/cached.ts';
import { getRelatedStoriesByProducts } from '../../lib/content/index.ts';
import type { DataSource } from '../../lib/cache/data-cache.ts';
import { getLogger } from '../../lib/log/index.ts';
import { siteLanguages } from '../../site/locale.ts';
import type { RouteSource, RouteSourceContext, RunData, SourcedRoute } from '../platform/route-source.ts';
import { availableClassificationIds, isProductAvailable } from './builders.ts';
import { catalogueContext } from './context.ts';
import { loadCatalogueRoute } from './load.server.ts';
import { RELATED_STORIES } from './stories.server.ts';
import type { CatalogueContext } from '../../lib/catalogue/index.ts';
import type { ContentContext } from '../../lib/content/index.ts';

const text = (parts: (string | null | undefined)[]) => parts.filter(Boolean).join('\n');
/** A stable date for the sitemap: the catalogue keeps no change dates, so the day of the run. */
const today = () => new Date().toISOString().slice(0, 10);

const unique = <T>(list: T[], key: (x: T) => string): T[] => {
  const seen = new Set<string>();
  return list.filter((x) => (seen.has(key(x)) ? false : (seen.add(key(x)), true)));
};

/**
 * Loads a language's catalogue in a few calls and seeds the run's data with what the per-route
 * loaders will ask for: the references of each root's tree, every product in one bulk query (seeded
 * under the key `product(slug)` reads), each service product, and the related stories of every
 * product in one query. Any failing call fails the run (nothing is written), as for the content hub.
 */
async function seedLanguage(data: RunData, ctx: CatalogueContext, content: ContentContext): Promise<{ products: string[]; services: string[] }> {
  const classifications = await cachedClassifications(data, ctx);
  const roots = classifications.filter((c) => c.parentId === null);
  const references = unique((await Promise.all(roots.map((r) => classificationProducts(data, ctx, r.slug, r.type)))).flat(), (r: ProductReference) => `${r.kind}:${r.slug}`);
  const productSlugs = references.filter((r) => r.kind === 'product').map((r) => r.slug);
  const serviceSlugs = references.filter((r) => r.kind === 'service').map((r) => r.slug);
  const products = await data.get(['catalogue', 'productsFull', ctx.language], () => getProductsFull(ctx, indexClassifications(classifications), productSlugs));
  for (const p of products) data.seed(productKey(ctx, p.slug), p);
  const services = (await Promise.all(serviceSlugs.map((slug) => serviceProduct(data, ctx, slug).catch((err: unknown) => {
    if (err instanceof ProductNotFoundError) return null;
    throw err;
  })))).filter((s) => s !== null);
  await seedRelatedStories(data, content, [...products.map((p) => p.slug), ...services.map((s) => s.slug)]);
  return { products: products.map((p) => p.slug), services: services.map((s) => s.slug) };
}

/** Related stories of many products in one query; when it fails, every product page shows without them. */
async function seedRelatedStories(data: RunData, content: ContentContext, slugs: string[]): Promise<void> {
  const bySlug = await data.get(['content', 'relatedStoriesBulk', content.stage, content.locales.join('|'), RELATED_STORIES], () =>
    getRelatedStoriesByProducts(content, slugs, RELATED_STORIES).catch((err: unknown) => {
      getLogger('catalogue').warn(`related stories: ${(err as Error).message}`);
      return new Map();
    }));
  for (const slug of slugs) data.seed(relatedStoriesKey(content, slug, RELATED_STORIES), bySlug.get(slug) ?? []);
}

/** Bulk data is loaded once per language and content chain, whichever locale asks first. */
function seeded(ctx: RouteSourceContext, cctx: CatalogueContext) {
  return (ctx.data as DataSource).get(['catalogue', 'seeded', cctx.language, ctx.content.locales.join('|')], () => seedLanguage(ctx.data, cctx, ctx.content));
}

/**
 * Catalogue routes of the main site in every locale: classification pages, product pages,
 * service product pages (only what the locale's country offers).
 * Each is built by the on-demand loader, so its fingerprint covers exactly the catalogue records
 * its page shows: a changed product re-renders its own page and the pages that list or relate it.
 */
export const catalogueSource: RouteSource = {
  name: 'catalogue',
  appliesTo: (site) => site.isMain,
  async routes(ctx) {
    const cctx = catalogueContext(ctx.services.catalogue, ctx.locale.language);
    const { products, services } = await seeded(ctx, cctx);
    const classifications = await cachedClassifications(ctx.data, cctx);
    const cc = ctx.country.countryCode;
    const available = availableClassificationIds(classifications, cc);
    const languages = siteLanguages(ctx.site, ctx.system.languages);
    const updatedAt = today();
    const out: SourcedRoute[] = [];
    const add = async (route: string, type: 'product' | 'service', keys: string[]) => {
      const { model, recordHashes } = await ctx.build(route, (lc, req) => loadCatalogueRoute(lc, req, type));
      if (model.kind === 'redirect' || model.kind === 'not-found') return;
      const search = model.kind === 'catalogue-classification'
        ? { title: model.classification.name, description: model.classification.description ?? '', body: text(model.children.map((x) => x.name)) }
        : model.kind === 'catalogue-product'
          ? { title: model.product.name, description: model.product.shortDescription ?? '', body: text([model.product.longDescription, model.product.brand.name, model.product.classification.name, ...model.product.highlights.flatMap((h) => [h.name, h.shortDescription])]) }
          : { title: model.service.name, description: model.service.shortDescription ?? '', body: text([model.service.longDescription, model.service.classification.name, ...model.service.benefits.flatMap((b) => [b.title, b.detail])]) };
      out.push({ pagePath: route, model, recordHashes, languages, updatedAt, keys, search });
    };
    for (const c of classifications) if (available.has(c.id)) await add(c.route, c.type, [c.id, c.slug]);
    for (const slug of products) {
      const p = await product(ctx.data, cctx, slug);
      if (isProductAvailable(p, cc, available)) await add(p.route, 'product', [p.slug]);
    }
    for (const slug of services) {
      const s = await serviceProduct(ctx.data, cctx, slug);
      if (isProductAvailable(s, cc, available)) await add(s.route, 'service', [s.slug]);
    }
    return out;
  },
};
