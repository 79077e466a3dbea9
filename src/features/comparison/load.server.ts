import { COMPARISON_PATH } from '../../site/paths.ts';
import type { RequestContext } from '../../site/request.ts';
import { loadChrome } from '../platform/chrome.server.ts';
import type { LoadContext } from '../platform/context.ts';
import type { RouteSource } from '../platform/route-source.ts';
import { siteLanguages } from '../../site/locale.ts';
import type { ComparisonPageModel } from './model.ts';

/** The comparison page shell: the chrome only (the island asks the comparison API). */
export async function loadComparisonPage(lc: LoadContext, req: RequestContext): Promise<ComparisonPageModel> {
  return { kind: 'catalogue-comparison', ...(await loadChrome(lc, req.site)) };
}

/** The comparison page of the main site, one per locale. */
export const comparisonSource: RouteSource = {
  name: 'comparison',
  appliesTo: (site) => site.isMain,
  async routes(ctx) {
    const kept = ctx.kept(COMPARISON_PATH);
    if (kept) return [kept];
    const { model, recordHashes } = await ctx.build(COMPARISON_PATH, loadComparisonPage);
    return [{ pagePath: COMPARISON_PATH, model, recordHashes, languages: siteLanguages(ctx.site, ctx.system.languages), updatedAt: new Date().toISOString().slice(0, 10), keys: ['comparison'] }];
  },
};
