import { locationsDirectory } from '../../lib/content/cached.ts';
import type { Page } from '../../lib/content/index.ts';
import type { LoadContext } from '../platform/context.ts';

/**
 * A page with the entries of its locations directory modules (none: the page as it is). Read
 * through `lc.data`, so the prerender's fingerprint of the page covers every entry: an edit of a
 * location re-renders the page. The page from the cache is not changed.
 */
export async function withLocations(lc: LoadContext, page: Page): Promise<Page> {
  if (!page.modules.some((m) => m.type === 'locationsDirectory')) return page;
  const locations = await locationsDirectory(lc.data, lc.content);
  return { ...page, modules: page.modules.map((m) => (m.type === 'locationsDirectory' ? { ...m, locations } : m)) };
}
