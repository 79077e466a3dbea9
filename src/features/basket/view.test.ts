import { describe, expect, it } from 'vitest';
import { basketView, type BasketSummary } from './view.ts';
import type { Basket } from './basket.ts';

const basket: Basket = [
  { slug: 'cut-strip', products: [{ slug: 'kappa-310', variantId: 'v2', key: 'k1' }, { slug: 'kappa-320', variantId: null, key: 'k2' }] },
];
const kappa310: BasketSummary = {
  slug: 'kappa-310', name: 'Kappa 310', route: '/products/wire-processing/cut-strip/kappa-310', imageUrl: '/_image?x',
  classification: { slug: 'cut-strip', name: 'Cut & strip machines' },
  variants: [{ id: 'v1', nameMetric: '0.05–2.5 mm²', nameImperial: 'AWG 30–14' }, { id: 'v2', nameMetric: '0.5–6 mm²', nameImperial: 'AWG 20–10' }],
};

describe('basketView', () => {
  it('adds name, variant name in the measurement system, image and URL', () => {
    const [group] = basketView(basket, { 'kappa-310': kappa310 }, 'Imperial', '/en-us');
    expect(group!.name).toBe('Cut & strip machines');
    expect(group!.products[0]).toEqual({
      key: 'k1', slug: 'kappa-310', variantId: 'v2', name: 'Kappa 310', variantName: 'AWG 20–10', imageUrl: '/_image?x',
      url: '/en-us/products/wire-processing/cut-strip/kappa-310', loading: false,
    });
    expect(basketView(basket, { 'kappa-310': kappa310 }, 'Metric', '/en')[0]!.products[0]!.variantName).toBe('0.5–6 mm²');
  });

  it('marks products whose data has not arrived as loading', () => {
    const [group] = basketView(basket, { 'kappa-310': kappa310 }, 'Metric', '/en');
    expect(group!.products[1]).toMatchObject({ slug: 'kappa-320', name: null, loading: true, url: '/en/products/kappa-320' });
  });

  it('names a group by its slug until a product of it has loaded', () => {
    expect(basketView(basket, {}, 'Metric', '/en')[0]!.name).toBe('cut-strip');
  });
});
