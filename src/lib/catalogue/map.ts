import { classificationPaths, productRoute } from './routes.ts';
import type {
  RawBasketProduct, RawClassification, RawComparisonProduct, RawHighlight, RawImage, RawProduct, RawReference, RawServiceProduct, RawSpecification,
} from './schema.ts';
import type {
  BasketProductSummary, CatalogueImage, Classification, ClassificationRef, ComparisonProductDetail, Highlight, ProductDetail, ProductReference,
  RelatedGroups, RelatedItem, ServiceBenefit, ServiceProductDetail, Specification, Variant,
} from './types.ts';

/** Reports a skipped reference (logged, never fatal). */
export type Warn = (message: string) => void;
const quiet: Warn = () => {};

/** Classifications by id and by slug. */
export interface ClassificationLookup {
  byId: Map<string, Classification>;
  bySlug: Map<string, Classification>;
}

/**
 * Raw classifications with their routes and lineage. One whose parent is missing is logged and
 * skipped (with its subtree); children ids that name nothing are dropped.
 */
export function mapClassifications(raw: RawClassification[], warn: Warn = quiet): Classification[] {
  const paths = classificationPaths(raw.map((c) => ({ id: c.id, parentId: c.parent_id ?? null, slug: c.slug, name: c.name, type: c.type, raw: c })), warn);
  const kept = raw.filter((c) => paths.has(c.id));
  const ids = new Set(kept.map((c) => c.id));
  return kept.map((c) => {
    const path = paths.get(c.id)!;
    return {
      id: c.id,
      parentId: c.parent_id ?? null,
      slug: c.slug,
      name: c.name,
      description: c.description ?? null,
      type: c.type,
      route: path.route,
      lineage: path.lineage,
      imageUrl: c.image_url || null,
      language: c.language,
      supportedCountries: c.supported_countries,
      sortIndex: c.sort_index,
      childIds: c.children.filter((id) => ids.has(id)),
    };
  });
}

export function indexClassifications(list: Classification[]): ClassificationLookup {
  return { byId: new Map(list.map((c) => [c.id, c])), bySlug: new Map(list.map((c) => [c.slug, c])) };
}

export function classificationRef(c: Classification): ClassificationRef {
  return { id: c.id, slug: c.slug, name: c.name, route: c.route };
}

/**
 * Every reading of every specification: a dimensioned one gives one entry per measurement system
 * it has a reading for (units keyed dim_metric / dim_imperial), a unitless one a single entry
 * without a system.
 */
export function mapSpecifications(raw: RawSpecification[]): Specification[] {
  return raw.flatMap((s): Specification[] => {
    const metric = s.units?.dim_metric;
    const imperial = s.units?.dim_imperial;
    if (metric || imperial) {
      const out: Specification[] = [];
      if (metric) out.push({ name: s.name, value: metric.value, unit: metric.unit, measurementSystem: 'Metric' });
      if (imperial) out.push({ name: s.name, value: imperial.value, unit: imperial.unit, measurementSystem: 'Imperial' });
      return out;
    }
    const system = s.measurement_system === 'Metric' || s.measurement_system === 'Imperial' ? s.measurement_system : null;
    return [{ name: s.name, value: s.value, unit: s.unit ?? null, measurementSystem: system }];
  });
}

/** Images with the primary (default, else first) and the others in their order. */
export function mapImages(raw: RawImage[]): { images: CatalogueImage[]; primaryImage: CatalogueImage | null; additionalImages: CatalogueImage[] } {
  const images = raw.map((i) => ({ name: i.name, url: i.url, isDefault: i.default }));
  const primaryImage = images.find((i) => i.isDefault) ?? images[0] ?? null;
  return { images, primaryImage, additionalImages: images.filter((i) => i !== primaryImage) };
}

/** A PIM image URL that is really missing: empty or the string 'null'. */
export function isMissingImage(url: string | null | undefined): boolean {
  return url === undefined || url === null || url.trim() === '' || url.trim() === 'null';
}

/**
 * Highlights with a name and an image or a video (spec §5). An empty image or the string 'null'
 * becomes null: the page shows the placeholder image instead.
 */
export function mapHighlights(raw: RawHighlight[]): Highlight[] {
  return raw
    .filter((h) => !!h.name?.trim() && ((h.image_url !== null && h.image_url !== undefined) || !!h.video_url))
    .map((h) => ({
      name: h.name!.trim(),
      shortDescription: h.short_description ?? null,
      longDescription: h.long_description ?? null,
      imageUrl: isMissingImage(h.image_url) ? null : h.image_url!,
      videoUrl: h.video_url || null,
      videoImageUrl: isMissingImage(h.video_image_url) ? null : h.video_image_url!,
    }));
}

function classificationOf(id: string, what: string, lookup: ClassificationLookup, warn: Warn): Classification | null {
  const c = lookup.byId.get(id);
  if (!c) warn(`${what}: classification ${id} not found, skipped`);
  return c ?? null;
}

interface RawPlaced {
  slug: string;
  name: string;
  images: Parameters<typeof mapImages>[0];
  classification_id: string;
  supported_countries: string[];
}

/**
 * What every product view shares — slug, name, route, primary image, classification, countries —
 * placed in its classification; null (logged) when the classification is unknown.
 */
function placeProduct(raw: RawPlaced, what: string, lookup: ClassificationLookup, warn: Warn) {
  const c = classificationOf(raw.classification_id, `${what} ${raw.slug}`, lookup, warn);
  if (!c) return null;
  return {
    slug: raw.slug,
    name: raw.name,
    route: productRoute(c.route, raw.slug),
    image: mapImages(raw.images).primaryImage,
    classification: classificationRef(c),
    supportedCountries: raw.supported_countries,
  };
}

/** A product reference with its route; null (logged) when its classification is unknown. */
export function mapReference(raw: RawReference, lookup: ClassificationLookup, warn: Warn = quiet): ProductReference | null {
  const placed = placeProduct(raw, raw.type, lookup, warn);
  if (!placed) return null;
  return { kind: raw.type, ...placed, brand: raw.brand, shortDescription: raw.short_description ?? null, variantCount: raw.variant_count };
}

export function mapReferences(raw: RawReference[], lookup: ClassificationLookup, warn: Warn = quiet): ProductReference[] {
  return raw.map((r) => mapReference(r, lookup, warn)).filter((r): r is ProductReference => r !== null);
}

/** Relations grouped by type (related products, components, services). */
export function groupRelated(related: RelatedItem[]): RelatedGroups {
  const pick = (type: RelatedItem['type']) => related.filter((r) => r.type === type).map((r) => r.item);
  return { products: pick('related'), components: pick('component'), services: pick('service') };
}

function mapRelations(owner: string, raw: { type: RelatedItem['type']; slug?: string; product?: RawReference | null }[], lookup: ClassificationLookup, warn: Warn): RelatedItem[] {
  const out: RelatedItem[] = [];
  for (const r of raw) {
    if (!r.product) { warn(`${owner}: ${r.type} relation ${r.slug ?? '?'} not found, skipped`); continue; }
    const item = mapReference(r.product, lookup, warn);
    if (item) out.push({ type: r.type, item });
  }
  return out;
}

function mapVariants(raw: RawProduct['variants']): Variant[] {
  return raw.map((v) => ({ id: v.id, nameMetric: v.nameMetric, nameImperial: v.nameImperial, specifications: mapSpecifications(v.specifications) }));
}

/** A full product; null (logged) when its classification is unknown, so it has no route. */
export function mapProduct(raw: RawProduct, lookup: ClassificationLookup, warn: Warn = quiet): ProductDetail | null {
  const classification = classificationOf(raw.classification_id, `product ${raw.slug}`, lookup, warn);
  if (!classification) return null;
  const related = mapRelations(`product ${raw.slug}`, raw.related, lookup, warn);
  return {
    slug: raw.slug,
    name: raw.name,
    language: raw.language,
    brand: raw.brand,
    shortDescription: raw.short_description ?? null,
    longDescription: raw.long_description ?? null,
    route: productRoute(classification.route, raw.slug),
    supportedCountries: raw.supported_countries,
    ...mapImages(raw.images),
    files: raw.documents.map((d) => ({
      title: d.name,
      type: d.type,
      thumbnail: d.thumbnail_url,
      file: { url: d.url, size: d.size_bytes, locale: d.content_language, name: d.filename, extension: d.extension },
    })),
    variants: mapVariants(raw.variants),
    capabilities: raw.capability_details.map((c) => ({ id: c.id, name: c.name, slug: c.slug, imageUrl: isMissingImage(c.image_url) ? null : c.image_url! })),
    classification,
    related,
    relatedGroups: groupRelated(related),
    specifications: mapSpecifications(raw.specifications),
    highlights: mapHighlights(raw.highlights),
    video: raw.video ? { url: raw.video.url, thumbnailUrl: isMissingImage(raw.video.thumbnail_url) ? null : raw.video.thumbnail_url!, alt: raw.video.alt || raw.name } : null,
  };
}

const SLOTS = [1, 2, 3, 4, 5, 6] as const;

/** A service product: benefits 1–6 with their details, images, video (alt = name), relations plain and grouped. */
export function mapServiceProduct(raw: RawServiceProduct, lookup: ClassificationLookup, warn: Warn = quiet): ServiceProductDetail | null {
  const classification = classificationOf(raw.classification_id, `service ${raw.slug}`, lookup, warn);
  if (!classification) return null;
  const benefits: ServiceBenefit[] = SLOTS
    .map((i) => ({ title: raw.service[`benefit${i}`]?.trim() ?? '', detail: raw.service[`detail${i}`]?.trim() || null }))
    .filter((b) => b.title !== '');
  const { images, primaryImage, additionalImages } = mapImages(raw.images);
  const related = mapRelations(`service ${raw.slug}`, raw.related, lookup, warn);
  return {
    slug: raw.slug,
    name: raw.name,
    language: raw.language,
    shortDescription: raw.short_description ?? null,
    longDescription: raw.long_description ?? null,
    route: productRoute(classification.route, raw.slug),
    supportedCountries: raw.supported_countries,
    benefits,
    primaryImage,
    additionalImages,
    allImages: images,
    video: raw.video_url ? { url: raw.video_url, thumbnailUrl: isMissingImage(raw.video_image_url) ? null : raw.video_image_url!, alt: raw.name } : null,
    classification,
    related,
    relatedGroups: groupRelated(related),
  };
}

export function mapBasketProduct(raw: RawBasketProduct, lookup: ClassificationLookup, warn: Warn = quiet): BasketProductSummary | null {
  const placed = placeProduct(raw, 'product', lookup, warn);
  if (!placed) return null;
  return { ...placed, variants: raw.variants.map((v) => ({ id: v.id, nameMetric: v.nameMetric, nameImperial: v.nameImperial })) };
}

export function mapComparisonProduct(raw: RawComparisonProduct, lookup: ClassificationLookup, warn: Warn = quiet): ComparisonProductDetail | null {
  const placed = placeProduct(raw, 'product', lookup, warn);
  if (!placed) return null;
  return {
    ...placed,
    brand: raw.brand,
    shortDescription: raw.short_description ?? null,
    specifications: mapSpecifications(raw.specifications),
    variants: mapVariants(raw.variants),
  };
}
