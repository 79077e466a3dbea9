/**
 * The news feed API's URL, in a module of its own: the header bell loads on every page and needs
 * only this, not the response schema in `paging.ts` (which would bring valibot to every first load).
 * @example newsFeedUrl('de-ch', 'Y3gx') // '/api/news-feed?lang=de-ch&after=Y3gx'
 */
export function newsFeedUrl(locale: string, after: string | null): string {
  const params = new URLSearchParams({ lang: locale });
  if (after) params.set('after', after);
  return `/api/news-feed?${params.toString()}`;
}
