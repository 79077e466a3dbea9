import { describe, expect, it } from 'vitest';
import {
  groupRelated, indexClassifications, isMissingImage, mapBasketProduct, mapClassifications, mapHighlights, mapImages, mapProduct,
  mapReference, mapServiceProduct, mapSpecifications,
} from './map.ts';
import type { RawClassification, RawProduct, RawReference, RawServiceProduct } from './schema.ts';

const cls = (id: string, parent: string | null, slug: string, extra: Partial<RawClassification> = {}): RawClassification => ({
  id, parent_id: parent, name: slug.toUpperCase(), slug, description: null, image_url: `http://pim/${slug}.svg`, language: 'en',
  supported_countries: ['CH', 'US'], sort_index: 1, children: [], type: 'product', ...extra,
});
const rawTree = [cls('100', null, 'products', { children: ['110'] }), cls('110', '100', 'cut-strip', { children: ['111', 'gone'] })];
const lookup = indexClassifications(mapClassifications(rawTree));

const ref = (slug: string, extra: Partial<RawReference> = {}): RawReference => ({
  id: slug, type: 'product', slug, name: slug.toUpperCase(), language: 'en', product_brand_id: 'KMX', brand: { id: 'KMX', name: 'Komax' },
  short_description: 'Short', images: [{ name: 'a', url: 'http://pim/a.svg', default: false }, { name: 'b', url: 'http://pim/b.svg', default: true }],
  classification_id: '110', supported_countries: ['CH'], variant_count: 2, ...extra,
});

const spec = (name: string, metric: [string, string] | null, imperial: [string, string] | null) => ({
  name, value: (metric ?? imperial)![0], unit: (metric ?? imperial)![1], measurement_system: metric ? 'Metric' : 'Imperial',
  units: { dim_metric: metric && { value: metric[0], unit: metric[1] }, dim_imperial: imperial && { value: imperial[0], unit: imperial[1] } },
});

const rawProduct = (extra: Partial<RawProduct> = {}): RawProduct => ({
  id: '1', slug: 'kappa-310', name: 'Kappa 310', language: 'en', brand: { id: 'KMX', name: 'Komax' }, short_description: 'Short', long_description: null,
  classification_id: '110', supported_countries: ['CH'],
  images: [{ name: 'front', url: 'http://pim/front.svg', default: false }, { name: 'side', url: 'http://pim/side.svg', default: true }],
  variants: [{ id: 'v1', nameMetric: '0.5 mm²', nameImperial: 'AWG 20', specifications: [spec('Cross-section', ['0.5', 'mm²'], ['20', 'AWG'])] }],
  specifications: [spec('Weight', ['60', 'kg'], ['132', 'lb']), { name: 'Stations', value: '1', unit: null, measurement_system: null, units: null }],
  documents: [{ name: 'Brochure', content_language: 'en', thumbnail_url: 'http://pim/t.svg', type: 'brochure', url: 'http://pim/b.pdf', filename: 'b.pdf', extension: 'pdf', size_bytes: 1200 }],
  highlights: [{ name: 'Fast', short_description: 'x', long_description: null, image_url: 'http://pim/h.svg', video_url: null, video_image_url: null }],
  video: { url: 'https://video/x', thumbnail_url: 'null', alt: null },
  capabilities: ['504'],
  capability_details: [{ id: '504', name: 'Cutting', slug: 'cutting', image_url: 'http://pim/c.svg', language: 'en' }],
  related: [
    { type: 'related', slug: 'kappa-320', product: ref('kappa-320') },
    { type: 'related', slug: 'kappa-300', product: null },
    { type: 'component', slug: 'wf-300', product: ref('wf-300', { classification_id: '999' }) },
    { type: 'service', slug: 'training', product: ref('training', { type: 'service' }) },
  ],
  ...extra,
});

describe('mapClassifications', () => {
  it('adds routes and lineage and drops children ids that name nothing', () => {
    const [root, child] = mapClassifications(rawTree);
    expect(root).toMatchObject({ id: '100', parentId: null, route: '/products', childIds: ['110'] });
    expect(child).toMatchObject({ route: '/products/cut-strip', imageUrl: 'http://pim/cut-strip.svg', childIds: [] });
    expect(child!.lineage).toEqual([{ name: 'PRODUCTS', route: '/products' }, { name: 'CUT-STRIP', route: '/products/cut-strip' }]);
  });

  it('logs and skips a classification with a missing parent', () => {
    const warnings: string[] = [];
    expect(mapClassifications([...rawTree, cls('500', '404', 'lost')], (m) => warnings.push(m)).map((c) => c.slug)).toEqual(['products', 'cut-strip']);
    expect(warnings[0]).toContain('parent 404 not found');
  });
});

describe('mapSpecifications', () => {
  it('gives one reading per measurement system (dim_metric, dim_imperial) and keeps unitless ones without a system', () => {
    expect(mapSpecifications(rawProduct().specifications)).toEqual([
      { name: 'Weight', value: '60', unit: 'kg', measurementSystem: 'Metric' },
      { name: 'Weight', value: '132', unit: 'lb', measurementSystem: 'Imperial' },
      { name: 'Stations', value: '1', unit: null, measurementSystem: null },
    ]);
  });

  it('keeps a dimensioned specification that has one system only', () => {
    expect(mapSpecifications([spec('Speed', null, ['13', 'ft/s'])])).toEqual([{ name: 'Speed', value: '13', unit: 'ft/s', measurementSystem: 'Imperial' }]);
  });
});

describe('images and highlights', () => {
  it('takes the default image as primary even when it is not the first', () => {
    const { primaryImage, additionalImages } = mapImages(rawProduct().images);
    expect(primaryImage?.name).toBe('side');
    expect(additionalImages.map((i) => i.name)).toEqual(['front']);
    expect(mapImages([]).primaryImage).toBeNull();
  });

  it("treats '' and 'null' as a missing image", () => {
    expect(['', 'null', ' null ', null, undefined].every(isMissingImage)).toBe(true);
    expect(isMissingImage('http://pim/x.svg')).toBe(false);
  });

  it("keeps highlights with a name and an image or a video; '' and 'null' images become the placeholder (null)", () => {
    const h = (name: string | null, image_url: string | null, video_url: string | null = null) =>
      ({ name, short_description: null, long_description: null, image_url, video_url, video_image_url: null });
    const out = mapHighlights([h('A', 'http://pim/a.svg'), h('B', ''), h('C', 'null', 'https://video/c'), h('', 'http://pim/d.svg'), h(null, 'x'), h('E', null), h('F', null, 'https://video/f')]);
    expect(out.map((x) => [x.name, x.imageUrl, x.videoUrl])).toEqual([
      ['A', 'http://pim/a.svg', null],
      ['B', null, null],
      ['C', null, 'https://video/c'],
      ['F', null, 'https://video/f'],
    ]);
  });
});

describe('mapReference', () => {
  it('routes a reference below its classification and picks its primary image', () => {
    expect(mapReference(ref('kappa-320'), lookup)).toMatchObject({ kind: 'product', route: '/products/cut-strip/kappa-320', image: { name: 'b' }, classification: { slug: 'cut-strip' } });
  });

  it('logs and skips a reference whose classification is unknown', () => {
    const warnings: string[] = [];
    expect(mapReference(ref('x', { classification_id: '999' }), lookup, (m) => warnings.push(m))).toBeNull();
    expect(warnings).toEqual(['product x: classification 999 not found, skipped']);
  });
});

describe('mapProduct', () => {
  it('maps a full product with routes, files, variants and capabilities', () => {
    const p = mapProduct(rawProduct(), lookup)!;
    expect(p.route).toBe('/products/cut-strip/kappa-310');
    expect(p.primaryImage?.name).toBe('side');
    expect(p.files).toEqual([{ title: 'Brochure', type: 'brochure', thumbnail: 'http://pim/t.svg', file: { url: 'http://pim/b.pdf', size: 1200, locale: 'en', name: 'b.pdf', extension: 'pdf' } }]);
    expect(p.variants[0]!.specifications.map((s) => s.measurementSystem)).toEqual(['Metric', 'Imperial']);
    expect(p.capabilities).toEqual([{ id: '504', name: 'Cutting', slug: 'cutting', imageUrl: 'http://pim/c.svg' }]);
    expect(p.video).toEqual({ url: 'https://video/x', thumbnailUrl: null, alt: 'Kappa 310' });
  });

  it('logs and skips relations to missing products and unknown classifications; groups the rest', () => {
    const warnings: string[] = [];
    const p = mapProduct(rawProduct(), lookup, (m) => warnings.push(m))!;
    expect(p.related.map((r) => `${r.type}:${r.item.slug}`)).toEqual(['related:kappa-320', 'service:training']);
    expect(p.relatedGroups.products.map((r) => r.slug)).toEqual(['kappa-320']);
    expect(p.relatedGroups.components).toEqual([]);
    expect(p.relatedGroups.services.map((r) => r.slug)).toEqual(['training']);
    expect(warnings).toEqual(['product kappa-310: related relation kappa-300 not found, skipped', 'product wf-300: classification 999 not found, skipped']);
  });

  it('is null when its own classification is unknown', () => {
    expect(mapProduct(rawProduct({ classification_id: '999' }), lookup)).toBeNull();
  });
});

describe('mapServiceProduct', () => {
  const raw: RawServiceProduct = {
    id: 's', slug: 'maintenance', name: 'Maintenance', language: 'en', short_description: null, long_description: null,
    video_url: 'https://video/m', video_image_url: 'http://pim/v.svg', classification_id: '110', supported_countries: ['CH'],
    images: [{ name: 'hero', url: 'http://pim/hero.svg', default: true }],
    service: { benefit1: 'Uptime', detail1: 'More', benefit2: null, detail2: null, benefit3: 'Costs', detail3: null, benefit4: null, detail4: 'orphan detail', benefit5: ' ', detail5: null, benefit6: null, detail6: null },
    related: [{ type: 'related', product: ref('kappa-310') }, { type: 'service', product: ref('premium', { type: 'service' }) }],
  };

  it('keeps the benefits that have a title, with their details', () => {
    expect(mapServiceProduct(raw, lookup)!.benefits).toEqual([{ title: 'Uptime', detail: 'More' }, { title: 'Costs', detail: null }]);
  });

  it('has a video whose alt text is the name, all images, and relations plain and grouped', () => {
    const s = mapServiceProduct(raw, lookup)!;
    expect(s.video).toEqual({ url: 'https://video/m', thumbnailUrl: 'http://pim/v.svg', alt: 'Maintenance' });
    expect(s.allImages).toHaveLength(1);
    expect(s.route).toBe('/products/cut-strip/maintenance');
    expect(s.related).toHaveLength(2);
    expect(groupRelated(s.related).services.map((x) => x.slug)).toEqual(['premium']);
  });
});

describe('mapBasketProduct', () => {
  it('keeps what the basket shows', () => {
    expect(mapBasketProduct({ slug: 'kappa-310', name: 'Kappa 310', classification_id: '110', supported_countries: ['CH'], images: [], variants: [{ id: 'v1', nameMetric: 'm', nameImperial: 'i', specifications: [] }] }, lookup))
      .toEqual({ slug: 'kappa-310', name: 'Kappa 310', route: '/products/cut-strip/kappa-310', image: null, classification: { id: '110', slug: 'cut-strip', name: 'CUT-STRIP', route: '/products/cut-strip' }, variants: [{ id: 'v1', nameMetric: 'm', nameImperial: 'i' }], supportedCountries: ['CH'] });
  });
});
