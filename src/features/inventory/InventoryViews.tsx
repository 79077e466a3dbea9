import type { SubmitEvent } from 'react';
import type { ContractState, Location, Machine } from '../../lib/ticketing/types.ts';
import { CONTRACT_STATES } from '../../lib/ticketing/types.ts';
import { newTicketForMachine, ticketPath, type ServicePaths } from '../customer-area/paths.ts';
import { tr, type Messages as IslandMessages } from '../customer-area/island-kit.tsx';
import type { InventoryKey } from './Inventory.tsx';
import { formatDate, statusKey } from '../tickets/view.ts';

/*
 * The parts of the Inventory island: its filter form and the two views of the machines (cards, and
 * the older table of /inventory/old).
 */

type Messages = IslandMessages<InventoryKey>;

/** A warranty's or service contract's state, with its name and end date when it has them. */
function contractText(m: Messages, locale: string, state: ContractState, endsOn: string | null, name?: string | null): string {
  return [name, m[`inventory.state.${state}`], endsOn ? tr(m, 'inventory.until', { date: formatDate(endsOn, locale) }) : ''].filter(Boolean).join(' · ');
}

/** The filters (search, location, warranty, contract, open tickets): submitted as a whole. */
export function InventoryFilters({ id, m, locations, onFilter }: { id: string; m: Messages; locations: Location[]; onFilter: (e: SubmitEvent<HTMLFormElement>) => void }) {
  const stateOptions = CONTRACT_STATES.map((s) => <option key={s} value={s}>{m[`inventory.state.${s}`]}</option>);
  return (
    <form className="services__filters services__filters--wide" role="search" aria-label={m['inventory.filters']} onSubmit={onFilter}>
      <div className="field services__search">
        <label htmlFor={`${id}-q`}>{m['inventory.search']}</label>
        <input id={`${id}-q`} type="search" name="q" maxLength={200} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-location`}>{m['inventory.location']}</label>
        <select id={`${id}-location`} name="location" defaultValue="">
          <option value="">{m['inventory.allLocations']}</option>
          {locations.map((l) => <option key={l.id} value={l.id}>{l.name}</option>)}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-warranty`}>{m['inventory.warranty']}</label>
        <select id={`${id}-warranty`} name="warranty" defaultValue=""><option value="">{m['inventory.any']}</option>{stateOptions}</select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-contract`}>{m['inventory.serviceContract']}</label>
        <select id={`${id}-contract`} name="contract" defaultValue=""><option value="">{m['inventory.any']}</option>{stateOptions}</select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-open`}>{m['inventory.openTickets']}</label>
        <select id={`${id}-open`} name="open" defaultValue="">
          <option value="">{m['inventory.any']}</option>
          <option value="yes">{m['inventory.withOpen']}</option>
          <option value="no">{m['inventory.withoutOpen']}</option>
        </select>
      </div>
      <button type="submit" className="btn btn--secondary">{m['inventory.apply']}</button>
    </form>
  );
}

export function MachineCards({ id, m, locale, paths, machines }: { id: string; m: Messages; locale: string; paths: ServicePaths; machines: Machine[] }) {
  return (
    <ul className="inventory__cards">
      {machines.map((x) => (
        <li key={x.id} className="inventory__card">
          <article aria-labelledby={`${id}-${x.id}`}>
            <h2 id={`${id}-${x.id}`} className="inventory__name">{x.name}</h2>
            <dl className="inventory__facts">
              <div><dt>{m['inventory.model']}</dt><dd>{x.model}</dd></div>
              <div><dt>{m['inventory.serialNumber']}</dt><dd>{x.serialNumber}</dd></div>
              <div><dt>{m['inventory.location']}</dt><dd>{x.location.name}</dd></div>
              {x.installedOn && <div><dt>{m['inventory.installedOn']}</dt><dd>{formatDate(x.installedOn, locale)}</dd></div>}
              <div><dt>{m['inventory.softwareVersion']}</dt><dd>{x.softwareVersion}</dd></div>
              <div><dt>{m['inventory.warranty']}</dt><dd>{contractText(m, locale, x.warranty.state, x.warranty.endsOn)}</dd></div>
              <div><dt>{m['inventory.serviceContract']}</dt><dd>{contractText(m, locale, x.serviceContract.state, x.serviceContract.endsOn, x.serviceContract.name)}</dd></div>
            </dl>
            <h3 className="inventory__open-title">{m['inventory.openTickets']} ({x.openTicketCount})</h3>
            {x.openTickets.length === 0 ? <p className="services__muted">{m['inventory.noOpenTickets']}</p> : (
              <ul className="inventory__open">
                {x.openTickets.map((t) => (
                  <li key={t.id}><a href={ticketPath(paths, t.id)}>{t.id}</a> {t.subject} <span className={`status status--${(t.status ?? 'unknown').toLowerCase()}`}>{m[statusKey(t.status)]}</span></li>
                ))}
              </ul>
            )}
            <a className="btn btn--secondary" href={newTicketForMachine(paths, x.id)}>
              {m['inventory.createTicket']}<span className="visually-hidden">: {x.name}</span>
            </a>
          </article>
        </li>
      ))}
    </ul>
  );
}

export function MachineTable({ id, m, locale, machines }: { id: string; m: Messages; locale: string; machines: Machine[] }) {
  return (
    <div className="services__table-wrap" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table className="services__table">
        <caption id={`${id}-caption`} className="visually-hidden">{m['inventory.caption']}</caption>
        <thead>
          <tr>
            {(['inventory.machine', 'inventory.model', 'inventory.serialNumber', 'inventory.location', 'inventory.installedOn', 'inventory.warranty', 'inventory.serviceContract', 'inventory.openTickets'] as const)
              .map((k) => <th key={k} scope="col">{m[k]}</th>)}
          </tr>
        </thead>
        <tbody>
          {machines.map((x) => (
            <tr key={x.id}>
              <th scope="row">{x.name}</th>
              <td>{x.model}</td>
              <td>{x.serialNumber}</td>
              <td>{x.location.name}</td>
              <td>{formatDate(x.installedOn, locale)}</td>
              <td>{contractText(m, locale, x.warranty.state, x.warranty.endsOn)}</td>
              <td>{contractText(m, locale, x.serviceContract.state, x.serviceContract.endsOn)}</td>
              <td>{x.openTicketCount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
