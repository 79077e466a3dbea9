import type { TicketSortField, TicketSummary } from '../../lib/ticketing/types.ts';
import { ticketPath, type ServicePaths } from '../customer-area/paths.ts';
import { tr, type Messages } from '../customer-area/island-kit.tsx';
import type { TicketListKey } from './TicketList.tsx';
import { ariaSort, formatDate, statusKey, typeKey, type ListState } from './view.ts';

const COLUMNS: { key: TicketListKey; sort?: TicketSortField }[] = [
  { key: 'tickets.col.id' }, { key: 'tickets.col.subject', sort: 'SUBJECT' }, { key: 'tickets.col.type' }, { key: 'tickets.col.machine' },
  { key: 'tickets.col.status', sort: 'STATUS' }, { key: 'tickets.col.createdOn', sort: 'CREATED_ON' },
];

/** TicketList's table: one page of tickets, the sortable columns as buttons (their state in aria-sort). */
export function TicketTable({ id, m, locale, paths, items, state, onSort }: {
  id: string; m: Messages<TicketListKey>; locale: string; paths: Pick<ServicePaths, 'ticketBase'>; items: TicketSummary[]; state: ListState; onSort: (field: TicketSortField) => void;
}) {
  return (
    <div className="services__table-wrap" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table className="services__table services__table--stack">
        <caption id={`${id}-caption`} className="visually-hidden">{m['tickets.list.caption']}</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c.key} scope="col" className={c.sort ? 'services__sortable' : undefined} aria-sort={c.sort ? ariaSort(state, c.sort) : undefined}>
                {c.sort
                  ? <button type="button" className="services__sort" onClick={() => onSort(c.sort!)}>
                      {m[c.key]}<span className="visually-hidden"> ({tr(m, 'tickets.list.sortBy', { column: m[c.key] ?? '' })})</span>
                      <span aria-hidden="true" className="services__sort-icon">{state.sort === c.sort ? (state.direction === 'ASC' ? '▲' : '▼') : '↕'}</span>
                    </button>
                  : m[c.key]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((t) => (
            <tr key={t.id}>
              <th scope="row" className="services__cell--id"><a href={ticketPath(paths, t.id)}>{t.id}</a></th>
              <td className="services__cell--subject">{t.subject}</td>
              <td data-label={m['tickets.col.type']}>{m[typeKey(t.type)]}</td>
              <td data-label={m['tickets.col.machine']}>{t.machine}{t.serialNumber && <span className="services__muted"> · {t.serialNumber}</span>}</td>
              <td className="services__cell--status"><span className={`status status--${(t.status ?? 'unknown').toLowerCase()}`}>{m[statusKey(t.status)]}</span></td>
              <td data-label={m['tickets.col.createdOn']}><time dateTime={t.createdOn}>{formatDate(t.createdOn, locale)}</time></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
