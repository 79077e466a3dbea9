import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** Text in the dataset: a language-neutral string, or an object keyed by content language. */
export type Text = string | Record<string, string>;

export interface RawUnitValue {
  value: string;
  unit: string;
}

export interface RawSpecification {
  name: Text;
  /** Value of a unitless specification. */
  value?: Text;
  /** Readings of a dimensioned specification, keyed by measurement system. */
  units?: { dim_metric?: RawUnitValue; dim_imperial?: RawUnitValue };
}

export interface RawImage {
  name: string;
  url: string;
  default: boolean;
}

export interface RawVariant {
  id: string;
  nameMetric: string;
  nameImperial: string;
  specifications: RawSpecification[];
}

export interface RawDocument {
  name: string;
  content_language: string;
  type: string;
  url: string;
  thumbnail_url: string;
  filename: string;
  extension: string;
  size_bytes: number;
}

export interface RawHighlight {
  name: Text;
  short_description?: Text | null;
  long_description?: Text | null;
  /** A relative asset URL, or (as real PIM data has) "" or "null" when the image is missing. */
  image_url: string | null;
  video_url?: string | null;
  video_image_url?: string | null;
}

export type RelationType = 'related' | 'component' | 'service';

export interface RawRelation {
  type: RelationType;
  slug: string;
}

export interface RawProduct {
  id: string;
  slug: string;
  name: Text;
  brand: string;
  classification_id: string;
  supported_countries: string[];
  short_description: Text;
  long_description: Text;
  images: RawImage[];
  video: { url: string; thumbnail_url: string; alt: Text } | null;
  capabilities: string[];
  variants: RawVariant[];
  specifications: RawSpecification[];
  highlights: RawHighlight[];
  documents: RawDocument[];
  related: RawRelation[];
}

export const SERVICE_FIELDS = [
  'benefit1', 'benefit2', 'benefit3', 'benefit4', 'benefit5', 'benefit6',
  'detail1', 'detail2', 'detail3', 'detail4', 'detail5', 'detail6',
] as const;
export type ServiceField = (typeof SERVICE_FIELDS)[number];

export interface RawServiceProduct {
  id: string;
  slug: string;
  classification_id: string;
  supported_countries: string[];
  name: Text;
  short_description: Text;
  long_description: Text;
  video_url: string | null;
  video_image_url: string | null;
  images: RawImage[];
  service: Partial<Record<ServiceField, Text | null>>;
  related: RawRelation[];
}

export type ClassificationType = 'product' | 'service';

export interface RawClassification {
  id: string;
  parent_id: string | null;
  slug: string;
  type: ClassificationType;
  sort_index: number;
  supported_countries: string[];
  name: Text;
  description: Text | null;
  image_url: string | null;
}

export interface RawCapability {
  id: string;
  slug: string;
  name: Text;
  image_url: string | null;
}

export interface RawBrand {
  /** The PIM brand id; the content hub's brands carry it as `pimId`. */
  id: string;
  name: string;
}

export interface CatalogueData {
  brands: RawBrand[];
  capabilities: RawCapability[];
  classifications: RawClassification[];
  products: RawProduct[];
  services: RawServiceProduct[];
}

const FILES = {
  brands: 'brands.json',
  capabilities: 'capabilities.json',
  classifications: 'classifications.json',
  products: 'products.json',
  services: 'services.json',
} as const satisfies Record<keyof CatalogueData, string>;

/** The catalogue dataset, read from JSON files (and reloaded when one changes, if asked to). */
export class CatalogueStore {
  data!: CatalogueData;
  private dir: string;
  private watcher: FSWatcher | undefined;
  private productsBySlug = new Map<string, RawProduct>();
  private servicesBySlug = new Map<string, RawServiceProduct>();
  private classificationsById = new Map<string, RawClassification>();
  private classificationsBySlug = new Map<string, RawClassification>();
  private childIds = new Map<string, string[]>();
  private capabilitiesById = new Map<string, RawCapability>();
  private brandsById = new Map<string, RawBrand>();

  constructor(dir: string, opts: { watch?: boolean } = {}) {
    this.dir = dir;
    this.load();
    if (opts.watch) {
      let timer: NodeJS.Timeout | undefined;
      this.watcher = watch(dir, (_event, file) => {
        if (!file || !String(file).endsWith('.json')) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          try { this.load(); } catch (err) { console.error(`[catalogue] could not reload ${file}:`, (err as Error).message); }
        }, 50);
      });
    }
  }

  /** Reads every file and rebuilds the indexes; throws on inconsistent data and keeps the previous data then. */
  load(): void {
    const read = <K extends keyof CatalogueData>(key: K): CatalogueData[K] =>
      JSON.parse(readFileSync(join(this.dir, FILES[key]), 'utf8')) as CatalogueData[K];
    const data: CatalogueData = {
      brands: read('brands'),
      capabilities: read('capabilities'),
      classifications: read('classifications'),
      products: read('products'),
      services: read('services'),
    };
    const ix = buildIndexes(data);
    this.data = data;
    this.productsBySlug = ix.productsBySlug;
    this.servicesBySlug = ix.servicesBySlug;
    this.classificationsById = ix.classificationsById;
    this.classificationsBySlug = ix.classificationsBySlug;
    this.childIds = ix.childIds;
    this.capabilitiesById = ix.capabilitiesById;
    this.brandsById = ix.brandsById;
  }

  close(): void {
    this.watcher?.close();
  }

  product(slug: string): RawProduct | undefined {
    return this.productsBySlug.get(slug);
  }

  service(slug: string): RawServiceProduct | undefined {
    return this.servicesBySlug.get(slug);
  }

  classification(id: string): RawClassification | undefined {
    return this.classificationsById.get(id);
  }

  classificationBySlug(slug: string): RawClassification | undefined {
    return this.classificationsBySlug.get(slug);
  }

  /** Ids of a classification's direct children, ordered by sort_index. */
  children(id: string): string[] {
    return this.childIds.get(id) ?? [];
  }

  /** A classification's id and the ids of all classifications below it. */
  subtree(id: string): Set<string> {
    const ids = new Set<string>([id]);
    for (const cur of ids) for (const child of this.children(cur)) ids.add(child);
    return ids;
  }

  capability(id: string): RawCapability | undefined {
    return this.capabilitiesById.get(id);
  }

  brand(id: string): RawBrand | undefined {
    return this.brandsById.get(id);
  }
}

function indexBy<T, K extends keyof T>(items: T[], key: K, what: string): Map<T[K], T> {
  const map = new Map<T[K], T>();
  for (const item of items) {
    if (map.has(item[key])) throw new Error(`[catalogue] duplicate ${what} ${String(key)} "${String(item[key])}"`);
    map.set(item[key], item);
  }
  return map;
}

function buildIndexes(data: CatalogueData) {
  const classificationsById = indexBy(data.classifications, 'id', 'classification');
  const classificationsBySlug = indexBy(data.classifications, 'slug', 'classification');
  const productsBySlug = indexBy(data.products, 'slug', 'product');
  const servicesBySlug = indexBy(data.services, 'slug', 'service product');
  indexBy(data.products, 'id', 'product');
  indexBy(data.services, 'id', 'service product');
  const capabilitiesById = indexBy(data.capabilities, 'id', 'capability');
  const brandsById = indexBy(data.brands, 'id', 'brand');

  // The last segment of a catalogue route resolves to a classification or a product, so slugs are unique across both.
  const seen = new Set<string>();
  for (const slug of [...classificationsBySlug.keys(), ...productsBySlug.keys(), ...servicesBySlug.keys()]) {
    if (seen.has(slug)) throw new Error(`[catalogue] slug "${slug}" is used twice`);
    seen.add(slug);
  }

  const childIds = new Map<string, string[]>();
  for (const c of [...data.classifications].sort((a, b) => a.sort_index - b.sort_index)) {
    if (c.parent_id === null) continue;
    if (!classificationsById.has(c.parent_id)) throw new Error(`[catalogue] classification ${c.id} has an unknown parent ${c.parent_id}`);
    childIds.set(c.parent_id, [...(childIds.get(c.parent_id) ?? []), c.id]);
  }
  const check = (owner: string, classificationId: string, type: ClassificationType) => {
    const c = classificationsById.get(classificationId);
    if (!c) throw new Error(`[catalogue] ${owner} has an unknown classification ${classificationId}`);
    if (c.type !== type) throw new Error(`[catalogue] ${owner} sits in the ${c.type} classification ${c.slug}`);
  };
  for (const p of data.products) {
    check(`product ${p.slug}`, p.classification_id, 'product');
    if (!brandsById.has(p.brand)) throw new Error(`[catalogue] product ${p.slug} has an unknown brand ${p.brand}`);
    for (const id of p.capabilities) if (!capabilitiesById.has(id)) throw new Error(`[catalogue] product ${p.slug} has an unknown capability ${id}`);
  }
  for (const s of data.services) check(`service product ${s.slug}`, s.classification_id, 'service');

  return { classificationsById, classificationsBySlug, productsBySlug, servicesBySlug, capabilitiesById, brandsById, childIds };
}

/** Resolves dataset text in a language: the language itself, else English, else the first one there is. */
export function localize(text: Text | null | undefined, language: string): string | null {
  if (text === null || text === undefined) return null;
  if (typeof text === 'string') return text;
  return text[language] ?? text.en ?? Object.values(text)[0] ?? null;
}

/** Whether text exists in a language (language-neutral text exists in every language). */
export function hasLanguage(text: Text | null | undefined, language: string): boolean {
  if (text === null || text === undefined) return false;
  return typeof text === 'string' || typeof text[language] === 'string';
}
