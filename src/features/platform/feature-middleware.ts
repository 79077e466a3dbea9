import type { APIContext } from 'astro';
import type { DataSource } from '../../lib/cache/data-cache.ts';
import type { Stage } from '../../lib/content/index.ts';
import type { Services } from './context.ts';

/** How a page request is rendered: the draft preview decides it (src/features/draft-preview/). */
export interface RenderMode {
  /** A response to send instead of the page. */
  redirect: Response | null;
  stage: Stage;
  /** The page's data source, from the shared one. */
  source(data: DataSource): DataSource;
  /** The last touch on the page's response (headers, cookies). */
  finish(res: Response): Response;
}

/**
 * A feature's steps in src/middleware.ts, declared by the feature and listed in the registry
 * (src/server/prerender/request-hooks.ts); the middleware runs them in the registry's order and
 * knows no feature by name. Every step is optional.
 */
export interface FeatureMiddleware {
  /** The feature's folder name (src/features/<feature>/). */
  readonly feature: string;
  /**
   * Requests the feature takes whole, before the site is resolved: `around` gets the normal
   * handling as `inner` (which may throw: the middleware answers the error page) and returns the answer.
   */
  readonly claims?: (pathname: string) => boolean;
  readonly around?: (context: APIContext, services: Services, inner: () => Promise<Response>) => Promise<Response>;
  /** Once the request resolved to a site: an answer of the feature's own instead of the page, else null. */
  readonly answer?: (context: APIContext, services: Services) => Promise<Response | null>;
  /** The page's render mode (at most one feature decides it). */
  readonly render?: (context: APIContext, services: Services) => Promise<RenderMode>;
  /**
   * A path whose own route file would render it although this site does not have it (`pagePath`:
   * the resolved page's path, null when the request resolved to no page): rendered as the site's 404, never stored.
   */
  readonly misplaced?: (site: { isMain: boolean }, pagePath: string | null, pathname: string) => boolean;
}
