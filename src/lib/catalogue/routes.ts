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
 * Routes start at the catalogue base of the classification's type; the root named like the base
 * (`products`, `services`) is the base itself, and other roots (`smart-factory`) sit below it
 * with the base root first in their lineage. A classification whose parent is unknown (or that
 * sits in a cycle) is reported through `warn` and left out, with everything below it.
 *
 * @example classificationPaths([products, wireProcessing, cutStrip]).get(cutStrip.id)!.route
 *   // '/products/wire-processing/cut-strip'
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
    const base = CATALOGUE_BASE[node.type];
    const root = chain[0]!;
    const baseRoot = baseRoots.get(node.type);
    const steps = root === baseRoot ? chain.slice(1) : chain;
    const routeAt = (i: number) => `${base}${steps.slice(0, i + 1).map((c) => `/${c.slug}`).join('')}`;
    const lineage: LineageEntry[] = steps.map((c, i) => ({ name: c.name, route: routeAt(i) }));
    if (baseRoot) lineage.unshift({ name: baseRoot.name, route: base });
    out.set(node.id, { chain, route: steps.length ? routeAt(steps.length - 1) : base, lineage });
  }
  return out;
}

/** The route of a product or service product: its classification's route plus its slug. */
export function productRoute(classificationRoute: string, slug: string): string {
  return `${classificationRoute}/${slug}`;
}

/**
 * The slug a catalogue path names: its last segment, or the base root's slug for the base itself.
 * `segments` are the page path segments below the locale, starting with `products` or `services`.
 *
 * @example finalSlug(['products', 'wire-processing', 'kappa-310'], 'product') // 'kappa-310'
 * @example finalSlug(['services'], 'service') // 'services'
 */
export function finalSlug(segments: string[], type: ClassificationType): string {
  return segments.length > 1 ? segments.at(-1)! : BASE_ROOT_SLUG[type];
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Catalogue slugs are lowercase kebab-case (the catalogue rejects anything else with an error). */
export function isCatalogueSlug(value: string): boolean {
  return value.length <= 100 && SLUG.test(value);
}

