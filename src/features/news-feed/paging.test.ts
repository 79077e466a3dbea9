import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { appendPage, EMPTY_FEED, newsFeedUrl, NewsFeedResponseSchema } from './paging.ts';
import type { NewsFeedEntry } from './types.ts';

const entry = (id: string): NewsFeedEntry => ({ id, title: id, text: '', publicationDate: '2026-01-01T00:00:00Z', image: null, link: null });
const ids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => entry(`n${from + i}`));

describe('appendPage', () => {
  it('starts from the first page', () => {
    const s = appendPage(EMPTY_FEED, { items: ids(10), hasNextPage: true, endCursor: 'c10' });
    expect(s.items).toHaveLength(10);
    expect(s).toMatchObject({ hasNextPage: true, endCursor: 'c10' });
  });

  it('appends the next page in order and moves the cursor', () => {
    const first = appendPage(EMPTY_FEED, { items: ids(10), hasNextPage: true, endCursor: 'c10' });
    const second = appendPage(first, { items: ids(5, 10), hasNextPage: false, endCursor: 'c15' });
    expect(second.items.map((i) => i.id)).toEqual(ids(15).map((i) => i.id));
    expect(second).toMatchObject({ hasNextPage: false, endCursor: 'c15' });
  });

  it('does not show an item twice', () => {
    const first = appendPage(EMPTY_FEED, { items: ids(3), hasNextPage: true, endCursor: 'c3' });
    const second = appendPage(first, { items: [entry('n2'), entry('n3')], hasNextPage: true, endCursor: 'c4' });
    expect(second.items.map((i) => i.id)).toEqual(['n0', 'n1', 'n2', 'n3']);
  });

  it('ends the feed on an empty page and keeps the old cursor', () => {
    const first = appendPage(EMPTY_FEED, { items: ids(2), hasNextPage: true, endCursor: 'c2' });
    expect(appendPage(first, { items: [], hasNextPage: true, endCursor: null })).toMatchObject({ hasNextPage: false, endCursor: 'c2' });
  });
});

describe('newsFeedUrl', () => {
  it('asks for the first page without a cursor and the next with one', () => {
    expect(newsFeedUrl('en', null)).toBe('/api/news-feed?lang=en');
    expect(newsFeedUrl('de-ch', 'Y3gx+/=')).toBe('/api/news-feed?lang=de-ch&after=Y3gx%2B%2F%3D');
  });
});

describe('NewsFeedResponseSchema', () => {
  it('accepts an API answer and refuses a broken one', () => {
    expect(v.safeParse(NewsFeedResponseSchema, { items: ids(1), hasNextPage: false, endCursor: null }).success).toBe(true);
    expect(v.safeParse(NewsFeedResponseSchema, { items: [{ id: 1 }], hasNextPage: false, endCursor: null }).success).toBe(false);
  });
});
