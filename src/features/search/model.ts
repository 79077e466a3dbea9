import type { PageModelBase } from '../platform/page-model.ts';

/** The search results page: a static shell per site and locale; the island asks the API. */
export interface SearchPageModel extends PageModelBase {
  kind: 'search-page';
}
