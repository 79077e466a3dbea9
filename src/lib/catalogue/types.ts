import type { MeasurementSystem } from '../../site/types.ts';

/** Domain types of the catalogue (spec §3), as pages, islands and the prerender use them. */

export type ClassificationType = 'product' | 'service';
export type RelationType = 'related' | 'component' | 'service';

/** One step of a classification's path: its name and its site-relative route. */
export interface LineageEntry {
  name: string;
  route: string;
}

export interface Classification {
  id: string;
  parentId: string | null;
  slug: string;
  name: string;
  description: string | null;
  type: ClassificationType;
  /** Site-relative route below the locale: `/products/wire-processing/cut-strip`. */
  route: string;
  /** From the catalogue root to this classification (itself last). */
  lineage: LineageEntry[];
  imageUrl: string | null;
  language: string;
  supportedCountries: string[];
  sortIndex: number;
  /** Ids of the direct children, in sort order. */
  childIds: string[];
}

export interface ClassificationRef {
  id: string;
  slug: string;
  name: string;
  route: string;
}

export interface CatalogueImage {
  name: string;
  url: string;
  isDefault: boolean;
}

export interface Brand {
  id: string;
  name: string;
}

/** A short view of a product or service product (listings, relations, capability search). */
export interface ProductReference {
  kind: ClassificationType;
  slug: string;
  name: string;
  brand: Brand;
  shortDescription: string | null;
  route: string;
  image: CatalogueImage | null;
  classification: ClassificationRef;
  variantCount: number;
  supportedCountries: string[];
}

/**
 * One reading of a specification. A dimensioned PIM specification becomes one entry per
 * measurement system (units keyed dim_metric / dim_imperial); a unitless one has no system.
 */
export interface Specification {
  name: string;
  value: string;
  unit: string | null;
  measurementSystem: MeasurementSystem | null;
}

export interface Variant {
  id: string;
  nameMetric: string;
  nameImperial: string;
  specifications: Specification[];
}

/** A downloadable catalogue document (spec §3 Catalogue document, mapped). */
export interface CatalogueFile {
  title: string;
  /** brochure, datasheet or manual */
  type: string;
  thumbnail: string;
  file: { url: string; size: number; locale: string; name: string; extension: string };
}

export interface Capability {
  id: string;
  name: string;
  slug: string;
  imageUrl: string | null;
}

export interface Highlight {
  name: string;
  shortDescription: string | null;
  longDescription: string | null;
  /** The image; null when the PIM had none ('' or 'null'): pages show the placeholder image then. */
  imageUrl: string | null;
  videoUrl: string | null;
  videoImageUrl: string | null;
}

export interface Video {
  url: string;
  thumbnailUrl: string | null;
  alt: string;
}

export interface RelatedItem {
  type: RelationType;
  item: ProductReference;
}

/** Relations grouped by type: related products, components and services. */
export interface RelatedGroups {
  products: ProductReference[];
  components: ProductReference[];
  services: ProductReference[];
}

export interface ProductDetail {
  slug: string;
  name: string;
  language: string;
  brand: Brand;
  shortDescription: string | null;
  longDescription: string | null;
  route: string;
  supportedCountries: string[];
  images: CatalogueImage[];
  /** The default image, else the first. */
  primaryImage: CatalogueImage | null;
  additionalImages: CatalogueImage[];
  files: CatalogueFile[];
  variants: Variant[];
  capabilities: Capability[];
  classification: Classification;
  related: RelatedItem[];
  relatedGroups: RelatedGroups;
  /** Every reading of every specification; filter with specificationsFor() for one system. */
  specifications: Specification[];
  highlights: Highlight[];
  video: Video | null;
}

export interface ServiceBenefit {
  title: string;
  detail: string | null;
}

export interface ServiceProductDetail {
  slug: string;
  name: string;
  language: string;
  shortDescription: string | null;
  longDescription: string | null;
  route: string;
  supportedCountries: string[];
  /** benefit1…benefit6 with detail1…detail6; unused slots dropped. */
  benefits: ServiceBenefit[];
  primaryImage: CatalogueImage | null;
  additionalImages: CatalogueImage[];
  allImages: CatalogueImage[];
  video: Video | null;
  classification: Classification;
  related: RelatedItem[];
  relatedGroups: RelatedGroups;
}

/** What the comparison basket needs of a product. */
export interface BasketProductSummary {
  slug: string;
  name: string;
  route: string;
  image: CatalogueImage | null;
  classification: ClassificationRef;
  variants: { id: string; nameMetric: string; nameImperial: string }[];
  supportedCountries: string[];
}

/** What the comparison view needs of a product. */
export interface ComparisonProductDetail {
  slug: string;
  name: string;
  brand: Brand;
  shortDescription: string | null;
  route: string;
  image: CatalogueImage | null;
  classification: ClassificationRef;
  specifications: Specification[];
  variants: Variant[];
  supportedCountries: string[];
}
