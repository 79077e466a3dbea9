/** The news feed as the island sees it: plain, serialisable, links already resolved for the page's site and locale. */

export interface NewsFeedEntry {
  id: string;
  title: string;
  /** Literal `\n` sequences already removed. */
  text: string;
  /** ISO 8601 date-time, formatted in the browser with the page locale. */
  publicationDate: string;
  image: { url: string; alt: string } | null;
  link: { href: string; text: string; external: boolean; newTab: boolean } | null;
}

/** One page of GET /api/news-feed. */
export interface NewsFeedResponse {
  items: NewsFeedEntry[];
  hasNextPage: boolean;
  endCursor: string | null;
}
