import type { Page } from '../../lib/content/index.ts';
import type { RequestContext } from '../../site/request.ts';
import { isOfferedIn } from '../../site/countries.ts';
import type { ChromeModel } from '../platform/page-model.ts';
import type { InjectedEntry } from '../catalogue/injection.ts';

/** A content page of the content hub with its chrome: all the page renders (and its `_payload.json`). */
export interface ContentPageModel extends ChromeModel {
  kind: 'content-page';
  page: Page;
  /** The product or service the page names (`page.injection`), when the catalogue has it for this country. */
  injected?: InjectedEntry | null;
}

/**
 * Whether a page is offered on this site and in this country: main-site-only pages are no page
 * elsewhere; a page for some countries shows there and in the international (ALL) view.
 */
export function isPageAvailable(page: Pick<Page, 'mainSiteOnly' | 'countries'>, req: Pick<RequestContext, 'site' | 'country'>): boolean {
  if (page.mainSiteOnly && !req.site.isMain) return false;
  return isOfferedIn(page.countries, req.country.countryCode);
}
