import type { Specification, Variant } from '../../lib/catalogue/index.ts';
import type { ChromeModel } from '../platform/page-model.ts';

/** The comparison page is an island shell: only the chrome is rendered on the server. */
export interface ComparisonPageModel extends ChromeModel {
  kind: 'catalogue-comparison';
}

/** What the comparison island gets per product. */
export interface ComparisonApiProduct {
  slug: string;
  name: string;
  brand: string;
  /** The brand's image in the Brand preset (a /_image URL), null when the brand has none. */
  brandImageUrl: string | null;
  shortDescription: string | null;
  route: string;
  imageUrl: string;
  classification: { slug: string; name: string };
  specifications: Specification[];
  variants: Variant[];
}
