import type { ContentContext } from '../../lib/content/index.ts';
import type { DataSource, KeyPart } from '../../lib/cache/data-cache.ts';
import type { RequestContext } from '../../site/request.ts';
import type { Country, Locale, Site, SystemData } from '../../site/types.ts';
import type { LoadContext, Services } from './context.ts';
import type { PageModelBase, SearchText } from './page-model.ts';

/** The prerender's run-wide data source: loads each key once, and takes records loaded in bulk. */
export interface RunData extends DataSource {
  /** Stores a record under a key (a bulk load seeding what the per-route getters will ask for). */
  seed(key: readonly KeyPart[], value: unknown): void;
}

/**
 * A page builder: the same function a route file calls on demand. It reads every record through
 * `lc.data`, so the prerender can fingerprint exactly what it read.
 */
export type PageLoader<M> = (lc: LoadContext, req: RequestContext) => Promise<M>;

/** What a route source gets for one site × locale. */
export interface RouteSourceContext {
  system: SystemData;
  site: Site;
  locale: Locale;
  country: Country;
  /** Content-hub context of this locale (its chain, English last; published stage). */
  content: ContentContext;
  services: Services;
  /** Loads once per key for the whole run; locales sharing a chain or a language share records. */
  data: RunData;
  /**
   * Builds the model of a route with its on-demand loader, as a request for the route would: the
   * request context comes from resolving the route's URL, and the result holds the hashes of
   * every record the loader read (they go into the route's fingerprint).
   */
  build<M>(pagePath: string, load: PageLoader<M>): Promise<{ model: M; recordHashes: string[] }>;
  /**
   * In a targeted revalidation: the route at `pagePath` as the live release has it, when the
   * changed records do not affect it. A source adds it as it is, without building it (its model
   * is a stub that is never rendered); null means build the route.
   */
  kept(pagePath: string): SourcedRoute | null;
}

/** One static route a source contributes. */
export interface SourcedRoute {
  /** Site-relative path below the locale and site slug, '' for the home page: `/stories/x`. */
  pagePath: string;
  model: PageModelBase;
  /** Hashes of every record the route is rendered from (system data is added for you). */
  recordHashes: string[];
  /** For the sitemap and hreflang: languages the content exists in, and when it changed. */
  languages: string[];
  updatedAt: string;
  /** Ids and slugs a revalidation request may name to force this route. */
  keys: string[];
  /** Text for the site search; omit for pages that must not be searchable. */
  search?: SearchText;
  /** False for pages that are not indexed by search engines (e.g. the search page). */
  inSitemap?: boolean;
  /** Set on a route `kept` returned: the live release's files and rule stay. */
  kept?: boolean;
}

/** A feature's static routes: each must list only public, published, unprotected records. */
export interface RouteSource {
  name: string;
  /** Whether the source has routes on this site (e.g. the catalogue only on the main site). */
  appliesTo(site: Site): boolean;
  routes(ctx: RouteSourceContext): Promise<SourcedRoute[]>;
}
