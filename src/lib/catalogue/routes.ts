import { PRODUCTS_PATH, SERVICES_PATH } from '../../site/paths.ts';
import type { ClassificationType, LineageEntry } from './types.ts';

/** Where each catalogue lives below the locale (spec 2.1): /products and /services. */
export const CATALOGUE_BASE: Record<ClassificationType, string> = { product: PRODUCTS_PATH, service: SERVICES_PATH };
/** Slugs of the roots the catalogue bases are named after. */
export const BASE_ROOT_SLUG: Record<ClassificationType, string> = { product: 'products', service: 'services' };

export interface ClassificationNode {
  id: string;
  parentId: string | null;
  slug: string;
  name: string;
  type: ClassificationType;
}

export interface ClassificationPath<N extends ClassificationNode> {
  /** Root first, the classification itself last. */
  chain: N[];
  route: string;
  lineage: LineageEntry[];
}

const MAX_DEPTH = 32;

/**
 * The path of every classification: its chain of ancestors, its route and its lineage.
 * Top classifications are named by their slug (spec 2.1): the roots named like the catalogue
 * bases (`products`, `services`) are the bases themselves, another root (`smart-factory`) is
 * `/{its slug}`, and below a root each classification adds its slug. A classification whose parent
 * is unknown (or that sits in a cycle) is reported through `warn` and left out, with everything
 * below it.
 *
 * @example classificationPaths([products, wireProcessing, cutStrip]).get(cutStrip.id)!.route
 *   // '/products/wire-processing/cut-strip'
 * @example classificationPaths([smartFactory, software]).get(software.id)!.route // '/smart-factory/software'
 */
export function classificationPaths<N extends ClassificationNode>(nodes: N[], warn: (message: string) => void = () => {}): Map<string, ClassificationPath<N>> {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const baseRoots = new Map<ClassificationType, N>();
  for (const n of nodes) if (n.parentId === null && n.slug === BASE_ROOT_SLUG[n.type]) baseRoots.set(n.type, n);
  const out = new Map<string, ClassificationPath<N>>();
  for (const node of nodes) {
    const chain: N[] = [];
    let current: N | undefined = node;
    let broken: string | null = null;
    while (current) {
      if (chain.includes(current) || chain.length > MAX_DEPTH) { broken = `classification ${node.slug}: cycle in its parents, skipped`; break; }
      chain.unshift(current);
      if (current.parentId === null) break;
      const parent = byId.get(current.parentId);
      if (!parent) { broken = `classification ${node.slug}: parent ${current.parentId} not found, skipped`; break; }
      current = parent;
    }
    if (broken) { warn(broken); continue; }
    const root = chain[0]!;
    const base = root === baseRoots.get(node.type) ? CATALOGUE_BASE[node.type] : `/${root.slug}`;
    const routeAt = (i: number) => `${base}${chain.slice(1, i + 1).map((c) => `/${c.slug}`).join('')}`;
    const lineage: LineageEntry[] = chain.map((c, i) => ({ name: c.name, route: routeAt(i) }));
    out.set(node.id, { chain, route: routeAt(chain.length - 1), lineage });
  }
  return out;
}

/** The route of a product or service product: its classification's route plus its slug. */
export function productRoute(classificationRoute: string, slug: string): string {
  return `${classificationRoute}/${slug}`;
}

/**
 * The slug a catalogue path names: its last segment (the base alone names the base root).
 * `segments` are the page path segments below the locale, starting with `products`, `services`
 * or another top classification's slug.
 *
 * @example finalSlug(['products', 'wire-processing', 'kappa-310'], 'product') // 'kappa-310'
 * @example finalSlug(['services'], 'service') // 'services'
 * @example finalSlug(['smart-factory'], 'product') // 'smart-factory'
 */
export function finalSlug(segments: string[], type: ClassificationType): string {
  return segments.at(-1) ?? BASE_ROOT_SLUG[type];
}

/** The catalogue base segments (spec 2.1: "under /products/ (or a path ending /products)"). */
const BASE_SEGMENTS: Record<string, ClassificationType> = { products: 'product', services: 'service' };

/**
 * The catalogue path inside a page path that is no catalogue route itself: from its last
 * `products` or `services` segment on, when that is not its first (a first one is the catalogue
 * route already). Spec 2.1: under a path ending /products (or /services) the final slug resolves
 * to a classification or a product. Null when the path names no catalogue.
 *
 * @example catalogueWithin(['solutions', 'products']) // { type: 'product', path: '/products' }
 * @example catalogueWithin(['solutions', 'services', 'training']) // { type: 'service', path: '/services/training' }
 * @example catalogueWithin(['about-us']) // null
 */
export function catalogueWithin(segments: string[], from = 1): { type: ClassificationType; path: string } | null {
  for (let i = segments.length - 1; i >= from; i--) {
    const type = BASE_SEGMENTS[segments[i]!];
    if (type) return { type, path: `/${segments.slice(i).join('/')}` };
  }
  return null;
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Catalogue slugs are lowercase kebab-case (the catalogue rejects anything else with an error). */
export function isCatalogueSlug(value: string): boolean {
  return value.length <= 100 && SLUG.test(value);
}

