import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { CONTRACT_STATES, type ContractState, type Location, type Machine, type MachineQuery } from '../../lib/ticketing/types.ts';
import { newTicketForMachine, ticketPath } from '../customer-area/paths.ts';
import { detailOf, Gate, Loading, ServiceError, SHARED_KEYS, tr, useServiceSession, type ServiceIslandProps } from '../customer-area/island-kit.tsx';
import { ticketing } from '../tickets/api-client.ts';
import { STATUS_KEYS } from '../tickets/TicketList.tsx';
import { formatDate, statusKey } from '../tickets/view.ts';

export const STATE_KEYS = CONTRACT_STATES.map((s) => `inventory.state.${s}` as const);

export const MESSAGE_KEYS = [
  ...SHARED_KEYS, ...STATUS_KEYS, ...STATE_KEYS,
  'inventory.service', 'inventory.filters', 'inventory.search', 'inventory.location', 'inventory.allLocations', 'inventory.warranty',
  'inventory.serviceContract', 'inventory.any', 'inventory.openTickets', 'inventory.withOpen', 'inventory.withoutOpen', 'inventory.apply',
  'inventory.count', 'inventory.empty', 'inventory.machine', 'inventory.model', 'inventory.serialNumber', 'inventory.installedOn',
  'inventory.softwareVersion', 'inventory.until', 'inventory.noOpenTickets', 'inventory.createTicket', 'inventory.caption',
] as const;

type Key = (typeof MESSAGE_KEYS)[number];
interface Props extends ServiceIslandProps<Key> {
  /** `cards` (the inventory) or `table` (the older list view, /inventory/old). */
  view: 'cards' | 'table';
}

type Data = { kind: 'loading' } | { kind: 'ready'; machines: Machine[]; locations: Location[] } | { kind: 'failed'; detail: string };

const stateOf = (v: FormDataEntryValue | null): ContractState | undefined => ((CONTRACT_STATES as readonly string[]).includes(String(v)) ? (String(v) as ContractState) : undefined);

/** /{locale}/mykomax/inventory (cards) and /inventory/old (a plain table): the organisation's machines with filters and search. */
export function Inventory({ messages: m, locale, paths, support, view }: Props) {
  const session = useServiceSession('inventory');
  const id = useId();
  const [query, setQuery] = useState<MachineQuery>({});
  const [data, setData] = useState<Data>({ kind: 'loading' });
  const [locations, setLocations] = useState<Location[]>([]);
  const [attempt, setAttempt] = useState(0);
  const ready = session.kind === 'ready';

  useEffect(() => {
    if (!ready) return;
    let live = true;
    setData({ kind: 'loading' });
    ticketing.machines(query).then((r) => {
      if (!live) return;
      setData({ kind: 'ready', machines: r.machines, locations: r.locations });
      setLocations(r.locations);
    }, (err: unknown) => { if (live) setData({ kind: 'failed', detail: detailOf(err) }); });
    return () => { live = false; };
  }, [ready, query, attempt]);

  if (session.kind !== 'ready') return <Gate state={session} m={m} service={m['inventory.service']!} dashboard={paths.dashboard} support={support} />;

  const onFilter = (e: SubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const open = String(f.get('open') ?? '');
    setQuery({
      search: String(f.get('q') ?? ''),
      locationId: String(f.get('location') ?? '') || undefined,
      warranty: stateOf(f.get('warranty')),
      serviceContract: stateOf(f.get('contract')),
      hasOpenTickets: open === 'yes' ? true : open === 'no' ? false : undefined,
    });
  };
  const stateOptions = CONTRACT_STATES.map((s) => <option key={s} value={s}>{m[`inventory.state.${s}`]}</option>);
  const contractText = (state: ContractState, endsOn: string | null, name?: string | null) =>
    [name, m[`inventory.state.${state}`], endsOn ? tr(m, 'inventory.until', { date: formatDate(endsOn, locale) }) : ''].filter(Boolean).join(' · ');

  return (
    <div className="inventory">
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

      <p className="services__count" role="status">{data.kind === 'ready' ? tr(m, 'inventory.count', { count: data.machines.length }) : ''}</p>
      {data.kind === 'loading' && <Loading m={m} />}
      {data.kind === 'failed' && <ServiceError m={m} support={support} detail={data.detail} retry={() => setAttempt((n) => n + 1)} />}
      {data.kind === 'ready' && data.machines.length === 0 && <p className="services__empty">{m['inventory.empty']}</p>}
      {data.kind === 'ready' && data.machines.length > 0 && view === 'cards' && (
        <ul className="inventory__cards">
          {data.machines.map((x) => (
            <li key={x.id} className="inventory__card">
              <article aria-labelledby={`${id}-${x.id}`}>
                <h2 id={`${id}-${x.id}`} className="inventory__name">{x.name}</h2>
                <dl className="inventory__facts">
                  <div><dt>{m['inventory.model']}</dt><dd>{x.model}</dd></div>
                  <div><dt>{m['inventory.serialNumber']}</dt><dd>{x.serialNumber}</dd></div>
                  <div><dt>{m['inventory.location']}</dt><dd>{x.location.name}</dd></div>
                  {x.installedOn && <div><dt>{m['inventory.installedOn']}</dt><dd>{formatDate(x.installedOn, locale)}</dd></div>}
                  <div><dt>{m['inventory.softwareVersion']}</dt><dd>{x.softwareVersion}</dd></div>
                  <div><dt>{m['inventory.warranty']}</dt><dd>{contractText(x.warranty.state, x.warranty.endsOn)}</dd></div>
                  <div><dt>{m['inventory.serviceContract']}</dt><dd>{contractText(x.serviceContract.state, x.serviceContract.endsOn, x.serviceContract.name)}</dd></div>
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
      )}
      {data.kind === 'ready' && data.machines.length > 0 && view === 'table' && (
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
              {data.machines.map((x) => (
                <tr key={x.id}>
                  <th scope="row">{x.name}</th>
                  <td>{x.model}</td>
                  <td>{x.serialNumber}</td>
                  <td>{x.location.name}</td>
                  <td>{formatDate(x.installedOn, locale)}</td>
                  <td>{contractText(x.warranty.state, x.warranty.endsOn)}</td>
                  <td>{contractText(x.serviceContract.state, x.serviceContract.endsOn)}</td>
                  <td>{x.openTicketCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
