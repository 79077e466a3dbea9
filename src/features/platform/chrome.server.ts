import { footerNavigation, footerNavigationWithHidden, headerNavigation, headerNavigationWithHidden } from '../../lib/content/cached.ts';
import type { Site } from '../../site/types.ts';
import type { LoadContext } from './context.ts';
import { notFoundModel, type ChromeModel, type NotFoundModel } from './page-model.ts';

/**
 * Header and footer of a site in the page's locale chain. The DRAFT stage is only ever rendered
 * for an editor (the draft preview), who also sees hidden items (spec §5: editor mode), marked.
 */
export async function loadChrome(lc: LoadContext, site: Site): Promise<ChromeModel> {
  const draft = lc.content.stage === 'DRAFT';
  const [header, footer] = await Promise.all([
    (draft ? headerNavigationWithHidden : headerNavigation)(lc.data, lc.content, site),
    (draft ? footerNavigationWithHidden : footerNavigation)(lc.data, lc.content, site),
  ]);
  return { header, footer };
}

/** The 404 model of a site: its chrome only. */
export async function loadNotFound(lc: LoadContext, site: Site): Promise<NotFoundModel> {
  return notFoundModel(await loadChrome(lc, site));
}
