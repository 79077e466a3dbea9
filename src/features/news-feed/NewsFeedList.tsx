import { longDateFormat } from '../../i18n/format.ts';
import { useEffect, useRef } from 'react';
import { useStore } from '@nanostores/react';
import { FlashMessage } from '../../components/ui/FlashMessage.tsx';
import { Icon } from '../../components/ui/Icon.tsx';
import { LoadingButton } from '../../components/ui/LoadingButton.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { NEWS_FEED_OPEN_EVENT } from '../platform/actions.ts';
import { $feed, loadFirstPage, loadMore, setOpen, startNewsFeed } from './store.ts';
import type { IslandMessages } from '../../i18n/island.ts';
import type { NewsFeedEntry } from './types.ts';
import { useHydrated } from '../../components/ui/use-hydrated.ts';

/** The locale keys this island shows (see i18n/island.ts). */
export const MESSAGE_KEYS = [
  'newsFeed.loading', 'newsFeed.loadMore', 'newsFeed.loadingMore', 'newsFeed.empty', 'newsFeed.error', 'newsFeed.retry',
  'footer.opensInNewTab', 'flash.error', 'flash.dismiss',
] as const;
type NewsFeedMessages = IslandMessages<typeof MESSAGE_KEYS>;

interface Props {
  locale: string;
  /** Intl locale for dates (German as de-CH). */
  dateLocale: string;
  /** Id of the <dialog> this list lives in. */
  dialogId: string;
  messages: NewsFeedMessages;
}

/** The news feed inside the panel dialog: first page, "load more" through the cursor, states. */
export function NewsFeedList({ locale, dateLocale, dialogId, messages: m }: Props) {
  const stored = useStore($feed);
  const feed = useHydrated() ? stored : { ...stored, status: 'idle' as const };
  const itemRefs = useRef<(HTMLLIElement | null)[]>([]);
  const dates = longDateFormat(dateLocale);

  useEffect(() => {
    startNewsFeed(locale);
    const dialog = document.getElementById(dialogId) as HTMLDialogElement | null;
    const onOpen = () => setOpen(true);
    const onClose = () => setOpen(false);
    document.addEventListener(NEWS_FEED_OPEN_EVENT, onOpen);
    dialog?.addEventListener('close', onClose);
    // Opened before this island hydrated.
    if (dialog?.open) setOpen(true);
    return () => {
      document.removeEventListener(NEWS_FEED_OPEN_EVENT, onOpen);
      dialog?.removeEventListener('close', onClose);
    };
  }, [locale, dialogId]);

  const onLoadMore = async () => {
    const before = $feed.get().items.length;
    const added = await loadMore();
    // Keyboard and screen-reader users continue at the first new item.
    if (added > 0) requestAnimationFrame(() => itemRefs.current[before]?.focus());
  };

  if (feed.status === 'idle' || feed.status === 'pending') {
    return <p className="news-feed__status" role="status"><Spinner /> {m['newsFeed.loading']}</p>;
  }
  if (feed.status === 'error') {
    return (
      <div className="news-feed__error">
        <FlashMessage type="error" static message={m['newsFeed.error']} typeLabel={m['flash.error']} dismissLabel={m['flash.dismiss']} />
        <button type="button" className="btn btn--secondary" onClick={() => void loadFirstPage()}>{m['newsFeed.retry']}</button>
      </div>
    );
  }
  if (feed.items.length === 0) return <p className="news-feed__status">{m['newsFeed.empty']}</p>;

  return (
    <>
      <ol className="news-feed__list">
        {feed.items.map((item, i) => (
          <li key={item.id} className="news-item" tabIndex={-1} ref={(el) => { itemRefs.current[i] = el; }} aria-labelledby={`news-item-${item.id}`}>
            <NewsItem item={item} date={dates.format(new Date(item.publicationDate))} m={m} />
          </li>
        ))}
      </ol>
      {feed.moreFailed && <p className="news-feed__more-error" role="alert">{m['newsFeed.error']}</p>}
      {feed.hasNextPage && (
        <div className="news-feed__more">
          <LoadingButton variant="secondary" loading={feed.loadingMore} loadingLabel={m['newsFeed.loadingMore']} onClick={() => void onLoadMore()}>
            {feed.moreFailed ? m['newsFeed.retry'] : m['newsFeed.loadMore']}
          </LoadingButton>
        </div>
      )}
    </>
  );
}

function NewsItem({ item, date, m }: { item: NewsFeedEntry; date: string; m: NewsFeedMessages }) {
  return (
    <article className="news-item__body">
      {item.image && <img className="news-item__image" src={item.image.url} alt={item.image.alt} width={120} height={68} loading="lazy" />}
      <div className="news-item__text">
        <time className="news-item__date" dateTime={item.publicationDate}>{date}</time>
        <h3 className="news-item__title" id={`news-item-${item.id}`}>{item.title}</h3>
        {item.text && <p>{item.text}</p>}
        {item.link && (
          <a
            className="news-item__link"
            href={item.link.href}
            target={item.link.newTab ? '_blank' : undefined}
            rel={item.link.external ? (item.link.newTab ? 'noopener noreferrer' : 'noopener') : undefined}
          >
            {item.link.text}
            {item.link.text !== item.title && <span className="visually-hidden">: {item.title}</span>}
            <Icon name={item.link.external ? 'external' : 'chevronRight'} size={16} />
            {item.link.newTab && <span className="visually-hidden"> {m['footer.opensInNewTab']}</span>}
          </a>
        )}
      </div>
    </article>
  );
}
