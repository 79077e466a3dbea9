import type { PageModelBase } from '../platform/page-model.ts';

/**
 * The search results page: the chrome (a static shell per site and locale); the results of a
 * `?q=` request are searched while rendering on demand (`searchForPage`), not part of the model.
 */
export interface SearchPageModel extends PageModelBase {
  kind: 'search-page';
}
