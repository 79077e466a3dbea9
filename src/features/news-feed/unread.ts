/** The one local storage key of the news feed: the id of the newest item the visitor has seen (spec §9). */
export const LAST_READ_KEY = 'komax.newsFeed.lastReadId';

/**
 * Spec §4: there is unread news when the newest item's id differs from the last-read id. No news
 * at all is nothing unread.
 */
export function hasUnread(latestId: string | null, lastReadId: string | null): boolean {
  return latestId !== null && latestId !== lastReadId;
}

type ReadStore = Pick<Storage, 'getItem'>;
type WriteStore = Pick<Storage, 'setItem'>;

/** The stored last-read id; null when none is stored or storage is not available (private mode, blocked). */
export function readLastRead(storage: ReadStore | null | undefined): string | null {
  try {
    return storage?.getItem(LAST_READ_KEY) || null;
  } catch {
    return null;
  }
}

/** Remembers the newest item as read; a storage that refuses (quota, blocked) only costs the memory. */
export function writeLastRead(storage: WriteStore | null | undefined, id: string): void {
  try {
    storage?.setItem(LAST_READ_KEY, id);
  } catch {
    // Not remembered: the marker shows again on the next page.
  }
}
