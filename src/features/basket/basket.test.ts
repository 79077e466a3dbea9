import { describe, expect, it } from 'vitest';
import {
  addProduct, basketSlugs, changeVariant, count, hasSlug, MAX_BASKET_PRODUCTS, newKey, parseBasket, removeAllBySlug, removeByKey,
  removeClassification, serializeBasket, type Basket,
} from './basket.ts';

const p = (slug: string, classificationSlug: string, variantId: string | null = null) => ({ slug, classificationSlug, variantId });
const filled = (): Basket => {
  let b: Basket = [];
  b = addProduct(b, p('kappa-310', 'cut-strip', '10001-01'), 'k1');
  b = addProduct(b, p('alpha-550', 'crimping'), 'k2');
  b = addProduct(b, p('kappa-320', 'cut-strip'), 'k3');
  b = addProduct(b, p('kappa-310', 'cut-strip', '10001-02'), 'k4');
  return b;
};

describe('basket operations', () => {
  it('add opens a group for a new classification and joins the group of a known one', () => {
    expect(filled()).toEqual([
      { slug: 'cut-strip', products: [{ slug: 'kappa-310', variantId: '10001-01', key: 'k1' }, { slug: 'kappa-320', variantId: null, key: 'k3' }, { slug: 'kappa-310', variantId: '10001-02', key: 'k4' }] },
      { slug: 'crimping', products: [{ slug: 'alpha-550', variantId: null, key: 'k2' }] },
    ]);
    expect(count(filled())).toBe(4);
  });

  it('never changes the basket it was given', () => {
    const before = filled();
    const snapshot = JSON.stringify(before);
    addProduct(before, p('x', 'cut-strip'), 'k9');
    removeByKey(before, 'k1');
    changeVariant(before, 'k1', 'v');
    expect(JSON.stringify(before)).toBe(snapshot);
  });

  it('remove by key takes one instance; an emptied group disappears', () => {
    const b = removeByKey(filled(), 'k4');
    expect(b[0]!.products.map((x) => x.key)).toEqual(['k1', 'k3']);
    expect(removeByKey(b, 'k2').map((g) => g.slug)).toEqual(['cut-strip']);
  });

  it('remove by slug takes every instance of a product', () => {
    const b = removeAllBySlug(filled(), 'kappa-310');
    expect(b[0]!.products.map((x) => x.slug)).toEqual(['kappa-320']);
    expect(hasSlug(b, 'kappa-310')).toBe(false);
    expect(removeAllBySlug(b, 'alpha-550').map((g) => g.slug)).toEqual(['cut-strip']);
  });

  it('remove a classification takes its group', () => {
    expect(removeClassification(filled(), 'cut-strip').map((g) => g.slug)).toEqual(['crimping']);
  });

  it('change variant sets the variant of one entry', () => {
    const b = changeVariant(filled(), 'k3', '10002-02');
    expect(b[0]!.products[1]).toEqual({ slug: 'kappa-320', variantId: '10002-02', key: 'k3' });
    expect(b[0]!.products[0]!.variantId).toBe('10001-01');
  });

  it('lists each slug once, in order', () => {
    expect(basketSlugs(filled())).toEqual(['kappa-310', 'kappa-320', 'alpha-550']);
  });

  it('stops at the product limit', () => {
    let b: Basket = [];
    for (let n = 0; n < MAX_BASKET_PRODUCTS + 5; n++) b = addProduct(b, p(`p-${n}`, 'c'), `k${n}`);
    expect(count(b)).toBe(MAX_BASKET_PRODUCTS);
  });

  it('makes unique keys', () => {
    const keys = new Set(Array.from({ length: 500 }, newKey));
    expect(keys.size).toBe(500);
  });
});

describe('stored basket', () => {
  it('round-trips', () => {
    expect(parseBasket(serializeBasket(filled()))).toEqual(filled());
  });

  it.each([
    ['nothing stored', null],
    ['empty string', ''],
    ['not JSON', '{"version":1,'],
    ['JSON of another shape', '[1,2,3]'],
    ['an unknown version', JSON.stringify({ version: 2, groups: [] })],
    ['a product without key', JSON.stringify({ version: 1, groups: [{ slug: 'c', products: [{ slug: 'a', variantId: null }] }] })],
    ['an invalid slug', JSON.stringify({ version: 1, groups: [{ slug: 'c', products: [{ slug: '<script>', variantId: null, key: 'k' }] }] })],
    ['duplicate keys', JSON.stringify({ version: 1, groups: [{ slug: 'c', products: [{ slug: 'a', variantId: null, key: 'k' }, { slug: 'b', variantId: null, key: 'k' }] }] })],
    ['a classification twice', JSON.stringify({ version: 1, groups: [{ slug: 'c', products: [{ slug: 'a', variantId: null, key: 'k1' }] }, { slug: 'c', products: [{ slug: 'b', variantId: null, key: 'k2' }] }] })],
  ])('is discarded, never fatal: %s', (_label, raw) => {
    expect(parseBasket(raw)).toEqual([]);
  });

  it('drops empty groups it finds', () => {
    expect(parseBasket(JSON.stringify({ version: 1, groups: [{ slug: 'c', products: [] }] }))).toEqual([]);
  });
});
