import { afterEach, describe, expect, it, vi } from 'vitest';
import { $feed, $unread, loadFirstPage, loadMore, resetNewsFeed, setOpen, startNewsFeed } from './store.ts';
import { LAST_READ_KEY } from './unread.ts';
import type { NewsFeedEntry, NewsFeedResponse } from './types.ts';

const entry = (id: string): NewsFeedEntry => ({ id, title: id, text: '', publicationDate: '2026-01-01T00:00:00Z', image: null, link: null });
const page = (from: number, n: number, hasNextPage: boolean): NewsFeedResponse => ({
  items: Array.from({ length: n }, (_, i) => entry(`n${from + i}`)), hasNextPage, endCursor: `c${from + n}`,
});

function storage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), data };
}

/** A fetch stand-in answering from a list of pages keyed by the `after` parameter. */
function api(pages: Record<string, NewsFeedResponse | number>) {
  return vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://x');
    const answer = pages[url.searchParams.get('after') ?? ''];
    if (answer === undefined || typeof answer === 'number') return new Response('{}', { status: typeof answer === 'number' ? answer : 404 });
    return new Response(JSON.stringify(answer), { status: 200 });
  }) as unknown as typeof fetch;
}

const settle = () => new Promise((r) => setTimeout(r, 0));

afterEach(() => resetNewsFeed());

describe('news feed store', () => {
  it('loads the first page once, for both islands', async () => {
    const fetch = api({ '': page(0, 10, true) });
    startNewsFeed('de-ch', { fetch, storage: storage() });
    startNewsFeed('de-ch', { fetch, storage: storage() });
    await settle();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String((fetch as unknown as { mock: { calls: unknown[][] } }).mock.calls[0]![0])).toBe('/api/news-feed?lang=de-ch');
    expect($feed.get()).toMatchObject({ status: 'success', hasNextPage: true, endCursor: 'c10' });
  });

  it('shows unread news until opened, then remembers the newest id', async () => {
    const s = storage();
    startNewsFeed('en', { fetch: api({ '': page(0, 10, true) }), storage: s });
    await settle();
    expect($unread.get()).toBe(true);
    setOpen(true);
    expect($unread.get()).toBe(false);
    expect(s.data.get(LAST_READ_KEY)).toBe('n0');
  });

  it('has nothing unread when the stored id is the newest', async () => {
    startNewsFeed('en', { fetch: api({ '': page(0, 10, true) }), storage: storage({ [LAST_READ_KEY]: 'n0' }) });
    await settle();
    expect($unread.get()).toBe(false);
  });

  it('marks read when the first page arrives while the panel is open', async () => {
    const s = storage();
    setOpen(true);
    startNewsFeed('en', { fetch: api({ '': page(0, 3, false) }), storage: s });
    await settle();
    expect(s.data.get(LAST_READ_KEY)).toBe('n0');
  });

  it('loads the next page after the end cursor', async () => {
    startNewsFeed('en', { fetch: api({ '': page(0, 10, true), c10: page(10, 5, false) }), storage: storage() });
    await settle();
    expect(await loadMore()).toBe(5);
    expect($feed.get().items).toHaveLength(15);
    expect($feed.get().hasNextPage).toBe(false);
    expect(await loadMore()).toBe(0);
  });

  it('keeps the loaded items when loading more fails, and can retry the first page', async () => {
    startNewsFeed('en', { fetch: api({ '': page(0, 10, true), c10: 502 }), storage: storage() });
    await settle();
    expect(await loadMore()).toBe(0);
    expect($feed.get()).toMatchObject({ moreFailed: true, loadingMore: false });
    expect($feed.get().items).toHaveLength(10);
  });

  it('reports an error for a failed first page', async () => {
    startNewsFeed('en', { fetch: api({ '': 500 }), storage: null });
    await settle();
    expect($feed.get().status).toBe('error');
    expect($unread.get()).toBe(false);
    await loadFirstPage();
    expect($feed.get().status).toBe('error');
  });
});
