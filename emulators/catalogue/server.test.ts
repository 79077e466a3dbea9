import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCatalogue } from './server.ts';
import type { CatalogueStore } from './store.ts';

const dataDir = join(dirname(fileURLToPath(import.meta.url)), '../data/catalogue');
const ALL_COUNTRIES = ['CH', 'DE', 'AT', 'FR', 'GB', 'US', 'CA', 'MX', 'ES', 'CN', 'JP', 'CZ', 'HU', 'RO', 'SK', 'BR', 'PT'];

let server: Server;
let store: CatalogueStore;
let url: string;
let origin: string;

// The answers as the queries below select them (each query asks for a subset of these fields).
interface Reading { value: string; unit: string }
interface Units { dim_metric: Reading; dim_imperial: Reading }
interface Spec { name: string; value: string; unit: string | null; measurement_system: string | null; units: Units | null }
interface Image { name: string; url: string; default: boolean }
interface Classification {
  id: string; parent_id: string | null; name: string; slug: string; description: string | null; image_url: string;
  language: string; supported_countries: string[]; sort_index: number; children: string[]; type: 'product' | 'service';
}
interface ProductItem {
  id: string; type: 'product' | 'service'; slug: string; name: string; language: string; product_brand_id: string; brand: { id: string; name: string };
  short_description: string; images: Image[]; classification_id: string; classification: { slug: string }; supported_countries: string[]; variant_count: number;
  variants: { id: string; nameMetric: string; nameImperial: string; specifications: Spec[] }[]; specifications: Spec[];
}
interface Document { name: string; content_language: string; thumbnail_url: string; type: string; url: string; filename: string; extension: string; size_bytes: number }
interface Highlight { name: string; short_description: string; long_description: string; image_url: string; video_url: string | null; video_image_url: string | null }
interface Related { type: 'related' | 'component' | 'service'; slug: string; product: ProductItem | null }
interface ProductDetail extends ProductItem {
  long_description: string; documents: Document[]; highlights: Highlight[]; video: { url: string; thumbnail_url: string; alt: string } | null;
  capabilities: string[]; capability_details: Capability[]; related: Related[];
}
interface Capability { id: string; name: string; slug: string; image_url: string; language: string }
interface ServiceDetail extends ProductItem {
  long_description: string; video_url: string | null; video_image_url: string | null; related: (Related & { product: ProductItem })[];
  service: Record<string, string | null>; benefit1: string | null; benefit4: string | null; benefit5: string | null; benefit6: string | null;
}

interface GqlResult<T> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string; argumentName?: string } }[];
}

async function gql<T = unknown>(query: string, variables: Record<string, unknown> = {}): Promise<GqlResult<T>> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as GqlResult<T>;
}

async function data<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await gql<T>(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

beforeAll(async () => {
  ({ server, store, url } = await startCatalogue({ port: 0, dataDir, quiet: true }));
  origin = new URL(url).origin;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('http routes', () => {
  it('answers /health and serves the GraphQL endpoint on the chosen port', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/graphql$/);
    expect(url).not.toContain(':0/');
    const res = await fetch(`${origin}/health`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });

  it('makes images, document thumbnails and PDFs on the fly', async () => {
    const img = await fetch(`${origin}/assets/img/alpha-550-front.svg`);
    expect(img.headers.get('content-type')).toBe('image/svg+xml');
    expect(await img.text()).toContain('viewBox="0 0 1200 675"');

    const thumb = await fetch(`${origin}/assets/thumbs/alpha-550-brochure-en.svg`);
    expect(thumb.headers.get('content-type')).toBe('image/svg+xml');
    const svg = await thumb.text();
    expect(svg).toContain('width="128" height="180"');
    expect(svg).toContain('BROCHURE');

    const pdf = await fetch(`${origin}/assets/files/alpha-550-brochure-en.pdf`);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');

    expect((await fetch(`${origin}/assets/img/nope.png`)).status).toBe(404);
    expect((await fetch(`${origin}/assets/files/..%2Fsecret.pdf`)).status).toBe(404);
  });
});

describe('allClassifications', () => {
  it('returns product and service trees three levels deep, with children ids', async () => {
    const { allClassifications: all } = await data<{ allClassifications: Classification[] }>(`query { allClassifications(language: "en") {
      id parent_id name slug description image_url language supported_countries sort_index children type } }`);
    const bySlug = new Map(all.map((c) => [c.slug, c]));
    const byId = new Map(all.map((c) => [c.id, c]));
    expect(all.filter((c) => c.parent_id === null).map((c) => c.slug)).toEqual(['products', 'smart-factory', 'services']);

    const crimping = bySlug.get('crimping')!;
    const route = [crimping.slug];
    for (let c = byId.get(crimping.parent_id!); c; c = c.parent_id ? byId.get(c.parent_id) : undefined) route.unshift(c.slug);
    expect(route).toEqual(['products', 'wire-processing', 'crimping']);

    expect(bySlug.get('wire-processing')!.children).toContain(crimping.id);
    for (const c of all) for (const child of c.children) expect(byId.get(child)!.parent_id).toBe(c.id);
    expect(bySlug.get('services')!.type).toBe('service');
    expect(bySlug.get('maintenance-repair')!.type).toBe('service');
    expect(crimping.type).toBe('product');
    expect(crimping.image_url).toBe(`${origin}/assets/img/classification-crimping.svg`);
    // Roots first, then depth-first: every parent comes before its children.
    all.forEach((c, i) => { if (c.parent_id) expect(all.findIndex((p) => p.id === c.parent_id)).toBeLessThan(i); });
  });

  it('localizes to German and falls back to English per classification', async () => {
    const { allClassifications: all } = await data<{ allClassifications: Classification[] }>(`query { allClassifications(language: "de") { slug name language description supported_countries } }`);
    const bySlug = new Map(all.map((c) => [c.slug, c]));
    expect(bySlug.get('wire-processing')).toMatchObject({ name: 'Drahtverarbeitung', language: 'de' });
    expect(bySlug.get('field-service-americas')).toMatchObject({ name: 'Field service Americas', language: 'en' });
    expect(bySlug.get('field-service-americas')!.supported_countries).not.toContain('CH');
    expect(bySlug.get('ultrasonic-welding')!.supported_countries).not.toContain('CH');
  });
});

describe('productsBySlugs (basket) and productDetailsBySlugs (comparison)', () => {
  it('returns basket products in the order asked, skipping unknown slugs', async () => {
    const { productsBySlugs: list } = await data<{ productsBySlugs: ProductItem[] }>(`query($slugs: [String!]!) { productsBySlugs(language: "en", slugs: $slugs) {
      name slug classification { slug } variants { id nameMetric nameImperial } images { name url default } } }`,
    { slugs: ['kappa-330', 'no-such-product', 'alpha-550'] });
    expect(list.map((p) => p.slug)).toEqual(['kappa-330', 'alpha-550']);
    const alpha = list[1]!;
    expect(alpha.classification.slug).toBe('crimping');
    expect(alpha.variants[0]).toEqual({ id: '10009-01', nameMetric: 'Alpha 550 (0.13–6 mm²)', nameImperial: 'Alpha 550 (AWG 26–10)' });
    expect(alpha.images.filter((i) => i.default)).toHaveLength(1);
    expect(alpha.images[0]!.url).toBe(`${origin}/assets/img/alpha-550-front.svg`);
  });

  it('returns comparison details with brand and keyed units', async () => {
    const { productDetailsBySlugs: list } = await data<{ productDetailsBySlugs: ProductItem[] }>(`query { productDetailsBySlugs(language: "en", slugs: ["alpha-550", "gamma-263"]) {
      slug name brand { id name } short_description
      specifications { name value unit measurement_system units { dim_metric { value unit } dim_imperial { value unit } } }
      variants { id specifications { name value units { dim_metric { value unit } dim_imperial { value unit } } } } } }`);
    expect(list).toHaveLength(2);
    const alpha = list[0]!;
    expect(alpha.brand).toEqual({ id: 'KMX', name: 'Komax' });
    expect(alpha.short_description).toMatch(/crimping machine/);
    const xs = alpha.specifications.find((s) => s.name === 'Wire cross-section');
    expect(xs).toEqual({
      name: 'Wire cross-section', value: '0.13 – 6', unit: 'mm²', measurement_system: 'Metric',
      units: { dim_metric: { value: '0.13 – 6', unit: 'mm²' }, dim_imperial: { value: '26 – 10', unit: 'AWG' } },
    });
    const stations = alpha.specifications.find((s) => s.name === 'Number of crimp stations');
    expect(stations).toEqual({ name: 'Number of crimp stations', value: '2', unit: null, measurement_system: null, units: null });
    const weight = alpha.specifications.find((s) => s.name === 'Weight');
    expect(weight?.units).toEqual({ dim_metric: { value: '820', unit: 'kg' }, dim_imperial: { value: '1808', unit: 'lb' } });
    expect(alpha.variants[1]!.specifications.find((s) => s.name === 'Crimp force')?.units?.dim_imperial).toEqual({ value: '6744', unit: 'lbf' });
  });

  it('rejects a bad slug and too many slugs', async () => {
    const bad = await gql(`query { productsBySlugs(language: "en", slugs: ["alpha-550", "Alpha 550"]) { slug } }`);
    expect(bad.errors?.[0]?.message).toBe('Invalid slug "Alpha 550": slugs are lowercase kebab-case, e.g. "alpha-550"');
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'slugs' });
    const many = await gql(`query($s: [String!]!) { productDetailsBySlugs(language: "en", slugs: $s) { slug } }`, { s: Array.from({ length: 101 }, (_, i) => `p-${i}`) });
    expect(many.errors?.[0]?.message).toBe('Too many slugs: at most 100 per request, got 101');
  });
});

const DETAIL = `query($language: String!, $slug: String!) { product(language: $language, slug: $slug) {
  id slug name language brand { id name } short_description long_description classification_id classification { slug }
  supported_countries images { name url default } variants { id nameMetric nameImperial specifications { name value unit } }
  specifications { name value unit measurement_system }
  documents { name content_language thumbnail_url type url filename extension size_bytes }
  highlights { name short_description long_description image_url video_url video_image_url }
  video { url thumbnail_url alt } capabilities capability_details { id name slug image_url language }
  related { type slug product { type slug name product_brand_id short_description images { url } } } } }`;

describe('product', () => {
  it('returns the full detail with absolute asset URLs', async () => {
    const { product: p } = await data<{ product: ProductDetail }>(DETAIL, { language: 'en', slug: 'alpha-550' });
    expect(p).toMatchObject({ id: '10009', slug: 'alpha-550', name: 'Alpha 550', language: 'en', classification_id: '112' });
    expect(p.supported_countries).toEqual(ALL_COUNTRIES);
    expect(p.long_description).toMatch(/^Alpha 550: /);
    expect(p.video).toEqual({ url: 'https://video.komax.example/watch/alpha-550', thumbnail_url: `${origin}/assets/img/alpha-550-video.svg`, alt: 'Alpha 550 in operation' });
    expect(p.capabilities).toEqual(['501', '502', '506', '507']);
    expect(p.capability_details[0]).toEqual({ id: '501', name: 'Fully automatic crimping', slug: 'fully-automatic-crimping', image_url: `${origin}/assets/img/capability-fully-automatic-crimping.svg`, language: 'en' });
    expect(p.highlights.length).toBeGreaterThanOrEqual(2);
    expect(p.highlights.length).toBeLessThanOrEqual(5);

    expect(new Set(p.documents.map((d) => d.type))).toEqual(new Set(['brochure', 'datasheet', 'manual']));
    const brochure = p.documents.find((d) => d.type === 'brochure');
    expect(brochure).toMatchObject({
      name: 'Alpha 550 brochure', content_language: 'en', extension: 'pdf', filename: 'alpha-550-brochure-en.pdf',
      url: `${origin}/assets/files/alpha-550-brochure-en.pdf`, thumbnail_url: `${origin}/assets/thumbs/alpha-550-brochure-en.svg`,
    });
    expect(brochure?.size_bytes).toBeGreaterThan(100_000);

    const types = new Set(p.related.map((r) => r.type));
    expect(types).toEqual(new Set(['related', 'component', 'service']));
    const service = p.related.find((r) => r.type === 'service');
    expect(service?.product?.type).toBe('service');
    const component = p.related.find((r) => r.type === 'component');
    expect(component?.product).toMatchObject({ type: 'product', product_brand_id: 'VEX' });
  });

  it('answers in German, with German documents where they exist', async () => {
    const { product: p } = await data<{ product: ProductDetail }>(DETAIL, { language: 'de-CH', slug: 'alpha-550' });
    expect(p.language).toBe('de');
    expect(p.short_description).toMatch(/^Vollautomatische Crimpmaschine/);
    expect(p.specifications[0]?.name).toBe('Leiterquerschnitt');
    expect(p.documents.find((d) => d.type === 'brochure')).toMatchObject({ content_language: 'de', name: 'Alpha 550 Broschüre' });
    // The datasheet exists in English only: the English one stands in.
    expect(p.documents.find((d) => d.type === 'datasheet')?.content_language).toBe('en');
    expect(p.video?.alt).toBe('Alpha 550 im Einsatz');
  });

  it('falls back to English for a language without text', async () => {
    const { product: fr } = await data<{ product: ProductDetail }>(DETAIL, { language: 'fr', slug: 'alpha-550' });
    expect(fr.language).toBe('en');
    expect(fr.specifications[0]?.name).toBe('Wire cross-section');
    expect(fr.documents.every((d) => d.content_language === 'en')).toBe(true);
    const { product: de } = await data<{ product: ProductDetail }>(DETAIL, { language: 'de', slug: 'alpha-530-na' });
    expect(de.language).toBe('en');
    expect(de.short_description).toMatch(/^North American edition/);
  });

  it('keeps missing highlight images as the PIM delivers them ("" and "null")', async () => {
    const withNull = (await data<{ product: ProductDetail }>(DETAIL, { language: 'en', slug: 'alpha-565' })).product;
    expect(withNull.highlights.map((h) => h.image_url)).toContain('null');
    const withEmpty = (await data<{ product: ProductDetail }>(DETAIL, { language: 'en', slug: 'kappa-320' })).product;
    expect(withEmpty.highlights.map((h) => h.image_url)).toContain('');
    // A missing image with a video still makes a valid highlight.
    const ts = (await data<{ product: ProductDetail }>(DETAIL, { language: 'en', slug: 'ts-400' })).product;
    expect(ts.highlights[0]).toMatchObject({ image_url: 'null', video_url: 'https://video.komax.example/watch/ts-400-import' });
    expect(ts.highlights[0]?.video_image_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/assets\/img\//);

    const products = JSON.parse(readFileSync(join(dataDir, 'products.json'), 'utf8')) as { highlights: { image_url: string }[] }[];
    const images = products.flatMap((x) => x.highlights.map((h) => h.image_url));
    expect(images.filter((i) => i === '').length).toBeGreaterThanOrEqual(3);
    expect(images.filter((i) => i === 'null').length).toBeGreaterThanOrEqual(3);
  });

  it('serves products that are not available in Switzerland', async () => {
    const { product: p } = await data<{ product: ProductDetail }>(DETAIL, { language: 'en', slug: 'kappa-242-us' });
    expect(p.supported_countries).toEqual(['US', 'CA', 'MX']);
    const restricted = store.data.products.filter((x) => !x.supported_countries.includes('CH')).map((x) => x.slug);
    expect(restricted).toEqual(expect.arrayContaining(['kappa-242-us', 'alpha-530-na', 'vp-40-heavy', 'sw-2500']));
  });

  it('resolves a dangling relation to null and returns null for an unknown slug', async () => {
    // The demo data has none (the site warns about each one): add one for this test.
    const related = store.product('kappa-310')!.related;
    related.push({ type: 'related', slug: 'kappa-300' });
    try {
      const { product: p } = await data<{ product: ProductDetail }>(DETAIL, { language: 'en', slug: 'kappa-310' });
      expect(p.related.find((r) => r.slug === 'kappa-300')).toEqual({ type: 'related', slug: 'kappa-300', product: null });
    } finally {
      related.pop();
    }
    expect((await data<{ product: ProductDetail }>(DETAIL, { language: 'en', slug: 'no-such-product' })).product).toBeNull();
  });

  it('rejects an unsupported language', async () => {
    for (const language of ['xx', 'english', '']) {
      const result = await gql(DETAIL, { language, slug: 'alpha-550' });
      expect(result.errors?.[0]?.message).toMatch(/^Unsupported language ".*": use one of en, cs, de, es, fr, hu, ja, pt, ro, sk, zh/);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'language' });
    }
  });
});

describe('classificationProducts', () => {
  const QUERY = `query($slug: String!, $type: String, $recursive: Boolean, $language: String = "en") {
    classificationProducts(language: $language, slug: $slug, type: $type, recursive: $recursive) {
      id type slug name language product_brand_id brand { name } short_description images { url default }
      classification_id classification { slug } supported_countries variant_count } }`;

  it('lists the products of a leaf classification', async () => {
    const { classificationProducts: list } = await data<{ classificationProducts: ProductItem[] }>(QUERY, { slug: 'crimping' });
    expect(list.map((p) => p.slug)).toContain('crimpcenter-36-s');
    expect(list.every((p) => p.classification.slug === 'crimping' && p.type === 'product')).toBe(true);
    expect(list.find((p) => p.slug === 'alpha-550')).toMatchObject({ variant_count: 3, product_brand_id: 'KMX', brand: { name: 'Komax' } });
    expect(list.find((p) => p.slug === 'crimpcenter-36-s')?.brand.name).toBe('Lumeca');
  });

  it('includes descendants only when asked to', async () => {
    expect((await data<{ classificationProducts: ProductItem[] }>(QUERY, { slug: 'wire-processing' })).classificationProducts).toEqual([]);
    const { classificationProducts: deep } = await data<{ classificationProducts: ProductItem[] }>(QUERY, { slug: 'wire-processing', recursive: true });
    expect(new Set(deep.map((p) => p.classification.slug))).toEqual(new Set(['cut-strip', 'crimping', 'crimp-presses', 'stripping', 'twisting', 'ultrasonic-welding']));
  });

  it('lists service products of a service classification', async () => {
    const { classificationProducts: list } = await data<{ classificationProducts: ProductItem[] }>(QUERY, { slug: 'preventive-maintenance', type: 'service', language: 'de' });
    expect(list.map((s) => s.slug)).toEqual(['maintenance-contract-basic', 'maintenance-contract-premium', 'machine-calibration']);
    expect(list[0]).toMatchObject({ type: 'service', name: 'Wartungsvertrag Basic', language: 'de', product_brand_id: 'KMX', variant_count: 0 });
  });

  it('rejects a bad type, a type mismatch and an unknown classification', async () => {
    expect((await gql(QUERY, { slug: 'crimping', type: 'machine' })).errors?.[0]?.message).toBe('Invalid type "machine": use "product" or "service"');
    expect((await gql(QUERY, { slug: 'crimping', type: 'service' })).errors?.[0]?.message).toBe('Classification "crimping" holds products, not services');
    const unknown = await gql(QUERY, { slug: 'no-such-classification' });
    expect(unknown.errors?.[0]?.message).toBe('No classification with slug "no-such-classification"');
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'slug' });
  });
});

describe('capabilities and productsByCapability', () => {
  it('lists capabilities in the language asked for', async () => {
    const { capabilities: en } = await data<{ capabilities: Capability[] }>(`query { capabilities(language: "en") { id name slug image_url language } }`);
    expect(en.length).toBeGreaterThanOrEqual(10);
    expect(en.map((c) => c.name)).toEqual(expect.arrayContaining(['Fully automatic crimping', 'Sealing', 'Twisting']));
    const { capabilities: de } = await data<{ capabilities: Capability[] }>(`query { capabilities(language: "de") { id name language } }`);
    expect(de.find((c) => c.id === '503')).toEqual({ id: '503', name: 'Verdrillen', language: 'de' });
  });

  it('lists the products with a capability', async () => {
    const { productsByCapability: list } = await data<{ productsByCapability: ProductItem[] }>(`query { productsByCapability(language: "en", capabilityId: "503") { slug type images { url } } }`);
    expect(list.map((p) => p.slug)).toEqual(expect.arrayContaining(['tw-20', 'tw-40', 'alpha-565']));
    expect(list.every((p) => p.type === 'product' && p.images.length > 0)).toBe(true);
  });

  it('rejects an unknown capability id', async () => {
    const result = await gql(`query { productsByCapability(language: "en", capabilityId: "999") { slug } }`);
    expect(result.errors?.[0]?.message).toBe('No capability with id "999"');
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'capabilityId' });
  });
});

describe('serviceProduct', () => {
  const QUERY = `query($language: String!, $slug: String!) { serviceProduct(language: $language, slug: $slug) {
    id slug name language short_description long_description video_url video_image_url images { name url default }
    service { benefit1 benefit6 detail1 detail6 } benefit1 benefit2 benefit3 benefit4 benefit5 benefit6 detail1 detail6
    classification { slug } supported_countries
    related { type product { type name product_brand_id slug short_description images { url } } } } }`;

  it('returns benefits, details and related products', async () => {
    const { serviceProduct: s } = await data<{ serviceProduct: ServiceDetail }>(QUERY, { language: 'de', slug: 'maintenance-contract-premium' });
    expect(s).toMatchObject({ slug: 'maintenance-contract-premium', name: 'Wartungsvertrag Premium', language: 'de', classification: { slug: 'preventive-maintenance' } });
    expect(s.benefit1).toBe('Höhere Maschinenverfügbarkeit');
    expect(s.service.benefit1).toBe(s.benefit1);
    expect(s.benefit6).toBe('Software-Updates inklusive');
    expect(s.video_url).toBe('https://video.komax.example/watch/service-maintenance-contract-premium');
    expect(s.video_image_url).toBe(`${origin}/assets/img/service-maintenance-contract-premium-video.svg`);
    expect(s.images[0]).toMatchObject({ default: true, url: `${origin}/assets/img/service-maintenance-contract-premium-hero.svg` });
    const alpha = s.related.find((r) => r.product.slug === 'alpha-550');
    expect(alpha).toMatchObject({ type: 'related', product: { type: 'product', name: 'Alpha 550', product_brand_id: 'KMX' } });
    expect(s.related.some((r) => r.type === 'service' && r.product.type === 'service')).toBe(true);
    expect(s.related.some((r) => r.type === 'component')).toBe(true);
  });

  it('leaves unused benefit slots null and falls back to English', async () => {
    const { serviceProduct: s } = await data<{ serviceProduct: ServiceDetail }>(QUERY, { language: 'de', slug: 'onsite-service-americas' });
    expect(s.language).toBe('en');
    expect(s.benefit4).not.toBeNull();
    expect(s.benefit5).toBeNull();
    expect(s.service.detail6).toBeNull();
    expect(s.supported_countries).not.toContain('CH');
  });

  it('returns null for an unknown slug and rejects a malformed one', async () => {
    expect((await data<{ serviceProduct: ServiceDetail }>(QUERY, { language: 'en', slug: 'alpha-550' })).serviceProduct).toBeNull();
    const bad = await gql(QUERY, { language: 'en', slug: 'Crimp_Academy' });
    expect(bad.errors?.[0]?.message).toBe('Invalid slug "Crimp_Academy": slugs are lowercase kebab-case, e.g. "alpha-550"');
  });
});

describe('demo dataset', () => {
  const products = () => store.data.products;

  it('has the promised size and shape', () => {
    expect(products().length).toBeGreaterThanOrEqual(60);
    expect(store.data.services.length).toBeGreaterThanOrEqual(12);
    expect(new Set(products().map((p) => p.brand))).toEqual(new Set(['KMX', 'LUM', 'TAR', 'VEX', 'OST', 'KEL', 'QUA', 'SIR']));
    for (const p of products()) {
      expect(p.slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(p.highlights.length).toBeGreaterThanOrEqual(2);
      expect(p.highlights.length).toBeLessThanOrEqual(5);
      expect(p.images.filter((i) => i.default)).toHaveLength(1);
      expect(p.documents.length).toBeGreaterThan(0);
    }
    expect(products().filter((p) => !p.supported_countries.includes('CH')).length).toBeGreaterThanOrEqual(3);
    expect(products().filter((p) => p.supported_countries.length === ALL_COUNTRIES.length).length).toBeGreaterThan(products().length / 2);
  });

  it('relates only to products and services it has, so the site loads it without a warning', () => {
    const dangling = [...products(), ...store.data.services].flatMap((p) =>
      p.related.filter((r) => !store.product(r.slug) && !store.service(r.slug)).map((r) => `${p.slug}: ${r.type} ${r.slug}`));
    expect(dangling).toEqual([]);
  });

  it('gives every dimensioned specification a metric and an imperial reading', () => {
    for (const p of products()) {
      for (const s of [...p.specifications, ...p.variants.flatMap((v) => v.specifications)]) {
        if (s.units) {
          expect(s.units.dim_metric, `${p.slug}`).toBeDefined();
          expect(s.units.dim_imperial, `${p.slug}`).toBeDefined();
        } else {
          expect(s.value, `${p.slug}`).toBeDefined();
        }
      }
    }
  });

  it('uses Swiss German spelling (no ß) and 2-space JSON', () => {
    for (const f of readdirSync(dataDir).filter((name) => name.endsWith('.json'))) {
      const text = readFileSync(join(dataDir, f), 'utf8');
      expect(text, f).not.toContain('ß');
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
  });
});
