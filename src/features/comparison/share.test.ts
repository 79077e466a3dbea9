import { describe, expect, it } from 'vitest';
import { decodeShare, encodeShare, shareUrl, SHARE_PARAM } from './share.ts';
import type { Basket } from '../basket/basket.ts';

let n = 0;
const key = () => `k${++n}`;
const basket: Basket = [
  { slug: 'cut-strip', products: [{ slug: 'kappa-310', variantId: '10001-02', key: 'a' }, { slug: 'kappa-320', variantId: null, key: 'b' }] },
  { slug: 'crimping', products: [{ slug: 'alpha-550', variantId: '10009-01', key: 'c' }] },
];
const withoutKeys = (b: Basket) => b.map((g) => ({ ...g, products: g.products.map(({ slug, variantId }) => ({ slug, variantId })) }));

describe('share encoding', () => {
  it('encodes groups, products and variants compactly', () => {
    expect(encodeShare(basket)).toBe('cut-strip:kappa-310@10001-02,kappa-320;crimping:alpha-550@10009-01');
  });

  it('decodes what it encoded, with new keys', () => {
    const decoded = decodeShare(encodeShare(basket), key);
    expect(withoutKeys(decoded)).toEqual(withoutKeys(basket));
    expect(new Set(decoded.flatMap((g) => g.products.map((p) => p.key))).size).toBe(3);
  });

  it('survives a trip through a URL', () => {
    const url = new URL(shareUrl('http://localhost:4321', '/de-ch', basket));
    expect(url.pathname).toBe('/de-ch/comparison');
    expect(withoutKeys(decodeShare(url.searchParams.get(SHARE_PARAM), key))).toEqual(withoutKeys(basket));
  });

  it('leaves the query out for an empty basket', () => {
    expect(shareUrl('http://localhost:4321', '/en', [])).toBe('http://localhost:4321/en/comparison');
  });

  it('skips malformed parts instead of failing', () => {
    const decoded = decodeShare('cut-strip:kappa-310,BAD,ok-1@v1@x,<x>;:lonely;crimping;Bad Group:a;crimping:alpha-550@%%%;crimping:alpha-565', key);
    expect(withoutKeys(decoded)).toEqual([
      { slug: 'cut-strip', products: [{ slug: 'kappa-310', variantId: null }] },
      { slug: 'crimping', products: [{ slug: 'alpha-565', variantId: null }] },
    ]);
    expect(decodeShare('', key)).toEqual([]);
    expect(decodeShare(null, key)).toEqual([]);
  });

  it('merges a classification named twice and stops at 100 products', () => {
    expect(withoutKeys(decodeShare('c:a;c:b', key))).toEqual([{ slug: 'c', products: [{ slug: 'a', variantId: null }, { slug: 'b', variantId: null }] }]);
    const many = `c:${Array.from({ length: 150 }, (_, i) => `p-${i}`).join(',')}`;
    expect(decodeShare(many, key)[0]!.products).toHaveLength(100);
  });
});
