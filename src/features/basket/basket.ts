import * as v from 'valibot';

/**
 * The comparison basket (spec §3, §4): classification groups, each with its products; a product
 * is a slug, a variant and a key unique in the basket. Every operation is pure and returns a new
 * basket; the store (store.ts) saves it and rebuilds the view.
 */

export interface BasketItem {
  slug: string;
  variantId: string | null;
  key: string;
}

export interface BasketGroup {
  /** Slug of the classification the products belong to. */
  slug: string;
  products: BasketItem[];
}

export type Basket = BasketGroup[];

export { BASKET_STORAGE_KEY } from './storage-key.ts';
/** More makes no sense to compare and the catalogue answers at most 100 slugs per request. */
export const MAX_BASKET_PRODUCTS = 100;

export interface NewBasketProduct {
  slug: string;
  variantId: string | null;
  classificationSlug: string;
}

/** Adds a product to the group of its classification, or to a new group at the end. */
export function addProduct(basket: Basket, p: NewBasketProduct, key: string): Basket {
  if (count(basket) >= MAX_BASKET_PRODUCTS) return basket;
  const item: BasketItem = { slug: p.slug, variantId: p.variantId, key };
  const group = basket.find((g) => g.slug === p.classificationSlug);
  if (!group) return [...basket, { slug: p.classificationSlug, products: [item] }];
  return basket.map((g) => (g === group ? { ...g, products: [...g.products, item] } : g));
}

const withoutEmpty = (basket: Basket): Basket => basket.filter((g) => g.products.length > 0);

/** Removes one product by its key; a group left empty disappears. */
export function removeByKey(basket: Basket, key: string): Basket {
  return withoutEmpty(basket.map((g) => ({ ...g, products: g.products.filter((p) => p.key !== key) })));
}

/** Removes every instance of a product; groups left empty disappear. */
export function removeAllBySlug(basket: Basket, slug: string): Basket {
  return withoutEmpty(basket.map((g) => ({ ...g, products: g.products.filter((p) => p.slug !== slug) })));
}

/** Removes a classification group with its products. */
export function removeClassification(basket: Basket, classificationSlug: string): Basket {
  return basket.filter((g) => g.slug !== classificationSlug);
}

/** Sets the variant of one product. */
export function changeVariant(basket: Basket, key: string, variantId: string | null): Basket {
  return basket.map((g) => ({ ...g, products: g.products.map((p) => (p.key === key ? { ...p, variantId } : p)) }));
}

export function count(basket: Basket): number {
  return basket.reduce((n, g) => n + g.products.length, 0);
}

export function hasSlug(basket: Basket, slug: string): boolean {
  return basket.some((g) => g.products.some((p) => p.slug === slug));
}

/** Every slug in the basket once, in basket order. */
export function basketSlugs(basket: Basket): string[] {
  return [...new Set(basket.flatMap((g) => g.products.map((p) => p.slug)))];
}

const Slug = v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/), v.maxLength(100));
const VariantId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,64}$/));
const StoredSchema = v.object({
  version: v.literal(1),
  groups: v.array(v.object({
    slug: Slug,
    products: v.array(v.object({ slug: Slug, variantId: v.nullable(VariantId), key: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) })),
  })),
});

/** The stored form: versioned, so a future shape can tell old data apart. */
export function serializeBasket(basket: Basket): string {
  return JSON.stringify({ version: 1, groups: basket });
}

/**
 * Reads a stored basket. Anything unreadable — bad JSON, an unknown shape, duplicate keys —
 * is discarded and gives an empty basket: never an error.
 */
export function parseBasket(raw: string | null | undefined): Basket {
  if (!raw) return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  const parsed = v.safeParse(StoredSchema, data);
  if (!parsed.success) return [];
  const keys = new Set<string>();
  const slugs = new Set<string>();
  for (const g of parsed.output.groups) {
    if (slugs.has(g.slug)) return [];
    slugs.add(g.slug);
    for (const p of g.products) {
      if (keys.has(p.key)) return [];
      keys.add(p.key);
    }
  }
  const basket = withoutEmpty(parsed.output.groups);
  return count(basket) > MAX_BASKET_PRODUCTS ? [] : basket;
}

let sequence = 0;
/** A key unique in the basket (time + counter + random; no crypto needed). */
export function newKey(): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${Date.now().toString(36)}-${sequence.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
