import { SORT_KEYS, type SortKey } from '../../lib/identity/admin-map.ts';
import type { UserRowView } from './api-answers.ts';
import { ariaSort, type ListState, type UserAdminMessages } from './view.ts';

const COLUMNS: { key: SortKey | 'role' | 'application'; label: `userAdmin.col.${string}` }[] = [
  { key: 'name', label: 'userAdmin.col.name' }, { key: 'email', label: 'userAdmin.col.email' }, { key: 'organisation', label: 'userAdmin.col.organisation' },
  { key: 'role', label: 'userAdmin.col.role' }, { key: 'status', label: 'userAdmin.col.status' }, { key: 'application', label: 'userAdmin.col.application' },
  { key: 'country', label: 'userAdmin.col.country' }, { key: 'city', label: 'userAdmin.col.city' },
];
const isSortKey = (k: string): k is SortKey => (SORT_KEYS as readonly string[]).includes(k);

/** UserAdminList's table: one page of users, the sortable columns as buttons (their state in aria-sort). */
export function UserTable({ m, users, sort, listHref, countryName, onSort }: {
  m: UserAdminMessages; users: UserRowView[]; sort: ListState['sort']; listHref: string; countryName: (code: string) => string; onSort: (key: SortKey) => void;
}) {
  return (
    <table className="user-admin__table">
      <caption className="visually-hidden">{m['userAdmin.list.label']}</caption>
      <thead>
        <tr>
          {COLUMNS.map((c) => {
            const key = c.key;
            if (!isSortKey(key)) return <th key={key} scope="col">{m[c.label as keyof UserAdminMessages]}</th>;
            return (
              <th key={key} scope="col" aria-sort={ariaSort(sort, key)}>
                <button type="button" className="user-admin__sort" onClick={() => onSort(key)}>
                  {m[c.label as keyof UserAdminMessages]}
                  <span className="visually-hidden"> {m['userAdmin.sort.by']}</span>
                  <span aria-hidden="true" className="user-admin__sort-mark">{ariaSort(sort, key) === 'ascending' ? '▲' : ariaSort(sort, key) === 'descending' ? '▼' : '↕'}</span>
                </button>
              </th>
            );
          })}
        </tr>
      </thead>
      <tbody>
        {users.length ? users.map((u) => (
          <tr key={u.id}>
            <th scope="row" data-label={m['userAdmin.col.name']}><a href={`${listHref}/${encodeURIComponent(u.id)}`}>{u.name || u.email}</a></th>
            <td data-label={m['userAdmin.col.email']}>{u.email}</td>
            <td data-label={m['userAdmin.col.organisation']}>{u.organisations.map((o) => o.name).join(', ') || m['userAdmin.list.none']}</td>
            <td data-label={m['userAdmin.col.role']}>{m[`userAdmin.role.${u.role}`]}</td>
            <td data-label={m['userAdmin.col.status']}>{u.status ? <span className={`status-badge status-badge--${u.status}`}>{m[`userAdmin.status.${u.status}`]}</span> : m['userAdmin.status.none']}</td>
            <td data-label={m['userAdmin.col.application']}>{u.application ? m[`userAdmin.app.${u.application}`] : m['userAdmin.list.none']}</td>
            <td data-label={m['userAdmin.col.country']}>{countryName(u.country)}</td>
            <td data-label={m['userAdmin.col.city']}>{u.city}</td>
          </tr>
        )) : (
          <tr><td colSpan={COLUMNS.length}>{m['userAdmin.list.empty']}</td></tr>
        )}
      </tbody>
    </table>
  );
}
