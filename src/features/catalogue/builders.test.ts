import { describe, expect, it } from 'vitest';
import type { Classification, ProductDetail, ProductReference } from '../../lib/catalogue/index.ts';
import {
  availableClassificationIds, buildClassificationModel, buildProductModel, catalogueCrumbs, childClassifications, isProductAvailable,
  offeredIn, productGroups, resolveTarget,
} from './builders.ts';

const ALL = ['CH', 'US'];
const c = (id: string, parentId: string | null, slug: string, route: string, countries = ALL, sortIndex = 1, type: 'product' | 'service' = 'product'): Classification => ({
  id, parentId, slug, name: slug, description: null, type, route, lineage: [{ name: slug, route }], imageUrl: null, language: 'en',
  supportedCountries: countries, sortIndex, childIds: [],
});
const tree = [
  c('100', null, 'products', '/products', ALL, 1),
  c('110', '100', 'wire-processing', '/products/wire-processing', ALL, 1),
  c('111', '110', 'cut-strip', '/products/wire-processing/cut-strip', ALL, 1),
  c('116', '110', 'ultrasonic-welding', '/products/wire-processing/ultrasonic-welding', ['US'], 6),
  c('117', '116', 'below-us-only', '/products/wire-processing/ultrasonic-welding/below-us-only', ALL, 1),
  c('200', null, 'smart-factory', '/smart-factory', ALL, 2),
  c('210', '200', 'software', '/smart-factory/software', ALL, 1),
  c('300', null, 'services', '/services', ALL, 3, 'service'),
];
const ref = (slug: string, classificationId: string, countries = ALL): ProductReference => ({
  kind: 'product', slug, name: slug.toUpperCase(), brand: { id: 'KMX', name: 'Komax' }, shortDescription: null, route: `/x/${slug}`, image: null,
  classification: { id: classificationId, slug: 'x', name: 'x', route: '/x' }, variantCount: 1, supportedCountries: countries,
});
const chrome = { header: null, footer: null };

describe('offeredIn', () => {
  it('is where the item and all its classifications are offered, null when none restricts it', () => {
    expect(offeredIn([], '111', tree)).toEqual(['CH', 'US']);
    expect(offeredIn([], '117', tree)).toEqual(['US']);
    expect(offeredIn(['CH', 'DE'], '111', tree)).toEqual(['CH']);
    expect(offeredIn([], null, tree)).toBeNull();
  });
});

describe('resolveTarget', () => {
  it('is a classification of the catalogue type, else a product slug', () => {
    expect(resolveTarget('cut-strip', 'product', tree)).toMatchObject({ kind: 'classification', classification: { id: '111' } });
    expect(resolveTarget('kappa-310', 'product', tree)).toEqual({ kind: 'product', slug: 'kappa-310' });
    expect(resolveTarget('services', 'product', tree)).toEqual({ kind: 'product', slug: 'services' });
  });
});

describe('availability by country', () => {
  it('needs the classification and every ancestor offered (ALL shows everything)', () => {
    const ch = availableClassificationIds(tree, 'CH');
    expect(ch.has('111')).toBe(true);
    expect(ch.has('116')).toBe(false);
    expect(ch.has('117')).toBe(false);
    expect(availableClassificationIds(tree, 'US').has('117')).toBe(true);
    expect(availableClassificationIds(tree, 'ALL').size).toBe(tree.length);
  });

  it('needs the product offered in the country and its classification shown', () => {
    const ch = availableClassificationIds(tree, 'CH');
    expect(isProductAvailable(ref('kappa-310', '111'), 'CH', ch)).toBe(true);
    expect(isProductAvailable(ref('kappa-242-us', '111', ['US']), 'CH', ch)).toBe(false);
    expect(isProductAvailable(ref('sw-2500', '116'), 'CH', ch)).toBe(false);
    expect(isProductAvailable(ref('kappa-242-us', '111', ['US']), 'ALL', availableClassificationIds(tree, 'ALL'))).toBe(true);
  });
});

describe('classification pages', () => {
  it('list the children shown in the country; the catalogue base also lists the other roots of its type', () => {
    const ch = availableClassificationIds(tree, 'CH');
    expect(childClassifications(tree[1]!, tree, ch).map((x) => x.slug)).toEqual(['cut-strip']);
    expect(childClassifications(tree[1]!, tree, availableClassificationIds(tree, 'US')).map((x) => x.slug)).toEqual(['cut-strip', 'ultrasonic-welding']);
    expect(childClassifications(tree[0]!, tree, ch).map((x) => x.slug)).toEqual(['wire-processing', 'smart-factory']);
  });

  it('group the offered products of the subtree by classification', () => {
    const refs = [ref('kappa-320', '111'), ref('kappa-310', '111'), ref('kappa-242-us', '111', ['US']), ref('sw-2500', '116'), ref('quadrel-mes', '210')];
    const groups = (slug: string, cc: string) => productGroups(tree.find((x) => x.slug === slug)!, refs, tree, cc, availableClassificationIds(tree, cc))
      .map((g) => `${g.classification.slug}: ${g.products.map((p) => p.slug).join(' ')}`);
    expect(groups('wire-processing', 'CH')).toEqual(['cut-strip: kappa-310 kappa-320']);
    expect(groups('wire-processing', 'US')).toEqual(['cut-strip: kappa-242-us kappa-310 kappa-320', 'ultrasonic-welding: sw-2500']);
    expect(groups('products', 'CH')).toEqual(['cut-strip: kappa-310 kappa-320', 'software: quadrel-mes']);
  });

  it('build a model with children and products', () => {
    const model = buildClassificationModel(chrome, tree[1]!, tree, [ref('kappa-310', '111')], 'CH');
    expect(model.kind).toBe('catalogue-classification');
    expect(model.children).toHaveLength(1);
    expect(model.productGroups[0]!.products[0]!.slug).toBe('kappa-310');
  });
});

describe('product pages', () => {
  const product = {
    slug: 'kappa-310', classification: tree[2]!, supportedCountries: ALL,
    capabilities: [{ id: '504', name: 'Cutting', slug: 'cutting', imageUrl: null }],
    related: [{ type: 'related', item: ref('kappa-320', '111') }, { type: 'related', item: ref('kappa-242-us', '111', ['US']) }, { type: 'service', item: ref('training', '111') }],
    relatedGroups: { products: [], components: [], services: [] },
  } as unknown as ProductDetail;

  it('keep only relations the country offers, grouped again', () => {
    const model = buildProductModel(chrome, product, {}, tree, 'CH');
    expect(model.product.related.map((r) => r.item.slug)).toEqual(['kappa-320', 'training']);
    expect(model.product.relatedGroups.products.map((r) => r.slug)).toEqual(['kappa-320']);
    expect(model.product.relatedGroups.services.map((r) => r.slug)).toEqual(['training']);
    expect(model.relatedStories).toEqual([]);
  });

  it('search each capability for the other offered products', () => {
    const model = buildProductModel(chrome, product, { 504: [ref('kappa-310', '111'), ref('st-150', '111'), ref('kappa-242-us', '111', ['US'])] }, tree, 'CH');
    expect(model.capabilitySearch.map((e) => [e.capability.id, e.products.map((p) => p.slug)])).toEqual([['504', ['st-150']]]);
  });
});

describe('catalogueCrumbs', () => {
  const home = { title: 'Home', route: '/en' };
  const lineage = [{ name: 'Products', route: '/products' }, { name: 'Cut & strip', route: '/products/cut-strip' }];
  const href = (r: string) => `/en${r}`;

  it('end a classification page with itself, not clickable', () => {
    expect(catalogueCrumbs(home, lineage, null, href)).toEqual([
      { title: 'Home', route: '/en' }, { title: 'Products', route: '/en/products' }, { title: 'Cut & strip', route: null },
    ]);
  });

  it('end a product page with the product after its lineage', () => {
    expect(catalogueCrumbs(home, lineage, 'Kappa 310', href).map((c) => c.route)).toEqual(['/en', '/en/products', '/en/products/cut-strip', null]);
  });

  it("gives every catalogue title the catalogue's answer language when told it (home keeps the page language)", () => {
    const crumbs = catalogueCrumbs({ title: 'ホーム', route: '/ja' }, [{ name: 'Products', route: '/products' }], 'Kappa 310', (r) => `/ja${r}`, 'en');
    expect(crumbs.map((c) => 'titleLanguage' in c ? c.titleLanguage : null)).toEqual([null, 'en', 'en']);
  });
});
