import { TICKET_SORT_FIELDS, TICKET_STATUSES, type SortDirection, type TicketQuery, type TicketSortField, type TicketStatus, type TicketType } from '../../lib/ticketing/types.ts';

/**
 * View models of the ticket screens, pure: the list's state in the page address (so a filtered,
 * sorted page can be linked, reloaded and gone back to), labels' locale keys, dates in the page's
 * format (German as de-CH, spec §9).
 */

export interface ListState {
  status: TicketStatus[];
  search: string;
  sort: TicketSortField;
  direction: SortDirection;
  after: string | null;
  before: string | null;
}

/** The statuses of a ticket that still needs work (every status but closed): the list's "all open" filter and the dashboard's figure. */
export const OPEN_STATUSES: readonly TicketStatus[] = TICKET_STATUSES.filter((s) => s !== 'CLOSED');
/** The status filter's value for OPEN_STATUSES. */
export const OPEN_FILTER = 'open';

/** The status filter's value of a list state: one status, OPEN_FILTER for the open ones, '' for none. */
export function statusFilterValue(status: readonly TicketStatus[]): string {
  if (status.length === OPEN_STATUSES.length && OPEN_STATUSES.every((s) => status.includes(s))) return OPEN_FILTER;
  return status[0] ?? '';
}

/** The statuses a status filter value selects (see statusFilterValue). */
export function statusesOfFilter(value: string): TicketStatus[] {
  if (value === OPEN_FILTER) return [...OPEN_STATUSES];
  return (TICKET_STATUSES as readonly string[]).includes(value) ? [value as TicketStatus] : [];
}

export const DEFAULT_LIST_STATE: ListState = { status: [], search: '', sort: 'CREATED_ON', direction: 'DESC', after: null, before: null };
export const PAGE_SIZE = 20;
const CURSOR = /^[A-Za-z0-9+/=_-]{1,200}$/;

/** The list state of a query string; anything unknown falls back to the default. */
export function parseListState(search: string): ListState {
  const q = new URLSearchParams(search);
  const status = (q.get('status') ?? '').split(',').filter((s): s is TicketStatus => (TICKET_STATUSES as readonly string[]).includes(s));
  const sort = q.get('sort') ?? '';
  const direction = q.get('dir');
  const cursor = (name: string) => { const c = q.get(name); return c && CURSOR.test(c) ? c : null; };
  const after = cursor('after');
  return {
    status: [...new Set(status)],
    search: (q.get('q') ?? '').slice(0, 200),
    sort: (TICKET_SORT_FIELDS as readonly string[]).includes(sort) ? (sort as TicketSortField) : DEFAULT_LIST_STATE.sort,
    direction: direction === 'ASC' || direction === 'DESC' ? direction : DEFAULT_LIST_STATE.direction,
    after,
    before: after ? null : cursor('before'),
  };
}

/** The query string of a list state (defaults left out), e.g. `?status=NEW&q=crimp`. */
export function listStateQuery(state: ListState): string {
  const q = new URLSearchParams();
  if (state.status.length) q.set('status', state.status.join(','));
  if (state.search.trim()) q.set('q', state.search.trim());
  if (state.sort !== DEFAULT_LIST_STATE.sort || state.direction !== DEFAULT_LIST_STATE.direction) {
    q.set('sort', state.sort);
    q.set('dir', state.direction);
  }
  if (state.after) q.set('after', state.after);
  else if (state.before) q.set('before', state.before);
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function ticketQuery(state: ListState): TicketQuery {
  return {
    status: state.status,
    search: state.search,
    sort: { field: state.sort, direction: state.direction },
    pageSize: PAGE_SIZE,
    ...(state.after ? { after: state.after } : state.before ? { before: state.before } : {}),
  };
}

/** Clicking a column header: the same column flips its direction; another starts descending for dates, ascending otherwise. */
export function nextSort(state: ListState, field: TicketSortField): ListState {
  const direction: SortDirection = state.sort === field
    ? (state.direction === 'ASC' ? 'DESC' : 'ASC')
    : (field === 'CREATED_ON' || field === 'UPDATED_ON' ? 'DESC' : 'ASC');
  return { ...state, sort: field, direction, after: null, before: null };
}

/** `aria-sort` of a column header. */
export function ariaSort(state: ListState, field: TicketSortField): 'ascending' | 'descending' | 'none' {
  if (state.sort !== field) return 'none';
  return state.direction === 'ASC' ? 'ascending' : 'descending';
}

export const statusKey = (s: TicketStatus | null) => `tickets.status.${s ?? 'unknown'}` as const;
export const typeKey = (t: TicketType | null) => `tickets.type.${t ?? 'unknown'}` as const;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** A date (and time when asked) in the page's format: `formatLocale` gives de-CH for German. */
export function formatDate(iso: string | null | undefined, locale: string, withTime = false): string {
  if (!iso) return '';
  const key = `${locale}|${withTime}`;
  let f = dateFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' });
    dateFormats.set(key, f);
  }
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : f.format(d);
}
