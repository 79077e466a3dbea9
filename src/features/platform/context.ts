import type { CatalogueConfig } from '../../lib/catalogue/index.ts';
import type { DataSource } from '../../lib/cache/data-cache.ts';
import type { ContentConfig, ContentContext, Stage } from '../../lib/content/index.ts';
import type { UpstreamTimeouts } from '../../lib/http/timeouts.ts';
import type { ServerSearchBackend } from '../../lib/search/index.ts';
import type { TicketingConfig } from '../../lib/ticketing/types.ts';
import type { fixedT, UiLanguage } from '../../i18n/index.ts';
import { contentLocaleChain, effectiveLocaleChain, fallbackLanguage } from '../../site/locale.ts';
import type { RequestContext } from '../../site/request.ts';
import type { Locale, Site, SystemData } from '../../site/types.ts';
import type { PrerenderLocals } from './page-model.ts';
import type { SharedState } from '../../lib/shared-state/index.ts';

/** Third-party scripts a page may load (cookie consent, monitoring, tag manager); none by default. */
export interface ThirdPartyScripts {
  consentScriptUrl?: string;
  consentId?: string;
  monitoringScriptUrl?: string;
  tagManagerId?: string;
}

/**
 * The external services of this process, configured once from the environment (src/server/boot/env.ts
 * `servicesFromEnv`) and handed down by the middleware. Nothing below the middleware reads the
 * environment.
 */
/** Where the customer area signs in (spec customer-area §7); every value is public except nothing: no secrets here. */
export interface IntrospectionConfig {
  /** The confidential client of the introspection requests. */
  clientId: string;
  /** Its secret; without one no token is accepted (503). */
  clientSecret?: string;
  /** How long a read may reuse an answer (ms, at most 30 000); writes always ask. */
  cacheTtlMs: number;
}

export interface IdentityConfig {
  /** OIDC issuer without a trailing slash, e.g. `http://localhost:4102/am/oauth2/realms/root/realms/alpha`. */
  issuer: string;
  /** The public (PKCE) client id. */
  clientId: string;
  /** The `aud` our APIs require in an access token. */
  audience: string;
  /** How our APIs ask the provider whether an access token is still active (RFC 7662). */
  introspection: IntrospectionConfig;
  /** Identity management REST base without a trailing slash, e.g. `http://localhost:4102/openidm`. */
  managementUrl: string;
  timeouts: Required<UpstreamTimeouts>;
}

export interface Services {
  content: ContentConfig;
  catalogue: CatalogueConfig;
  identity: IdentityConfig;
  /** The ticketing service behind the tickets proxy (spec customer-area §7). */
  ticketing: TicketingConfig;
  timeouts: Required<UpstreamTimeouts>;
  /** Requests carrying it may use the operators' `?cache=` parameters (spec §9). */
  revalidateSecret?: string;
  /** The editor-area password's scrypt hash (EDITOR_PASSWORD_HASH); absent, the editor area is closed. */
  editorPasswordHash?: string;
  /** Signs protected-page grants (password and CIAM-role pages). */
  pageGrantSecret: string;
  /** What every instance must agree on: revoked editor sessions, used handoff tokens (src/lib/shared-state/). */
  sharedState: SharedState;
  thirdParty: ThirdPartyScripts;
}

/** What a page builder loads with: the data source, the content context of the page, the services. */
export interface LoadContext {
  data: DataSource;
  /** The content hub in the page's locale chain (English last) and stage. */
  content: ContentContext;
  services: Services;
}

export type Translate = ReturnType<typeof fixedT>;

/** Everything a page renders with, resolved once by the middleware (see {@link pageContext}). */
export interface PageContext extends LoadContext {
  request: RequestContext;
  /** The request resolved to no page of the site: render the 404 page. */
  notFound: boolean;
  uiLanguage: UiLanguage;
  t: Translate;
  /** Set while the prerender renders this route: the model to render (no I/O). */
  prerender?: PrerenderLocals;
  /** The release being served or written (embedded for release detection). */
  releaseId: string;
  /** The system data (sites): what the search scopes its query with, as for the API. */
  system: SystemData;
  /** The site search, the same backend as {@link ApiContext.search} (the results page renders on the server). */
  search: () => Promise<ServerSearchBackend>;
  /**
   * The 404 page of this route × site × locale as kept for every visitor (server/render-pool/shared-renders.ts),
   * with this request's path filled in; null while none is kept, or when the request may not share
   * one. Set by the middleware; a route asks through {@link notFoundAnswer}.
   */
  keptNotFound?: () => Response | null;
}

/** What an API route gets from the middleware: system data, the data source and the services. */
export interface ApiContext {
  system: SystemData;
  data: DataSource;
  services: Services;
  /** The site search: the server's (opened before it listens), or under `astro dev` one opened on first use; rejects with a `not-ready` SearchError while there is no index. */
  search: () => Promise<ServerSearchBackend>;
}

class MissingContextError extends Error {
  override name = 'MissingContextError';
}

/**
 * The page context of a request. Throws a clear error when src/middleware.ts did not set it
 * (a route outside the site's pages, or a middleware change that skipped it).
 */
export function pageContext(locals: App.Locals): PageContext {
  if (!locals.page) throw new MissingContextError('Astro.locals.page is not set: src/middleware.ts must resolve the request before a page renders');
  return locals.page;
}

/** The API context of a request; throws when src/middleware.ts did not set it. */
export function apiContext(locals: App.Locals): ApiContext {
  if (!locals.api) throw new MissingContextError('Astro.locals.api is not set: src/middleware.ts must run before an API route');
  return locals.api;
}

/**
 * The content context of a page: its locale chain without locales the hub has no content in (the
 * same answer, and locales of one language share their records), in a stage.
 */
export function contentContextFor(config: ContentConfig, system: SystemData, site: Site, locale: Locale, stage: Stage = 'PUBLISHED'): ContentContext {
  const chain = effectiveLocaleChain(contentLocaleChain(locale, fallbackLanguage(site, system.languages)), system.contentLocales);
  return { config, locales: chain, stage };
}

/**
 * What a route answers once it knows its path has no page: the 404 page kept for every visitor
 * of this site and locale (see {@link PageContext.keptNotFound}) when there is one; otherwise null,
 * with the status set to 404, and the route renders its NotFoundPage.
 */
export function notFoundAnswer(astro: { locals: App.Locals; response: { status?: number } }): Response | null {
  const kept = astro.locals.page?.keptNotFound?.() ?? null;
  if (!kept) astro.response.status = 404;
  return kept;
}
