import { NEWS_FEED_OPEN_EVENT } from '../platform/actions.ts';
import { newsFeedUrl } from './url.ts';
import { hasUnread, LAST_READ_KEY, readLastRead } from './unread.ts';

/**
 * The header's news bell, a server-rendered button (no island): this plain script shows the
 * unread marker while the newest news item differs from the last-read one, and keeps
 * `aria-expanded` in step with the panel. Opening the panel is the `action:news-feed` handler's job.
 */
export interface BellEnv {
  fetch: typeof fetch;
  storage: Pick<Storage, 'getItem'> | null;
  document: Pick<Document, 'addEventListener' | 'getElementById'>;
  window: Pick<Window, 'addEventListener'>;
}

/** Shows or hides the marker and the "(unread news)" text inside the bell. */
export function showUnread(bell: HTMLElement, unread: boolean): void {
  for (const el of bell.querySelectorAll<HTMLElement>('[data-unread]')) el.hidden = !unread;
}

/** Wires one bell; resolves once the marker reflects the first page of the feed. */
export async function initBell(bell: HTMLElement, locale: string, env: BellEnv): Promise<void> {
  const panel = env.document.getElementById(bell.getAttribute('aria-controls') ?? '');
  let latest: string | null = null;
  env.document.addEventListener(NEWS_FEED_OPEN_EVENT, () => {
    bell.setAttribute('aria-expanded', 'true');
    // Opening the panel marks the news read (the panel's island stores it).
    showUnread(bell, false);
  });
  panel?.addEventListener('close', () => bell.setAttribute('aria-expanded', 'false'));
  env.window.addEventListener('storage', (e) => {
    if (e.key === LAST_READ_KEY) showUnread(bell, hasUnread(latest, e.newValue || null));
  });
  try {
    const res = await env.fetch(newsFeedUrl(locale, null), { headers: { accept: 'application/json' } });
    if (!res.ok) return;
    const body = (await res.json()) as { items?: { id?: unknown }[] };
    const first = body.items?.[0]?.id;
    latest = typeof first === 'string' ? first : null;
  } catch {
    return; // no marker without the feed; the panel shows the error when opened
  }
  if (bell.getAttribute('aria-expanded') !== 'true') showUnread(bell, hasUnread(latest, readLastRead(env.storage)));
}

function browserStorage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null;
  }
}

/** Wires every bell of the page. */
export function initBells(): void {
  for (const bell of document.querySelectorAll<HTMLElement>('[data-news-bell]')) {
    void initBell(bell, bell.dataset.locale ?? 'en', { fetch: (...a) => fetch(...a), storage: browserStorage(), document, window });
  }
}
