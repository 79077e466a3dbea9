import './search-box.css';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { callSearch } from './api-client.ts';
import { MIN_SUGGEST_CHARS, type SearchRecord } from '../../lib/search/types.ts';
import { Icon } from '../../components/ui/Icon.tsx';
import { fill, type IslandMessages } from '../../i18n/island.ts';

export const SUGGEST_DEBOUNCE_MS = 200;

/** The locale keys this island shows (see i18n/island.ts). */
export const MESSAGE_KEYS = ['search.label', 'search.placeholder', 'search.submit', 'search.suggestions', 'search.suggestionCount'] as const;

interface Props {
  localeCode: string;
  siteSlug: string;
  /** The results page: `/de/search`. */
  action: string;
  messages: IslandMessages<typeof MESSAGE_KEYS>;
}

/**
 * The header search: a form that works without JavaScript, enhanced into an ARIA 1.2 combobox
 * with type-ahead suggestions from the second character (debounced). Arrow keys move through
 * the suggestions, Enter opens the chosen one, Escape closes the list.
 */
export default function SearchBox({ localeCode, siteSlug, action, messages: m }: Props) {
  const id = useId();
  const [query, setQuery] = useState('');
  const [items, setItems] = useState<SearchRecord[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const abort = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);

  // The input is not controlled by React: what a visitor typed before the island hydrated stays,
  // and is picked up here.
  useEffect(() => {
    if (input.current?.value) setQuery(input.current.value);
  }, []);

  useEffect(() => {
    const q = query.trim();
    if (q.length < MIN_SUGGEST_CHARS) {
      setItems([]);
      setOpen(false);
      return;
    }
    const timer = setTimeout(() => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      callSearch('suggest', { localeCode, siteSlug, query: q }, controller.signal)
        .then((r) => { setItems(r.records); setOpen(r.records.length > 0); setActive(-1); })
        .catch((err: Error) => {
          if (err.name === 'AbortError') return;
          // Suggestions are a convenience: on failure the form still searches.
          setItems([]);
          setOpen(false);
        });
    }, SUGGEST_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, localeCode, siteSlug]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' && items.length) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % items.length);
    } else if (e.key === 'ArrowUp' && items.length) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
    } else if (e.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    } else if (e.key === 'Enter' && open && active >= 0 && items[active]) {
      e.preventDefault();
      location.assign(items[active]!.url);
    }
  };

  const listId = `${id}-list`;
  return (
    <form className="search-box" role="search" action={action} method="get" aria-label={m['search.label']}>
      <label htmlFor={`${id}-input`} className="visually-hidden">{m['search.label']}</label>
      <input
        id={`${id}-input`}
        name="q"
        // A combobox may not be type=search (ARIA in HTML allows no role on it); the phone keyboard
        // still shows its search key.
        type="text"
        enterKeyHint="search"
        autoComplete="off"
        placeholder={m['search.placeholder']}
        ref={input}
        defaultValue=""
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${id}-opt-${active}` : undefined}
      />
      <button type="submit" className="search-box__submit" aria-label={m['search.submit']}><Icon name="search" size={16} /></button>
      <ul id={listId} role="listbox" aria-label={m['search.suggestions']} className="search-box__list" hidden={!open}>
        {items.map((item, i) => (
          <li
            key={item.url}
            id={`${id}-opt-${i}`}
            role="option"
            aria-selected={i === active}
            className={i === active ? 'is-active' : undefined}
            onMouseDown={(e) => { e.preventDefault(); location.assign(item.url); }}
          >
            {item.title}
          </li>
        ))}
      </ul>
      <span className="visually-hidden" role="status">{open ? fill(m['search.suggestionCount'], { count: items.length }) : ''}</span>
    </form>
  );
}
