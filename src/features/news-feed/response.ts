import type { NewsFeedItem, NewsFeedPage } from '../../lib/content/index.ts';
import { resolveLink, type LinkContext } from '../../site/links.ts';
import { isLocalHost } from '../../site/resolve-site.ts';
import type { Site } from '../../site/types.ts';
import type { NewsFeedEntry, NewsFeedResponse } from './types.ts';
import { mainSite } from '../../site/main-site.ts';

export interface NewsLinkOptions {
  links: LinkContext;
  /** Put before internal links when the page is not on the main site's host (see mainSiteOrigin). */
  origin: string;
  fallbackLinkText: string;
}

/**
 * Where internal news links must point when the feed is shown on `requestUrl`: '' (relative) on
 * the main site's hosts and on hosts no site claims (the main site answers those); on another
 * site's host the main site's origin — its loopback domain locally, its public one otherwise —
 * because the feed's links are main-site pages.
 * @example mainSiteOrigin(new URL('http://events.localhost:4321/api/news-feed'), sites) // 'http://localhost:4321'
 */
export function mainSiteOrigin(requestUrl: URL, sites: Pick<Site, 'isMain' | 'domains'>[]): string {
  const host = requestUrl.hostname.toLowerCase();
  const main = mainSite({ sites });
  if (!main || main.domains.some((d) => d.host === host)) return '';
  if (!sites.some((s) => s.domains.some((d) => d.host === host))) return '';
  const local = isLocalHost(requestUrl.host);
  const domain = main.domains.find((d) => isLocalHost(d.host) === local);
  if (!domain) return '';
  return local ? `${requestUrl.protocol}//${domain.host}${requestUrl.port ? `:${requestUrl.port}` : ''}` : `https://${domain.host}`;
}

/**
 * A news item for the island. Links resolve against the main site (the feed is the group's, and
 * stories live there); a link without a usable target, or an in-app action, is left out.
 */
export function toNewsFeedEntry(item: NewsFeedItem, opts: NewsLinkOptions): NewsFeedEntry {
  const resolved = resolveLink(item.link, opts.links);
  const link = resolved && resolved.kind !== 'action'
    ? {
      href: resolved.kind === 'internal' ? `${opts.origin}${resolved.href}` : resolved.href,
      text: item.link?.text || item.link?.page?.title || opts.fallbackLinkText,
      external: resolved.kind === 'external',
      newTab: resolved.newTab,
    }
    : null;
  return {
    id: item.id,
    title: item.title,
    text: item.text,
    publicationDate: item.publicationDate,
    image: item.image ? { url: item.image.url, alt: item.image.alternativeText } : null,
    link,
  };
}

export function toNewsFeedResponse(page: NewsFeedPage, opts: NewsLinkOptions): NewsFeedResponse {
  return { items: page.items.map((i) => toNewsFeedEntry(i, opts)), hasNextPage: page.hasNextPage, endCursor: page.endCursor };
}
