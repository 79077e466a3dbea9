import { pageByPathKey, sitePages } from '../../lib/content/cached.ts';
import type { RouteSource, SourcedRoute } from '../platform/route-source.ts';
import { loadContentPage } from './load.server.ts';
import { isPageAvailable } from './model.ts';
import { pageSearchText } from './search-text.ts';

/**
 * Content pages of the content hub: every public, published page offered on the site, built with
 * the on-demand loader from one bulk list per site and locale chain.
 */
export const contentPageSource: RouteSource = {
  name: 'content-pages',
  appliesTo: () => true,
  async routes(ctx) {
    const pages = await sitePages(ctx.data, ctx.content, ctx.site);
    const offered = pages.filter((page) => page.protection === 0 && page.isPublished && isPageAvailable(page, ctx));
    for (const page of offered) ctx.data.seed(pageByPathKey(ctx.content, ctx.site, page.path), page);
    const routes: SourcedRoute[] = [];
    for (const page of offered) {
      const kept = ctx.kept(page.path);
      if (kept) { routes.push(kept); continue; }
      const { model, recordHashes } = await ctx.build(page.path, loadContentPage);
      if (model.kind !== 'content-page') continue;
      routes.push({
        pagePath: page.path, model, recordHashes, languages: page.languages, updatedAt: page.updatedAt, keys: [page.id, page.slug], search: pageSearchText(model.page, model.injected),
      });
    }
    return routes;
  },
};
