import { useEffect } from 'react';
import { useStore } from '@nanostores/react';
import { Icon } from '../../components/ui/Icon.tsx';
import { $unread, startNewsFeed } from './store.ts';
import { useHydrated } from '../../components/ui/use-hydrated.ts';
import type { IslandMessages } from '../../i18n/island.ts';

/** The locale keys this island shows (see i18n/island.ts). */
export const MESSAGE_KEYS = ['newsFeed.title', 'newsFeed.unread'] as const;

interface Props {
  /** Locale code of the page (`de-ch`), for the API. */
  locale: string;
  messages: IslandMessages<typeof MESSAGE_KEYS>;
}

/**
 * The header's news button. It opens the panel through the `action:news-feed` handler (so it works
 * before hydration) and shows a marker while the newest news item is unread.
 */
export function NewsFeedBell({ locale, messages: m }: Props) {
  useEffect(() => startNewsFeed(locale), [locale]);
  const hydrated = useHydrated();
  const unread = useStore($unread) && hydrated;
  return (
    <button type="button" className="news-bell" data-action="news-feed" aria-haspopup="dialog" aria-controls="news-feed">
      <span className="news-bell__icon">
        <Icon name="bell" size={16} />
        {unread && <span className="news-bell__marker" />}
      </span>
      <span className="news-bell__label">{m['newsFeed.title']}</span>
      {unread && <span className="visually-hidden">{` (${m['newsFeed.unread']})`}</span>}
    </button>
  );
}
