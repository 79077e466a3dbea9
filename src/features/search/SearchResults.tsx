import { useCallback, useEffect, useState } from 'react';
import { callSearch } from './client.ts';
import { parseMarked } from './marked.ts';
import { PAGE_SIZE, type SearchResult } from '../../lib/search/types.ts';
import { FlashMessage } from '../../components/ui/FlashMessage.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { fill, type IslandMessages } from '../../i18n/island.ts';

/** The locale keys this island shows (see i18n/island.ts). */
export const MESSAGE_KEYS = [
  'search.prompt', 'search.loading', 'search.resultsFor', 'search.count', 'search.empty', 'search.error', 'flash.error', 'flash.dismiss',
  'search.retry', 'search.pagination', 'search.previous', 'search.next', 'search.pageOf',
] as const;

interface Props {
  localeCode: string;
  siteSlug: string;
  messages: IslandMessages<typeof MESSAGE_KEYS>;
}

type State =
  | { kind: 'idle' }
  | { kind: 'pending' }
  | { kind: 'success'; result: SearchResult }
  | { kind: 'error'; message: string };

/** Reads `q` and `page` from the address; paging keeps them there, so results can be shared and reloaded. */
function readUrl(): { q: string; page: number } {
  const params = new URLSearchParams(location.search);
  const page = Number.parseInt(params.get('page') ?? '1', 10);
  return { q: (params.get('q') ?? '').trim(), page: Number.isFinite(page) && page > 0 ? page : 1 };
}

/** The results page: idle (no query), pending, success (with paging) or a clear error state. */
export default function SearchResults({ localeCode, siteSlug, messages: m }: Props) {
  const [{ q, page }, setParams] = useState(() => (typeof location === 'undefined' ? { q: '', page: 1 } : readUrl()));
  const [state, setState] = useState<State>({ kind: 'idle' });

  const run = useCallback(() => {
    if (!q) {
      setState({ kind: 'idle' });
      return undefined;
    }
    const controller = new AbortController();
    setState({ kind: 'pending' });
    callSearch('search', { localeCode, siteSlug, query: q, page }, controller.signal)
      .then((result) => setState({ kind: 'success', result }))
      .catch((err: Error) => { if (err.name !== 'AbortError') setState({ kind: 'error', message: err.message }); });
    return controller;
  }, [q, page, localeCode, siteSlug]);

  useEffect(() => {
    const controller = run();
    return () => controller?.abort();
  }, [run]);

  useEffect(() => {
    const onPop = () => setParams(readUrl());
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  const go = (next: number) => {
    const url = new URL(location.href);
    url.searchParams.set('page', String(next));
    history.pushState(null, '', url);
    setParams({ q, page: next });
    document.getElementById('search-results-heading')?.focus();
  };

  if (state.kind === 'idle') return <p className="search-results__prompt">{m['search.prompt']}</p>;
  const pages = state.kind === 'success' ? Math.max(1, Math.ceil(state.result.total / PAGE_SIZE)) : 1;
  return (
    <section className="search-results" aria-busy={state.kind === 'pending'}>
      <h2 id="search-results-heading" tabIndex={-1}>{fill(m['search.resultsFor'], { query: q })}</h2>
      {state.kind === 'pending' && <p className="search-results__status" role="status"><Spinner /> {m['search.loading']}</p>}
      {state.kind === 'error' && (
        <div className="search-results__error">
          <FlashMessage type="error" static message={m['search.error']} typeLabel={m['flash.error']} dismissLabel={m['flash.dismiss']} />
          <button type="button" className="btn btn--secondary" onClick={() => run()}>{m['search.retry']}</button>
        </div>
      )}
      {state.kind === 'success' && state.result.total === 0 && <p className="search-results__empty" role="status">{fill(m['search.empty'], { query: q })}</p>}
      {state.kind === 'success' && state.result.total > 0 && (
        <>
          <p className="search-results__count" role="status">{fill(m['search.count'], { count: state.result.total })}</p>
          <ol className="search-results__list" start={(page - 1) * PAGE_SIZE + 1}>
            {state.result.records.map((r) => (
              <li key={r.url} className="search-result">
                <h3 className="search-result__title"><a href={r.url}>{r.title}</a></h3>
                <p className="search-result__url">{r.url}</p>
                <p className="search-result__text">
                  {parseMarked(r.description).map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
                </p>
              </li>
            ))}
          </ol>
          {pages > 1 && (
            <nav className="search-results__pages" aria-label={m['search.pagination']}>
              <button type="button" className="btn btn--secondary" disabled={page <= 1} onClick={() => go(page - 1)}>{m['search.previous']}</button>
              <span>{fill(m['search.pageOf'], { page, pages })}</span>
              <button type="button" className="btn btn--secondary" disabled={page >= pages} onClick={() => go(page + 1)}>{m['search.next']}</button>
            </nav>
          )}
        </>
      )}
    </section>
  );
}
