import { createGraphQLError } from 'graphql-yoga';
import {
  hasLanguage, localize, SERVICE_FIELDS,
  type CatalogueStore, type ClassificationType, type RawCapability, type RawClassification, type RawDocument, type RawHighlight,
  type RawImage, type RawProduct, type RawRelation, type RawServiceProduct, type RawSpecification, type RawVariant, type ServiceField,
} from './store.ts';
import { UI_LANGUAGES } from '../../src/site/locale.ts';

/** Interface languages of the site (spec §9); any of them may be asked for, text falls back to English. */
export const LANGUAGES = UI_LANGUAGES;
export const MAX_SLUGS = 100;
/** Service products are offered by the group itself. */
const SERVICE_BRAND = 'KMX';
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CLASSIFICATION_TYPES: readonly ClassificationType[] = ['product', 'service'];

/**
 * A client error that yoga passes through unmasked. Made by yoga's own helper so that it is an instance of the
 * GraphQLError class yoga checks against (test runners may load a second copy of graphql).
 */
function badInput(message: string, argumentName: string): Error {
  return createGraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', argumentName } });
}

/** "de", "DE", "de-CH" and "de_CH" all mean German; anything else outside LANGUAGES is an error. */
export function normalizeLanguage(raw: string): string {
  const m = /^([a-z]{2})(?:[-_][a-z]{2})?$/i.exec(raw.trim());
  const lang = m?.[1]!.toLowerCase();
  if (!lang || !(LANGUAGES as readonly string[]).includes(lang)) {
    throw badInput(`Unsupported language "${raw}": use one of ${LANGUAGES.join(', ')}, optionally with a country (e.g. de-CH)`, 'language');
  }
  return lang;
}

function checkSlug(slug: string, argumentName: string): string {
  if (slug.length > 100 || !SLUG.test(slug)) {
    throw badInput(`Invalid slug "${slug}": slugs are lowercase kebab-case, e.g. "alpha-550"`, argumentName);
  }
  return slug;
}

function checkSlugs(slugs: string[]): string[] {
  if (slugs.length > MAX_SLUGS) throw badInput(`Too many slugs: at most ${MAX_SLUGS} per request, got ${slugs.length}`, 'slugs');
  return slugs.map((s) => checkSlug(s, 'slugs'));
}

interface LanguageArgs { language: string }
interface SlugArgs extends LanguageArgs { slug: string }
interface SlugsArgs extends LanguageArgs { slugs: string[] }
interface ClassificationProductsArgs extends SlugArgs { type?: string | null; recursive?: boolean | null }
interface CapabilityArgs extends LanguageArgs { capabilityId: string }

/** GraphQL resolvers over the store; `abs` turns an emulator-relative asset path into an absolute URL. */
export function createResolvers(store: CatalogueStore, abs: (path: string) => string) {
  const absOrNull = (url: string | null | undefined) => (url ? abs(url) : null);
  const image = (i: RawImage) => ({ name: i.name, url: abs(i.url), default: !!i.default });
  const brand = (id: string) => store.brand(id) ?? { id, name: id };

  const classification = (c: RawClassification, lang: string) => ({
    id: c.id,
    parent_id: c.parent_id,
    name: localize(c.name, lang) ?? c.slug,
    slug: c.slug,
    description: localize(c.description, lang),
    image_url: absOrNull(c.image_url),
    language: hasLanguage(c.name, lang) ? lang : 'en',
    supported_countries: c.supported_countries,
    sort_index: c.sort_index,
    children: store.children(c.id),
    type: c.type,
  });
  const classificationOf = (id: string, lang: string) => {
    const c = store.classification(id);
    if (!c) throw new Error(`[catalogue] unknown classification ${id}`); // the store checks this on load
    return classification(c, lang);
  };

  const specification = (s: RawSpecification, lang: string) => {
    const name = localize(s.name, lang) ?? '';
    const metric = s.units?.dim_metric ?? null;
    const imperial = s.units?.dim_imperial ?? null;
    const reading = metric ?? imperial;
    if (!reading) return { name, value: localize(s.value, lang) ?? '', unit: null, measurement_system: null, units: null };
    return {
      name,
      value: reading.value,
      unit: reading.unit,
      measurement_system: metric ? 'Metric' : 'Imperial',
      units: { dim_metric: metric, dim_imperial: imperial },
    };
  };

  const variant = (v: RawVariant, lang: string) => ({
    id: v.id,
    nameMetric: v.nameMetric,
    nameImperial: v.nameImperial,
    specifications: v.specifications.map((s) => specification(s, lang)),
  });

  /** Per document type, the documents in the language asked for, else the English ones, else whatever there is. */
  const documents = (docs: RawDocument[], lang: string) => {
    const types = [...new Set(docs.map((d) => d.type))];
    return types.flatMap((type) => {
      const ofType = docs.filter((d) => d.type === type);
      const inLang = ofType.filter((d) => d.content_language === lang);
      const inEn = ofType.filter((d) => d.content_language === 'en');
      return inLang.length ? inLang : inEn.length ? inEn : ofType;
    }).map((d) => ({ ...d, url: abs(d.url), thumbnail_url: abs(d.thumbnail_url) }));
  };

  const highlight = (h: RawHighlight, lang: string) => {
    const img = h.image_url ?? '';
    return {
      name: localize(h.name, lang) ?? '',
      short_description: localize(h.short_description, lang),
      long_description: localize(h.long_description, lang),
      // Missing images stay as the PIM delivers them ("" or "null"); the site replaces them.
      image_url: img === '' || img === 'null' ? img : abs(img),
      video_url: h.video_url ?? null,
      video_image_url: absOrNull(h.video_image_url),
    };
  };

  const capability = (c: RawCapability, lang: string) => ({
    id: c.id,
    name: localize(c.name, lang) ?? c.slug,
    slug: c.slug,
    image_url: absOrNull(c.image_url),
    language: hasLanguage(c.name, lang) ? lang : 'en',
  });

  const productReference = (p: RawProduct, lang: string) => ({
    id: p.id,
    type: 'product',
    slug: p.slug,
    name: localize(p.name, lang) ?? p.slug,
    language: hasLanguage(p.short_description, lang) ? lang : 'en',
    product_brand_id: p.brand,
    brand: brand(p.brand),
    short_description: localize(p.short_description, lang),
    images: p.images.map(image),
    classification_id: p.classification_id,
    classification: classificationOf(p.classification_id, lang),
    supported_countries: p.supported_countries,
    variant_count: p.variants.length,
  });

  const serviceReference = (s: RawServiceProduct, lang: string) => ({
    id: s.id,
    type: 'service',
    slug: s.slug,
    name: localize(s.name, lang) ?? s.slug,
    language: hasLanguage(s.short_description, lang) ? lang : 'en',
    product_brand_id: SERVICE_BRAND,
    brand: brand(SERVICE_BRAND),
    short_description: localize(s.short_description, lang),
    images: s.images.map(image),
    classification_id: s.classification_id,
    classification: classificationOf(s.classification_id, lang),
    supported_countries: s.supported_countries,
    variant_count: 0,
  });

  /** The target of a relation: a service product for type service, else a product (either, if the type is off). */
  const relationTarget = (r: RawRelation, lang: string) => {
    const service = store.service(r.slug);
    const product = store.product(r.slug);
    if (r.type === 'service' && service) return serviceReference(service, lang);
    if (product) return productReference(product, lang);
    return service ? serviceReference(service, lang) : null;
  };

  const product = (p: RawProduct, lang: string) => ({
    id: p.id,
    slug: p.slug,
    name: localize(p.name, lang) ?? p.slug,
    language: hasLanguage(p.short_description, lang) ? lang : 'en',
    brand: brand(p.brand),
    short_description: localize(p.short_description, lang),
    long_description: localize(p.long_description, lang),
    classification_id: p.classification_id,
    classification: classificationOf(p.classification_id, lang),
    supported_countries: p.supported_countries,
    images: p.images.map(image),
    variants: p.variants.map((v) => variant(v, lang)),
    specifications: p.specifications.map((s) => specification(s, lang)),
    documents: documents(p.documents, lang),
    highlights: p.highlights.map((h) => highlight(h, lang)),
    video: p.video ? { url: p.video.url, thumbnail_url: absOrNull(p.video.thumbnail_url), alt: localize(p.video.alt, lang) } : null,
    capabilities: p.capabilities,
    capability_details: p.capabilities.map((id) => store.capability(id)).filter((c) => !!c).map((c) => capability(c, lang)),
    related: p.related.map((r) => ({ type: r.type, slug: r.slug, product: relationTarget(r, lang) })),
  });

  const serviceProduct = (s: RawServiceProduct, lang: string) => {
    const service = Object.fromEntries(SERVICE_FIELDS.map((f) => [f, localize(s.service[f], lang)])) as Record<ServiceField, string | null>;
    return {
      id: s.id,
      slug: s.slug,
      name: localize(s.name, lang) ?? s.slug,
      language: hasLanguage(s.short_description, lang) ? lang : 'en',
      short_description: localize(s.short_description, lang),
      long_description: localize(s.long_description, lang),
      video_url: s.video_url ?? null,
      video_image_url: absOrNull(s.video_image_url),
      images: s.images.map(image),
      service,
      ...service,
      classification_id: s.classification_id,
      classification: classificationOf(s.classification_id, lang),
      supported_countries: s.supported_countries,
      related: s.related.flatMap((r) => {
        const target = relationTarget(r, lang);
        return target ? [{ type: r.type, product: target }] : [];
      }),
    };
  };

  const productsBySlugs = (_: unknown, a: SlugsArgs) => {
    const lang = normalizeLanguage(a.language);
    return checkSlugs(a.slugs).map((slug) => store.product(slug)).filter((p) => !!p).map((p) => product(p, lang));
  };

  return {
    Query: {
      allClassifications: (_: unknown, a: LanguageArgs) => {
        const lang = normalizeLanguage(a.language);
        const roots = store.data.classifications.filter((c) => c.parent_id === null).sort((x, y) => x.sort_index - y.sort_index);
        const out: ReturnType<typeof classification>[] = [];
        const visit = (c: RawClassification) => {
          out.push(classification(c, lang));
          for (const id of store.children(c.id)) visit(store.classification(id)!);
        };
        roots.forEach(visit);
        return out;
      },
      productsBySlugs,
      productDetailsBySlugs: productsBySlugs,
      product: (_: unknown, a: SlugArgs) => {
        const lang = normalizeLanguage(a.language);
        const p = store.product(checkSlug(a.slug, 'slug'));
        return p ? product(p, lang) : null;
      },
      classificationProducts: (_: unknown, a: ClassificationProductsArgs) => {
        const lang = normalizeLanguage(a.language);
        const type = (a.type ?? 'product') as ClassificationType;
        if (!CLASSIFICATION_TYPES.includes(type)) throw badInput(`Invalid type "${a.type}": use "product" or "service"`, 'type');
        const c = store.classificationBySlug(checkSlug(a.slug, 'slug'));
        if (!c) throw badInput(`No classification with slug "${a.slug}"`, 'slug');
        if (c.type !== type) throw badInput(`Classification "${c.slug}" holds ${c.type}s, not ${type}s`, 'type');
        const ids = a.recursive ? store.subtree(c.id) : new Set([c.id]);
        return type === 'product'
          ? store.data.products.filter((p) => ids.has(p.classification_id)).map((p) => productReference(p, lang))
          : store.data.services.filter((s) => ids.has(s.classification_id)).map((s) => serviceReference(s, lang));
      },
      capabilities: (_: unknown, a: LanguageArgs) => {
        const lang = normalizeLanguage(a.language);
        return store.data.capabilities.map((c) => capability(c, lang));
      },
      productsByCapability: (_: unknown, a: CapabilityArgs) => {
        const lang = normalizeLanguage(a.language);
        if (!store.capability(a.capabilityId)) throw badInput(`No capability with id "${a.capabilityId}"`, 'capabilityId');
        return store.data.products.filter((p) => p.capabilities.includes(a.capabilityId)).map((p) => productReference(p, lang));
      },
      serviceProduct: (_: unknown, a: SlugArgs) => {
        const lang = normalizeLanguage(a.language);
        const s = store.service(checkSlug(a.slug, 'slug'));
        return s ? serviceProduct(s, lang) : null;
      },
    },
  };
}
