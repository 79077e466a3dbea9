import { SEARCH_PATH } from '../../site/paths.ts';
import type { RequestContext } from '../../site/request.ts';
import { loadChrome } from '../platform/chrome.server.ts';
import type { LoadContext } from '../platform/context.ts';
import type { RouteSource } from '../platform/route-source.ts';
import type { SearchPageModel } from './model.ts';

/** The search page shell: the chrome only (a `?q=` request renders its results on demand). */
export async function loadSearchPage(lc: LoadContext, req: RequestContext): Promise<SearchPageModel> {
  return { kind: 'search-page', ...(await loadChrome(lc, req.site)) };
}

/** Search lives on sites with their own host (no slug). */
export const searchOffered = (req: Pick<RequestContext, 'site'>): boolean => !req.site.slug;

/** The search page shell of every site on its own host, in every locale. */
export const searchPageSource: RouteSource = {
  name: 'search-page',
  appliesTo: (site) => searchOffered({ site }),
  async routes(ctx) {
    const kept = ctx.kept(SEARCH_PATH);
    if (kept) return [kept];
    const { model, recordHashes } = await ctx.build(SEARCH_PATH, loadSearchPage);
    return [{ pagePath: SEARCH_PATH, model, recordHashes, languages: [ctx.locale.language], updatedAt: new Date(0).toISOString(), keys: ['search'], inSitemap: false }];
  },
};
