import * as v from 'valibot';
import type { NewsFeedEntry, NewsFeedResponse } from './types.ts';

/** The loaded part of the news feed. */
export interface FeedPages {
  items: NewsFeedEntry[];
  hasNextPage: boolean;
  endCursor: string | null;
}

export const EMPTY_FEED: FeedPages = { items: [], hasNextPage: false, endCursor: null };

/**
 * Adds the next page; an item already shown (the feed moved while paging) is not shown twice.
 * An empty page ends the feed even if the server still claimed more.
 */
export function appendPage(state: FeedPages, page: NewsFeedResponse): FeedPages {
  const seen = new Set(state.items.map((i) => i.id));
  const fresh = page.items.filter((i) => !seen.has(i.id));
  return {
    items: [...state.items, ...fresh],
    hasNextPage: page.hasNextPage && page.items.length > 0,
    endCursor: page.endCursor ?? state.endCursor,
  };
}

export { newsFeedUrl } from './url.ts';

const str = v.string();
const EntrySchema = v.object({
  id: str,
  title: str,
  text: str,
  publicationDate: str,
  image: v.nullable(v.object({ url: str, alt: str })),
  link: v.nullable(v.object({ href: str, text: str, external: v.boolean(), newTab: v.boolean() })),
});
export const NewsFeedResponseSchema = v.object({ items: v.array(EntrySchema), hasNextPage: v.boolean(), endCursor: v.nullable(str) });
