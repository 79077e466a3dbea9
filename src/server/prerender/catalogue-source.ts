import { relatedStoriesForAll } from '../../models/catalogue-stories.ts';
import type { RelatedStory } from '../../models/catalogue.ts';
import {
  getClassificationProducts, getClassifications, getProductsByCapability, getProductsFull, getServiceProduct, indexClassifications,
  ProductNotFoundError, type CatalogueContext, type Classification, type ProductDetail, type ProductReference, type ServiceProductDetail,
} from '../../lib/catalogue/index.ts';
import { catalogueContext } from '../../models/catalogue-context.ts';
import {
  availableClassificationIds, buildClassificationModel, buildProductModel, buildServiceModel, isProductAvailable,
  type CatalogueModel, type ComparisonPageModel,
} from '../../models/catalogue.ts';
import type { SearchText } from '../../models/page-model.ts';
import { siteLanguages } from '../../site/locale.ts';
import type { RouteSource, RouteSourceContext, SourcedRoute } from './sources.ts';

/** Everything the catalogue routes of one language are built from, fetched once per run. */
export interface CatalogueLanguageData {
  classifications: Classification[];
  /** References of every product and service product, of every tree. */
  references: ProductReference[];
  products: ProductDetail[];
  services: ServiceProductDetail[];
  /** Products per capability id (for the capability search). */
  capabilityProducts: Record<string, ProductReference[]>;
}

const unique = <T>(list: T[], key: (x: T) => string): T[] => {
  const seen = new Set<string>();
  return list.filter((x) => (seen.has(key(x)) ? false : (seen.add(key(x)), true)));
};

/**
 * Loads a language's catalogue in a few calls: the classification trees, the references of each
 * root's subtree, every product in bulk, each service product, and the products per capability.
 * Any failing call fails the run (nothing is written), as for the content hub.
 */
export async function loadCatalogueLanguage(ctx: CatalogueContext): Promise<CatalogueLanguageData> {
  const classifications = await getClassifications(ctx);
  const lookup = indexClassifications(classifications);
  const roots = classifications.filter((c) => c.parentId === null);
  const references = unique((await Promise.all(roots.map((r) => getClassificationProducts(ctx, lookup, r.slug, r.type, true)))).flat(), (r) => `${r.kind}:${r.slug}`);
  const productSlugs = references.filter((r) => r.kind === 'product').map((r) => r.slug);
  const serviceSlugs = references.filter((r) => r.kind === 'service').map((r) => r.slug);
  const [products, services] = await Promise.all([
    getProductsFull(ctx, lookup, productSlugs),
    Promise.all(serviceSlugs.map((slug) => getServiceProduct(ctx, lookup, slug).catch((err: unknown) => {
      if (err instanceof ProductNotFoundError) return null;
      throw err;
    }))).then((list) => list.filter((s): s is ServiceProductDetail => s !== null)),
  ]);
  const capabilityIds = [...new Set(products.flatMap((p) => p.capabilities.map((c) => c.id)))];
  const capabilityProducts = Object.fromEntries(await Promise.all(capabilityIds.map(async (id) => [id, await getProductsByCapability(ctx, lookup, id)] as const)));
  return { classifications, references, products, services, capabilityProducts };
}

/**
 * The record hashes of a catalogue route: the records its model is derived from (the derivation
 * itself is app code, covered by the build id). Shared records are the same objects for every
 * locale of a language, so each is hashed once per run, not once per route.
 */
function recordHashes(ctx: RouteSourceContext, records: unknown[]): string[] {
  return [ctx.country.countryCode, ...records.map((r) => ctx.hash(r))];
}

const text = (parts: (string | null | undefined)[]) => parts.filter(Boolean).join('\n');

/** A stable date for the sitemap: the catalogue keeps no change dates, so the day of the run. */
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Catalogue routes of the main site in every locale: classification pages, product pages,
 * service product pages (only what the locale's country offers) and the comparison page shell.
 * Each route's record hash covers exactly the catalogue records its page shows, so a changed
 * product re-renders its own page and the pages that list or relate it, nothing else.
 */
export const catalogueSource: RouteSource = {
  name: 'catalogue',
  appliesTo: (site) => site.isMain,
  async routes(ctx) {
    const cctx = catalogueContext(ctx.locale.language);
    const data = await ctx.memo(`catalogue:${cctx.language}`, () => loadCatalogueLanguage(cctx));
    const cc = ctx.country.countryCode;
    const available = availableClassificationIds(data.classifications, cc);
    const languages = siteLanguages(ctx.site, ctx.system.languages);
    const updatedAt = today();
    const route = (pagePath: string, model: CatalogueModel, records: unknown[], keys: string[], search: SearchText): SourcedRoute => ({
      pagePath, model, recordHashes: recordHashes(ctx, records), languages, updatedAt, keys, search,
    });
    const out: SourcedRoute[] = [];
    // Stories exist per language (English fallback): one bulk lookup per language.
    const storyContext = { ...ctx.content, locales: [...new Set([ctx.locale.language, 'en'])] };
    const storiesBySlug = await ctx.memo(`relatedStories:${ctx.locale.language}`, () =>
      relatedStoriesForAll(storyContext, [...data.products.map((p) => p.slug), ...data.services.map((s) => s.slug)]));
    const noStories: RelatedStory[] = [];
    const stories = (slug: string) => storiesBySlug.get(slug) ?? noStories;

    // A classification page lists references of its own tree type only.
    const refsByType = { product: data.references.filter((r) => r.kind === 'product'), service: data.references.filter((r) => r.kind === 'service') };
    for (const c of data.classifications) {
      if (!available.has(c.id)) continue;
      const model = buildClassificationModel(ctx.chrome, c, data.classifications, refsByType[c.type], cc);
      out.push(route(c.route, model, [c, data.classifications, refsByType[c.type]], [c.id, c.slug], { title: c.name, description: c.description ?? '', body: text(model.children.map((x) => x.name)) }));
    }
    for (const p of data.products) {
      if (!isProductAvailable(p, cc, available)) continue;
      const model = buildProductModel(ctx.chrome, p, data.capabilityProducts, data.classifications, cc, stories(p.slug));
      out.push(route(p.route, model, [p, data.classifications, data.capabilityProducts, stories(p.slug)], [p.slug], {
        title: p.name,
        description: p.shortDescription ?? '',
        body: text([p.longDescription, p.brand.name, p.classification.name, ...p.highlights.flatMap((h) => [h.name, h.shortDescription])]),
      }));
    }
    for (const s of data.services) {
      if (!isProductAvailable(s, cc, available)) continue;
      const model = buildServiceModel(ctx.chrome, s, data.classifications, cc, stories(s.slug));
      out.push(route(s.route, model, [s, data.classifications, stories(s.slug)], [s.slug], {
        title: s.name,
        description: s.shortDescription ?? '',
        body: text([s.longDescription, s.classification.name, ...s.benefits.flatMap((b) => [b.title, b.detail])]),
      }));
    }
    const comparison: ComparisonPageModel = { kind: 'catalogue-comparison', ...ctx.chrome };
    out.push({ pagePath: '/comparison', model: comparison, recordHashes: [], languages, updatedAt, keys: ['comparison'] });
    return out;
  },
};
