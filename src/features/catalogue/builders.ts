import { CATALOGUE_BASE } from '../../lib/catalogue/routes.ts';
import { groupRelated } from '../../lib/catalogue/map.ts';
import type { Classification, ClassificationType, ProductDetail, ProductReference, ServiceProductDetail } from '../../lib/catalogue/index.ts';
import { isOfferedIn } from '../../site/countries.ts';
import type { ChromeModel } from '../platform/page-model.ts';
import type {
  CatalogueClassificationModel, CatalogueProductModel, CatalogueServiceModel, CatalogueTarget, ClassificationCard, OfferedIn, ProductGroup, RelatedStory,
} from './model.ts';

/** Pure builders of the catalogue models: no I/O, the same on demand and in the prerender. */

/**
 * Resolves the final slug of a catalogue path (spec 2.1): a classification of the catalogue's type,
 * else a product (or service product) slug.
 */
export function resolveTarget(slug: string, type: ClassificationType, classifications: Classification[]): CatalogueTarget {
  const c = classifications.find((x) => x.slug === slug && x.type === type);
  return c ? { kind: 'classification', classification: c } : { kind: 'product', slug };
}

/**
 * Ids of the classifications shown in a country: offered there, and every ancestor too (a
 * classification under a hidden one is unreachable).
 */
export function availableClassificationIds(classifications: Classification[], countryCode: string): Set<string> {
  const byId = new Map(classifications.map((c) => [c.id, c]));
  const out = new Set<string>();
  const memo = new Map<string, boolean>();
  const ok = (c: Classification, depth = 0): boolean => {
    const known = memo.get(c.id);
    if (known !== undefined) return known;
    const parent = c.parentId ? byId.get(c.parentId) : undefined;
    const result = isOfferedIn(c.supportedCountries, countryCode) && (!c.parentId || (!!parent && depth < 32 && ok(parent, depth + 1)));
    memo.set(c.id, result);
    return result;
  };
  for (const c of classifications) if (ok(c)) out.add(c.id);
  return out;
}

/** Whether a product (or reference) shows in a country: offered there, in a classification that shows. */
export function isProductAvailable(p: { supportedCountries: string[]; classification: { id: string } }, countryCode: string, available: Set<string>): boolean {
  return isOfferedIn(p.supportedCountries, countryCode) && available.has(p.classification.id);
}

/**
 * The direct children of a classification that show in the country, in sort order. The catalogue
 * base (`products`) also lists the other roots of its type (`smart-factory`, at their own route).
 */
export function childClassifications(c: Classification, classifications: Classification[], available: Set<string>): ClassificationCard[] {
  const isBase = c.parentId === null && c.route === CATALOGUE_BASE[c.type];
  const children = classifications.filter((x) => x.parentId === c.id);
  const roots = isBase ? classifications.filter((x) => x.parentId === null && x.type === c.type && x.id !== c.id) : [];
  return [...children, ...roots]
    .filter((x) => available.has(x.id))
    .sort((a, b) => (a.parentId === b.parentId ? a.sortIndex - b.sortIndex : a.parentId === null ? 1 : -1))
    .map((x) => ({ slug: x.slug, name: x.name, description: x.description, route: x.route, imageUrl: x.imageUrl }));
}

/** The root of a classification's tree (itself for a root). */
export function rootOf(c: Classification, classifications: Classification[]): Classification {
  const byId = new Map(classifications.map((x) => [x.id, x]));
  let root = c;
  for (let depth = 0; root.parentId && depth < 32; depth++) {
    const parent = byId.get(root.parentId);
    if (!parent) break;
    root = parent;
  }
  return root;
}

/** Ids of a classification and all its descendants. */
export function subtreeIds(c: Classification, classifications: Classification[]): Set<string> {
  const out = new Set<string>([c.id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const x of classifications) {
      if (x.parentId && out.has(x.parentId) && !out.has(x.id)) { out.add(x.id); grew = true; }
    }
  }
  return out;
}

/**
 * The classifications a page lists products of: its subtree; for a catalogue base (`/products`)
 * also the subtrees of the other roots of its type, which live below it.
 */
export function listedIds(c: Classification, classifications: Classification[]): Set<string> {
  const isBase = c.parentId === null && c.route === CATALOGUE_BASE[c.type];
  const roots = isBase ? classifications.filter((x) => x.parentId === null && x.type === c.type) : [c];
  const out = new Set<string>();
  for (const r of roots) for (const id of subtreeIds(r, classifications)) out.add(id);
  return out;
}

/**
 * The offered products of a classification's subtree (spec §5), grouped by their classification;
 * groups in catalogue order (depth-first by sort index), products by name.
 */
export function productGroups(c: Classification, products: ProductReference[], classifications: Classification[], countryCode: string, available: Set<string>): ProductGroup[] {
  const listed = listedIds(c, classifications);
  const shown = products.filter((p) => listed.has(p.classification.id) && isProductAvailable(p, countryCode, available));
  return classifications
    .filter((x) => listed.has(x.id))
    .map((x) => ({
      classification: { id: x.id, slug: x.slug, name: x.name, route: x.route },
      products: shown.filter((p) => p.classification.id === x.id).sort((a, b) => a.name.localeCompare(b.name)),
    }))
    .filter((g) => g.products.length > 0);
}

/**
 * The countries a catalogue page is offered in (null: all): the intersection of the non-empty
 * country lists of the item itself and of its classification and every ancestor.
 *
 * @example offeredIn(['US', 'CA'], '111', classifications) // ['US'] when an ancestor lists ['US', 'DE']
 */
export function offeredIn(own: readonly string[], classificationId: string | null, classifications: Classification[]): OfferedIn {
  const byId = new Map(classifications.map((x) => [x.id, x]));
  let out: Set<string> | null = own.length ? new Set(own) : null;
  let c = classificationId ? byId.get(classificationId) : undefined;
  for (let depth = 0; c && depth < 32; depth++) {
    const list = c.supportedCountries;
    if (list.length) out = out ? new Set(list.filter((x) => out!.has(x))) : new Set(list);
    c = c.parentId ? byId.get(c.parentId) : undefined;
  }
  return out ? [...out].sort() : null;
}

export function buildClassificationModel(
  chrome: ChromeModel, c: Classification, classifications: Classification[], products: ProductReference[], countryCode: string,
): CatalogueClassificationModel {
  const available = availableClassificationIds(classifications, countryCode);
  return {
    kind: 'catalogue-classification',
    ...chrome,
    offeredIn: offeredIn([], c.id, classifications),
    classification: c,
    children: childClassifications(c, classifications, available),
    productGroups: productGroups(c, products, classifications, countryCode, available),
  };
}

function offeredRelations<T extends { related: ProductDetail['related'] }>(item: T, countryCode: string, available: Set<string>): T {
  const related = item.related.filter((r) => isProductAvailable(r.item, countryCode, available));
  return { ...item, related, relatedGroups: groupRelated(related) };
}

/** A product page model: relations and the capability search limited to what the country offers. */
export function buildProductModel(
  chrome: ChromeModel, product: ProductDetail, capabilityProducts: Record<string, ProductReference[]>, classifications: Classification[], countryCode: string,
  relatedStories: RelatedStory[] = [],
): CatalogueProductModel {
  const available = availableClassificationIds(classifications, countryCode);
  return {
    kind: 'catalogue-product',
    ...chrome,
    offeredIn: offeredIn(product.supportedCountries, product.classification.id, classifications),
    product: offeredRelations(product, countryCode, available),
    capabilitySearch: product.capabilities.map((capability) => ({
      capability,
      products: (capabilityProducts[capability.id] ?? []).filter((p) => p.slug !== product.slug && isProductAvailable(p, countryCode, available)),
    })),
    relatedStories,
  };
}

export function buildServiceModel(
  chrome: ChromeModel, service: ServiceProductDetail, classifications: Classification[], countryCode: string, relatedStories: RelatedStory[] = [],
): CatalogueServiceModel {
  const available = availableClassificationIds(classifications, countryCode);
  return {
    kind: 'catalogue-service', ...chrome, offeredIn: offeredIn(service.supportedCountries, service.classification.id, classifications),
    service: offeredRelations(service, countryCode, available), relatedStories,
  };
}

/**
 * Breadcrumb trail of a catalogue page: home, the lineage (already localized routes), the page last
 * and not clickable. `language`, the catalogue's answer language, goes with every catalogue title
 * (a fallback language is marked on the page).
 */
export function catalogueCrumbs(home: { title: string; route: string }, lineage: { name: string; route: string }[], current: string | null, href: (route: string) => string, language?: string) {
  const lang = language ? { titleLanguage: language } : {};
  const trail: { title: string; route: string | null; titleLanguage?: string }[] = lineage.map((l) => ({ title: l.name, route: href(l.route) as string | null, ...lang }));
  if (current !== null) trail.push({ title: current, route: null, ...lang });
  else if (trail.length) trail[trail.length - 1] = { ...trail[trail.length - 1]!, route: null };
  return [{ title: home.title, route: home.route as string | null }, ...trail];
}
