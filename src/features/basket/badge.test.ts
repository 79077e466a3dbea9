import { describe, expect, it } from 'vitest';
import { addProduct, parseBasket, serializeBasket, type Basket } from './basket.ts';
import { storedCount } from './badge.ts';

const add = (b: Basket, slug: string, group: string, key: string) => addProduct(b, { slug, variantId: null, classificationSlug: group }, key);

describe('storedCount (the badge script reads the stored basket without the store)', () => {
  it('counts the products of what the store writes', () => {
    const basket = add(add(add([], 'kappa-310', 'cut-strip', 'a'), 'kappa-320', 'cut-strip', 'b'), 'alpha-550', 'crimping', 'c');
    const raw = serializeBasket(basket);
    expect(storedCount(raw)).toBe(3);
    expect(storedCount(raw)).toBe(parseBasket(raw).reduce((n, g) => n + g.products.length, 0));
    expect(storedCount(serializeBasket([]))).toBe(0);
  });

  it('is 0 for nothing or anything unreadable', () => {
    for (const raw of [null, '', '{not json', 'null', '[]', '{"version":2,"groups":[]}', '{"version":1,"groups":{}}', '"x"']) {
      expect(storedCount(raw), String(raw)).toBe(0);
    }
  });
});
