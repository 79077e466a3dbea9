import { useCallback, useEffect, useId, useState, type SubmitEvent } from 'react';
import type { Page, TicketSummary } from '../../lib/ticketing/types.ts';
import { TICKET_STATUSES } from '../../lib/ticketing/types.ts';
import { detailOf, Gate, Loading, ServiceError, SHARED_KEYS, tr, useServiceSession, type ServiceIslandProps } from '../customer-area/island-kit.tsx';
import { ticketing } from './api-client.ts';
import { TicketTable } from './TicketTable.tsx';
import { DEFAULT_LIST_STATE, listStateQuery, nextSort, OPEN_FILTER, parseListState, statusesOfFilter, statusFilterValue, statusKey, ticketQuery, type ListState } from './view.ts';

export const STATUS_KEYS = [...TICKET_STATUSES.map((s) => `tickets.status.${s}` as const), 'tickets.status.unknown'] as const;
export const TYPE_KEYS = ['TECHNICAL_SUPPORT', 'REPAIR', 'SPARE_PARTS', 'MAINTENANCE', 'SOFTWARE', 'TRAINING', 'unknown'].map((t) => `tickets.type.${t}` as const);

export const MESSAGE_KEYS = [
  ...SHARED_KEYS, ...STATUS_KEYS, ...TYPE_KEYS,
  'tickets.service', 'tickets.newTicket', 'tickets.list.filterLabel', 'tickets.list.status', 'tickets.list.allStatuses', 'tickets.list.openStatuses', 'tickets.list.search',
  'tickets.list.apply', 'tickets.list.caption', 'tickets.list.count', 'tickets.list.empty', 'tickets.list.emptyAll', 'tickets.list.previous',
  'tickets.list.next', 'tickets.list.pagination', 'tickets.list.loading', 'tickets.list.sortBy',
  'tickets.col.id', 'tickets.col.subject', 'tickets.col.type', 'tickets.col.machine', 'tickets.col.status', 'tickets.col.createdOn',
] as const;

type Props = ServiceIslandProps<Key>;
/** The locale keys this island shows (its messages are typed by them). */
export type TicketListKey = (typeof MESSAGE_KEYS)[number];
type Key = TicketListKey;

type Data = { kind: 'loading' } | { kind: 'ready'; page: Page<TicketSummary> } | { kind: 'failed'; detail: string };


/** /{locale}/mykomax/tickets/list: the organisation's tickets with status filter, search, sort and cursor paging (state in the address). */
export function TicketList({ messages: m, locale, paths, support }: Props) {
  const session = useServiceSession('tickets');
  const id = useId();
  const [state, setState] = useState<ListState>(DEFAULT_LIST_STATE);
  const [search, setSearch] = useState('');
  const [data, setData] = useState<Data>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const read = () => { const s = parseListState(location.search); setState(s); setSearch(s.search); };
    read();
    addEventListener('popstate', read);
    return () => removeEventListener('popstate', read);
  }, []);

  const ready = session.kind === 'ready';
  useEffect(() => {
    if (!ready) return;
    let live = true;
    setData({ kind: 'loading' });
    ticketing.tickets(ticketQuery(state)).then(
      (page) => { if (live) setData({ kind: 'ready', page }); },
      (err: unknown) => { if (live) setData({ kind: 'failed', detail: detailOf(err) }); },
    );
    return () => { live = false; };
  }, [ready, state, attempt]);

  const go = useCallback((next: ListState) => {
    history.pushState(null, '', `${location.pathname}${listStateQuery(next)}`);
    setState(next);
  }, []);

  const gate = <Gate state={session} m={m} service={m['tickets.service']!} dashboard={paths.dashboard} support={support} />;
  if (session.kind !== 'ready') return gate;

  const onFilter = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    go({ ...state, status: statusesOfFilter(String(form.get('status') ?? '')), search, after: null, before: null });
  };
  const filtered = state.status.length > 0 || state.search !== '';

  return (
    <div className="tickets">
      <div className="services__toolbar">
        <form className="services__filters" role="search" aria-label={m['tickets.list.filterLabel']} onSubmit={onFilter}>
          <div className="field">
            <label htmlFor={`${id}-status`}>{m['tickets.list.status']}</label>
            <select id={`${id}-status`} name="status" key={state.status.join(',')} defaultValue={statusFilterValue(state.status)}>
              <option value="">{m['tickets.list.allStatuses']}</option>
              <option value={OPEN_FILTER}>{m['tickets.list.openStatuses']}</option>
              {TICKET_STATUSES.map((s) => <option key={s} value={s}>{m[statusKey(s)]}</option>)}
            </select>
          </div>
          <div className="field services__search">
            <label htmlFor={`${id}-q`}>{m['tickets.list.search']}</label>
            <input id={`${id}-q`} type="search" name="q" value={search} maxLength={200} onChange={(e) => setSearch(e.target.value)} />
          </div>
          <button type="submit" className="btn btn--secondary">{m['tickets.list.apply']}</button>
        </form>
        <a className="btn" href={paths.newTicket}>{m['tickets.newTicket']}</a>
      </div>

      <p className="services__count" role="status">
        {data.kind === 'ready' ? tr(m, 'tickets.list.count', { count: data.page.totalCount }) : data.kind === 'loading' ? m['tickets.list.loading'] : ''}
      </p>

      {data.kind === 'failed' && <ServiceError m={m} support={support} detail={data.detail} retry={() => setAttempt((n) => n + 1)} />}
      {data.kind === 'loading' && <Loading m={m} label={m['tickets.list.loading']} />}
      {data.kind === 'ready' && data.page.items.length === 0 && (
        <div className="services__empty">
          <p>{filtered ? m['tickets.list.empty'] : m['tickets.list.emptyAll']}</p>
          <a className="btn" href={paths.newTicket}>{m['tickets.newTicket']}</a>
        </div>
      )}
      {data.kind === 'ready' && data.page.items.length > 0 && (
        <>
          <TicketTable id={id} m={m} locale={locale} paths={paths} items={data.page.items} state={state} onSort={(field) => go(nextSort(state, field))} />
          {(data.page.hasPreviousPage || data.page.hasNextPage) && (
            <nav className="services__pager" aria-label={m['tickets.list.pagination']}>
              <button type="button" className="btn btn--secondary" disabled={!data.page.hasPreviousPage || !data.page.startCursor}
                onClick={() => go({ ...state, before: data.page.startCursor, after: null })}>{m['tickets.list.previous']}</button>
              <button type="button" className="btn btn--secondary" disabled={!data.page.hasNextPage || !data.page.endCursor}
                onClick={() => go({ ...state, after: data.page.endCursor, before: null })}>{m['tickets.list.next']}</button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
