import type { SearchPageModel } from '../../models/search-page.ts';
import type { RouteSource } from './sources.ts';

/** The search page shell of every site on its own host, in every locale (results come from the API). */
export const searchPageSource: RouteSource = {
  name: 'search-page',
  appliesTo: (site) => !site.slug,
  async routes(ctx) {
    return [{
      pagePath: '/search',
      model: { kind: 'search-page', ...ctx.chrome } satisfies SearchPageModel,
      recordHashes: [],
      languages: [ctx.locale.language],
      updatedAt: new Date(0).toISOString(),
      keys: ['search'],
      inSitemap: false,
    }];
  },
};
