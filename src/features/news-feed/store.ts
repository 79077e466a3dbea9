import { atom, computed } from 'nanostores';
import * as v from 'valibot';
import { appendPage, EMPTY_FEED, newsFeedUrl, NewsFeedResponseSchema, type FeedPages } from './paging.ts';
import { hasUnread, LAST_READ_KEY, readLastRead, writeLastRead } from './unread.ts';

/**
 * News feed state shared by the header bell and the panel (two islands): pages loaded so far,
 * the last-read id, and whether the panel is open. Written only through the actions below.
 */

export type FeedStatus = 'idle' | 'pending' | 'success' | 'error';

export interface FeedState extends FeedPages {
  /** State of the first page (spec §4 async data states). */
  status: FeedStatus;
  /** A further page is on its way. */
  loadingMore: boolean;
  /** The last "load more" failed. */
  moreFailed: boolean;
}

const INITIAL: FeedState = { ...EMPTY_FEED, status: 'idle', loadingMore: false, moreFailed: false };

export const $feed = atom<FeedState>(INITIAL);
export const $lastReadId = atom<string | null>(null);
export const $open = atom(false);
/** Newest item differs from the last-read one. */
export const $unread = computed([$feed, $lastReadId], (feed, lastRead) => hasUnread(feed.items[0]?.id ?? null, lastRead));

interface Env {
  locale: string;
  fetch: typeof fetch;
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
}
let env: Env | null = null;

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

async function fetchPage(after: string | null) {
  const res = await env!.fetch(newsFeedUrl(env!.locale, after), { headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`News feed answered ${res.status}`);
  return v.parse(NewsFeedResponseSchema, await res.json());
}

/**
 * Starts the feed once per page (both islands call it): reads the last-read id and loads the
 * first page, which also tells whether there is unread news.
 */
export function startNewsFeed(locale: string, deps: Partial<Omit<Env, 'locale'>> = {}): void {
  if (env) return;
  env = { locale, fetch: deps.fetch ?? ((...a) => fetch(...a)), storage: deps.storage !== undefined ? deps.storage : browserStorage() };
  $lastReadId.set(readLastRead(env.storage));
  // Read in another tab: the marker goes away here too.
  if (typeof window !== 'undefined') window.addEventListener('storage', (e) => { if (e.key === LAST_READ_KEY) $lastReadId.set(e.newValue || null); });
  void loadFirstPage();
}

/** Loads (or after an error, reloads) the first page. */
export async function loadFirstPage(): Promise<void> {
  if (!env || $feed.get().status === 'pending') return;
  $feed.set({ ...INITIAL, status: 'pending' });
  try {
    const page = await fetchPage(null);
    $feed.set({ ...INITIAL, ...appendPage(EMPTY_FEED, page), status: 'success' });
    if ($open.get()) markRead();
  } catch {
    $feed.set({ ...INITIAL, status: 'error' });
  }
}

/** Loads the page after the last one; resolves to the number of items added. */
export async function loadMore(): Promise<number> {
  const state = $feed.get();
  if (!env || state.status !== 'success' || state.loadingMore || !state.hasNextPage) return 0;
  $feed.set({ ...state, loadingMore: true, moreFailed: false });
  try {
    const page = await fetchPage(state.endCursor);
    const next = appendPage(state, page);
    $feed.set({ ...$feed.get(), ...next, loadingMore: false });
    return next.items.length - state.items.length;
  } catch {
    $feed.set({ ...$feed.get(), loadingMore: false, moreFailed: true });
    return 0;
  }
}

/** Remembers the newest item as read (persisted), which clears the unread marker. */
export function markRead(): void {
  const latest = $feed.get().items[0]?.id;
  if (!latest || latest === $lastReadId.get()) return;
  writeLastRead(env?.storage, latest);
  $lastReadId.set(latest);
}

/** The panel opened or closed; opening marks the news read. */
export function setOpen(open: boolean): void {
  $open.set(open);
  if (open) markRead();
}

/** For tests: forget everything. */
export function resetNewsFeed(): void {
  env = null;
  $feed.set(INITIAL);
  $lastReadId.set(null);
  $open.set(false);
}
