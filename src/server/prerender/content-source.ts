import { listPages } from '../../lib/content/index.ts';
import { isPageAvailable, type ContentPageModel } from '../../models/content-page.ts';
import { pageSearchText } from '../../models/search-text.ts';
import type { RouteSource } from './sources.ts';

/** Content pages of the content hub: every public, published page offered on the site. */
export const contentPageSource: RouteSource = {
  name: 'content-pages',
  appliesTo: () => true,
  async routes(ctx) {
    const pages = await ctx.memo(`pages:${ctx.site.id}:${ctx.content.locales.join(',')}`, () => listPages(ctx.content, ctx.site));
    return pages
      .filter((page) => page.protection === 0 && page.isPublished && isPageAvailable(page, { site: ctx.site, country: ctx.country }))
      .map((page) => ({
        pagePath: page.path,
        model: { kind: 'content-page', ...ctx.chrome, page } satisfies ContentPageModel,
        recordHashes: [ctx.hash(page)],
        languages: page.languages,
        updatedAt: page.updatedAt,
        keys: [page.id, page.slug],
        search: pageSearchText(page),
      }));
  },
};
