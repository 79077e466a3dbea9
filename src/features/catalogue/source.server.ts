import { allProducts, allReferences, classifications as cachedClassifications, product, productKey, serviceProduct } from '../../lib/catalogue/cached.ts';
import { ProductNotFoundError } from '../../lib/catalogue/index.ts';
import { relatedStoriesKey, relatedStoriesOfMany } from '../../lib/content/cached.ts';
import type { StoryListItem } from '../../lib/content/index.ts';
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

/**
 * Loads a language's catalogue in a few calls and seeds the run's data with what the per-route
 * loaders will ask for: every product in one bulk query (seeded under the key `product(slug)`
 * reads), each service product, and the related stories of all of them in one query. Any failing
 * catalogue call fails the run (nothing is written), as for the content hub.
 */
async function seedLanguage(data: RunData, ctx: CatalogueContext, content: ContentContext): Promise<{ products: string[]; services: string[] }> {
  const [references, products] = await Promise.all([allReferences(data, ctx), allProducts(data, ctx)]);
  for (const p of products) data.seed(productKey(ctx, p.slug), p);
  const services = (await Promise.all(references.filter((r) => r.kind === 'service').map((r) => serviceProduct(data, ctx, r.slug).catch((err: unknown) => {
    if (err instanceof ProductNotFoundError) return null;
    throw err;
  })))).filter((s) => s !== null);
  const slugs = [...products.map((p) => p.slug), ...services.map((s) => s.slug)];
  // Not critical: when the bulk query fails, every product page shows without related stories.
  const bySlug = await relatedStoriesOfMany(data, content, slugs, RELATED_STORIES).catch((err: unknown) => {
    getLogger('catalogue').warn(`related stories: ${(err as Error).message}`);
    return new Map<string, StoryListItem[]>();
  });
  for (const slug of slugs) data.seed(relatedStoriesKey(content, slug, RELATED_STORIES), bySlug.get(slug) ?? []);
  return { products: products.map((p) => p.slug), services: services.map((s) => s.slug) };
}

/** The bulk loads of a run, once per language and content chain, whichever locale asks first. */
const seededRuns = new WeakMap<RunData, Map<string, ReturnType<typeof seedLanguage>>>();
function seeded(ctx: RouteSourceContext, cctx: CatalogueContext) {
  let run = seededRuns.get(ctx.data);
  if (!run) seededRuns.set(ctx.data, (run = new Map()));
  const id = `${cctx.language}|${ctx.content.locales.join('|')}`;
  let done = run.get(id);
  if (!done) run.set(id, (done = seedLanguage(ctx.data, cctx, ctx.content)));
  return done;
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
      const kept = ctx.kept(route);
      if (kept) { out.push(kept); return; }
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
