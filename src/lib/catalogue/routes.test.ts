import { describe, expect, it } from 'vitest';
import { catalogueWithin, classificationPaths, finalSlug, isCatalogueSlug, productRoute, type ClassificationNode } from './routes.ts';

const node = (id: string, parentId: string | null, slug: string, type: 'product' | 'service' = 'product'): ClassificationNode =>
  ({ id, parentId, slug, name: slug.replace(/-/g, ' '), type });

const tree = [
  node('100', null, 'products'),
  node('110', '100', 'wire-processing'),
  node('111', '110', 'cut-strip'),
  node('200', null, 'smart-factory'),
  node('210', '200', 'software'),
  node('300', null, 'services', 'service'),
  node('310', '300', 'maintenance-repair', 'service'),
];

describe('classificationPaths', () => {
  const paths = classificationPaths(tree);

  it('gives the catalogue base root the base route itself', () => {
    expect(paths.get('100')!.route).toBe('/products');
    expect(paths.get('100')!.lineage).toEqual([{ name: 'products', route: '/products' }]);
    expect(paths.get('300')!.route).toBe('/services');
  });

  it('builds routes and lineage from the root down', () => {
    expect(paths.get('111')!.route).toBe('/products/wire-processing/cut-strip');
    expect(paths.get('111')!.lineage).toEqual([
      { name: 'products', route: '/products' },
      { name: 'wire processing', route: '/products/wire-processing' },
      { name: 'cut strip', route: '/products/wire-processing/cut-strip' },
    ]);
    expect(paths.get('310')!.route).toBe('/services/maintenance-repair');
  });

  it('names the other top classifications by their slug (spec 2.1: /smart-factory, not below /products)', () => {
    expect(paths.get('200')!.route).toBe('/smart-factory');
    expect(paths.get('210')!.route).toBe('/smart-factory/software');
    expect(paths.get('210')!.lineage).toEqual([
      { name: 'smart factory', route: '/smart-factory' },
      { name: 'software', route: '/smart-factory/software' },
    ]);
  });

  it('logs and skips a classification whose parent is missing, and what hangs below it', () => {
    const warnings: string[] = [];
    const broken = classificationPaths([...tree, node('900', '999', 'orphan'), node('901', '900', 'orphan-child')], (m) => warnings.push(m));
    expect(broken.has('900')).toBe(false);
    expect(broken.has('901')).toBe(false);
    expect(broken.has('111')).toBe(true);
    expect(warnings).toEqual(['classification orphan: parent 999 not found, skipped', 'classification orphan-child: parent 999 not found, skipped']);
  });

  it('survives a cycle in the parents', () => {
    const warnings: string[] = [];
    const cyclic = classificationPaths([node('1', '2', 'a'), node('2', '1', 'b')], (m) => warnings.push(m));
    expect(cyclic.size).toBe(0);
    expect(warnings).toHaveLength(2);
  });
});

describe('catalogue paths', () => {
  it('the final slug names what a path resolves to; the base alone is its root', () => {
    expect(finalSlug(['products', 'wire-processing', 'cut-strip', 'kappa-310'], 'product')).toBe('kappa-310');
    expect(finalSlug(['products', 'kappa-310'], 'product')).toBe('kappa-310');
    expect(finalSlug(['products'], 'product')).toBe('products');
    expect(finalSlug(['services'], 'service')).toBe('services');
    expect(finalSlug(['smart-factory'], 'product')).toBe('smart-factory');
    expect(finalSlug(['smart-factory', 'software'], 'product')).toBe('software');
  });

  it('finds the catalogue in a path ending /products or /services, or below it (spec 2.1)', () => {
    expect(catalogueWithin(['solutions', 'products'])).toEqual({ type: 'product', path: '/products' });
    expect(catalogueWithin(['solutions', 'wire-processing', 'products', 'kappa-310'])).toEqual({ type: 'product', path: '/products/kappa-310' });
    expect(catalogueWithin(['industries', 'services'])).toEqual({ type: 'service', path: '/services' });
    expect(catalogueWithin(['about-us', 'history'])).toBeNull();
    // The first segment is the catalogue route itself; a site's own path may start with it (from 0).
    expect(catalogueWithin(['products'])).toBeNull();
    expect(catalogueWithin(['products'], 0)).toEqual({ type: 'product', path: '/products' });
    expect(catalogueWithin(['my-products'])).toBeNull();
  });

  it('a product sits at its classification route plus its slug', () => {
    expect(productRoute('/products/wire-processing/cut-strip', 'kappa-310')).toBe('/products/wire-processing/cut-strip/kappa-310');
  });

  it('accepts only kebab-case slugs', () => {
    expect(isCatalogueSlug('kappa-310')).toBe(true);
    for (const bad of ['Kappa-310', 'kappa_310', '-kappa', 'kappa--310', '', 'a'.repeat(101), 'kappa 310']) expect(isCatalogueSlug(bad), bad).toBe(false);
  });

});
