/**
 * What a feature declares about delivery, read by the static server (src/server/http/app-server.ts), the
 * prerender's collect step and the middleware through the registry in
 * src/server/prerender/policies.ts. Pure data and predicates: the server imports it under plain Node.
 */
export interface FeaturePolicy {
  /** The feature's folder name (src/features/<feature>/), for messages. */
  readonly feature: string;
  /**
   * Query parameters that change what a page renders: a request with any of them is rendered on
   * demand, because the static file is the page without them.
   */
  readonly dynamicParams?: readonly string[];
  /** Cookies that change what a page renders (same effect as `dynamicParams`). */
  readonly dynamicCookies?: readonly string[];
  /**
   * Page paths (below locale and site slug) that are never prerendered, on any site, whatever a
   * route source offers: they are rendered on demand for each request.
   */
  readonly neverStatic?: (pagePath: string) => boolean;
}
