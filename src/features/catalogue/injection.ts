import type { ProductDetail, ServiceProductDetail } from '../../lib/catalogue/index.ts';
import type { PageInjection } from '../../lib/content/index.ts';
import { isProductAvailable } from './builders.ts';

/**
 * What a content page shows of the product or service it names (spec §3 Page `injection`): the
 * catalogue entry's essentials and a way on, to its own page and to a quote. Part of the content
 * page's model (and `_payload.json`), so it carries only what the block renders.
 */
export interface InjectedEntry {
  kind: PageInjection['kind'];
  slug: string;
  name: string;
  /** Language of the catalogue texts (the catalogue may fall back to English). */
  language: string;
  brand: string | null;
  classification: string;
  shortDescription: string | null;
  imageUrl: string | null;
  /** Site-relative route of the entry's own catalogue page. */
  route: string;
  /** A product's variant count; a service's benefit titles. */
  variantCount: number;
  benefits: string[];
}

/**
 * The block of an injected product or service, or null when the country does not offer it (the
 * page then shows its modules only, as the catalogue page would be a 404 there).
 */
export function injectedEntry(
  entry: { kind: 'product'; detail: ProductDetail } | { kind: 'service'; detail: ServiceProductDetail },
  countryCode: string,
  available: Set<string>,
): InjectedEntry | null {
  const d = entry.detail;
  if (!isProductAvailable(d, countryCode, available)) return null;
  return {
    kind: entry.kind,
    slug: d.slug,
    name: d.name,
    language: d.language,
    brand: entry.kind === 'product' ? entry.detail.brand.name : null,
    classification: d.classification.name,
    shortDescription: d.shortDescription,
    imageUrl: d.primaryImage?.url ?? null,
    route: d.route,
    variantCount: entry.kind === 'product' ? entry.detail.variants.length : 0,
    benefits: entry.kind === 'service' ? entry.detail.benefits.map((b) => b.title) : [],
  };
}
