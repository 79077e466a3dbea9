import type {
  Capability, Classification, ClassificationRef, ProductDetail, ProductReference, ServiceProductDetail,
} from '../../lib/catalogue/index.ts';
import type { ChromeModel } from '../platform/page-model.ts';

/**
 * The models catalogue routes are rendered from (spec §2.1, §3). The prerender writes them as
 * `_payload.json`; on demand and in the prerender they come from the same loaders
 * (load.server.ts). Each is already filtered for the page's country.
 */

/** A story teaser from the content hub. */
export interface RelatedStory {
  slug: string;
  title: string;
  leadText: string | null;
  imageUrl: string | null;
  /** Site-relative route of the story: `/stories/{slug}`. */
  route: string;
}

export interface ClassificationCard {
  slug: string;
  name: string;
  description: string | null;
  route: string;
  imageUrl: string | null;
}

export interface ProductGroup {
  classification: ClassificationRef;
  products: ProductReference[];
}

/**
 * The countries a catalogue page is offered in (null: every country): where its own list and those
 * of all its classifications agree. Other countries' locales answer it with a 404.
 */
export type OfferedIn = string[] | null;

export interface CatalogueClassificationModel extends ChromeModel {
  kind: 'catalogue-classification';
  offeredIn: OfferedIn;
  classification: Classification;
  children: ClassificationCard[];
  /** The offered products of the classification's subtree, grouped by their classification (a root shows them as an index). */
  productGroups: ProductGroup[];
}

export interface CapabilitySearchEntry {
  capability: Capability;
  /** Other offered products with this capability. */
  products: ProductReference[];
}

export interface CatalogueProductModel extends ChromeModel {
  kind: 'catalogue-product';
  offeredIn: OfferedIn;
  product: ProductDetail;
  capabilitySearch: CapabilitySearchEntry[];
  /** Stories about the product; rendered when not empty. */
  relatedStories?: RelatedStory[];
}

export interface CatalogueServiceModel extends ChromeModel {
  kind: 'catalogue-service';
  offeredIn: OfferedIn;
  service: ServiceProductDetail;
  relatedStories?: RelatedStory[];
}

export type CatalogueModel = CatalogueClassificationModel | CatalogueProductModel | CatalogueServiceModel;

/** What the final slug of a catalogue path names. */
export type CatalogueTarget =
  | { kind: 'classification'; classification: Classification }
  | { kind: 'product'; slug: string };

