import { COMPARISON_PATH } from '../../site/paths.ts';
import { MAX_BASKET_PRODUCTS, type Basket } from '../basket/basket.ts';

/** Query parameter of a shared comparison: `?basket=cut-strip:kappa-310@10001-01,kappa-320;crimping:alpha-550`. */
export const SHARE_PARAM = 'basket';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const VARIANT = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The basket as one query value: groups separated by `;`, `classification:products`, products by
 * `,`, each `slug` or `slug@variantId`. Keys are not shared (the receiver makes new ones).
 */
export function encodeShare(basket: Basket): string {
  return basket
    .filter((g) => g.products.length > 0)
    .map((g) => `${g.slug}:${g.products.map((p) => (p.variantId ? `${p.slug}@${p.variantId}` : p.slug)).join(',')}`)
    .join(';');
}

/**
 * A basket from a shared value. Malformed parts are skipped, never fatal; a classification named
 * twice is merged; at most 100 products.
 */
export function decodeShare(value: string | null | undefined, makeKey: () => string): Basket {
  if (!value) return [];
  const basket: Basket = [];
  let total = 0;
  for (const part of value.split(';')) {
    const colon = part.indexOf(':');
    if (colon < 1) continue;
    const slug = part.slice(0, colon).trim();
    if (!SLUG.test(slug)) continue;
    const products = part.slice(colon + 1).split(',').flatMap((entry) => {
      const [productSlug = '', variantId, extra] = entry.trim().split('@');
      if (extra !== undefined || !SLUG.test(productSlug) || (variantId !== undefined && !VARIANT.test(variantId))) return [];
      if (total >= MAX_BASKET_PRODUCTS) return [];
      total++;
      return [{ slug: productSlug, variantId: variantId ?? null, key: makeKey() }];
    });
    if (products.length === 0) continue;
    const group = basket.find((g) => g.slug === slug);
    if (group) group.products.push(...products);
    else basket.push({ slug, products });
  }
  return basket;
}

/** The shareable address of a comparison: `{origin}{prefix}/comparison?basket=…`. */
export function shareUrl(origin: string, prefix: string, basket: Basket): string {
  const url = new URL(`${prefix}${COMPARISON_PATH}`, origin);
  const value = encodeShare(basket);
  if (value) url.searchParams.set(SHARE_PARAM, value);
  return url.toString();
}
