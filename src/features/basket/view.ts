import { productPath } from '../../site/paths.ts';
import type { MeasurementSystem } from '../../site/types.ts';
import { variantName } from '../technical-data/specifications.ts';
import type { Basket } from './basket.ts';

/** What the basket shows of a product; fetched from /api/catalogue/basket (or given by the product page). */
export interface BasketSummary {
  slug: string;
  name: string;
  /** Site-relative route: `/products/wire-processing/cut-strip/kappa-310`. */
  route: string;
  /** A transformed image URL (/_image?…), or null. */
  imageUrl: string | null;
  classification: { slug: string; name: string };
  variants: { id: string; nameMetric: string; nameImperial: string }[];
}

export interface BasketViewProduct {
  key: string;
  slug: string;
  variantId: string | null;
  /** Null while the product's data is loading. */
  name: string | null;
  variantName: string | null;
  imageUrl: string | null;
  url: string;
  loading: boolean;
}

export interface BasketViewGroup {
  slug: string;
  name: string;
  products: BasketViewProduct[];
}

/**
 * The populated basket (spec §3): name, the variant's name in the visitor's measurement system,
 * image and URL per product; rebuilt after every change. `prefix` is the locale prefix of links
 * (`/en`); a product whose data has not arrived yet is marked loading.
 */
export function basketView(basket: Basket, summaries: Record<string, BasketSummary | undefined>, system: MeasurementSystem, prefix: string): BasketViewGroup[] {
  return basket.map((g) => {
    const products = g.products.map((p): BasketViewProduct => {
      const s = summaries[p.slug];
      const variant = s?.variants.find((x) => x.id === p.variantId);
      return {
        key: p.key,
        slug: p.slug,
        variantId: p.variantId,
        name: s?.name ?? null,
        variantName: variant ? variantName(variant, system) : null,
        imageUrl: s?.imageUrl ?? null,
        url: s ? `${prefix}${s.route}` : `${prefix}${productPath(p.slug)}`,
        loading: !s,
      };
    });
    const named = g.products.map((p) => summaries[p.slug]).find((s) => s && s.classification.slug === g.slug);
    return { slug: g.slug, name: named?.classification.name ?? g.slug, products };
  });
}
