import type { ContentConfig, ContentContext } from '../../lib/content/index.ts';
import type { ChromeModel } from '../../models/content-page.ts';
import type { PageModelBase, SearchText } from '../../models/page-model.ts';
import type { Country, Locale, Site, SystemData } from '../../site/types.ts';
import { contentPageSource } from './content-source.ts';
import { searchPageSource } from './search-page-source.ts';
import { editorialSource } from './editorial-source.ts';
import { catalogueSource } from './catalogue-source.ts';

/** What a route source gets for one site × locale. */
export interface RouteSourceContext {
  system: SystemData;
  site: Site;
  locale: Locale;
  country: Country;
  /** Content-hub context with the locale chain of this locale (English last). */
  content: ContentContext;
  /** Header and footer of this site in this locale chain. */
  chrome: ChromeModel;
  /** Loads once per key for the whole run (locales sharing a chain share the records). */
  memo<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Stable hash of a record, cached by identity. */
  hash(record: unknown): string;
}

/** One static route a source contributes. */
export interface SourcedRoute {
  /** Site-relative path below the locale and site slug, '' for the home page: `/stories/x`. */
  pagePath: string;
  model: PageModelBase;
  /** Hashes of every record the route is rendered from (chrome and system are added for you). */
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
}

export interface RouteSource {
  name: string;
  /** Whether the source has routes on this site (e.g. the catalogue only on the main site). */
  appliesTo(site: Site): boolean;
  routes(ctx: RouteSourceContext): Promise<SourcedRoute[]>;
}

export interface SourceConfig {
  content: ContentConfig;
}

/**
 * The static route sources, in order. Features add theirs here (catalogue, stories, media
 * releases …); each must list only public, published, unprotected records.
 */
export const ROUTE_SOURCES: RouteSource[] = [contentPageSource, searchPageSource, editorialSource, catalogueSource];
