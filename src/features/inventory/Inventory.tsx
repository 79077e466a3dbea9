import { useEffect, useId, useState, type SubmitEvent } from 'react';
import { CONTRACT_STATES, type ContractState, type Location, type Machine, type MachineQuery } from '../../lib/ticketing/types.ts';
import { detailOf, Gate, Loading, ServiceError, SHARED_KEYS, tr, useServiceSession, type ServiceIslandProps } from '../customer-area/island-kit.tsx';
import { ticketing } from '../tickets/api-client.ts';
import { STATUS_KEYS } from '../tickets/TicketList.tsx';
import { InventoryFilters, MachineCards, MachineTable } from './InventoryViews.tsx';

export const STATE_KEYS = CONTRACT_STATES.map((s) => `inventory.state.${s}` as const);

export const MESSAGE_KEYS = [
  ...SHARED_KEYS, ...STATUS_KEYS, ...STATE_KEYS,
  'inventory.service', 'inventory.filters', 'inventory.search', 'inventory.location', 'inventory.allLocations', 'inventory.warranty',
  'inventory.serviceContract', 'inventory.any', 'inventory.openTickets', 'inventory.withOpen', 'inventory.withoutOpen', 'inventory.apply',
  'inventory.count', 'inventory.empty', 'inventory.machine', 'inventory.model', 'inventory.serialNumber', 'inventory.installedOn',
  'inventory.softwareVersion', 'inventory.until', 'inventory.noOpenTickets', 'inventory.createTicket', 'inventory.caption',
] as const;

export type InventoryKey = (typeof MESSAGE_KEYS)[number];
type Key = InventoryKey;
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

  return (
    <div className="inventory">
      <InventoryFilters id={id} m={m} locations={locations} onFilter={onFilter} />

      <p className="services__count" role="status">{data.kind === 'ready' ? tr(m, 'inventory.count', { count: data.machines.length }) : ''}</p>
      {data.kind === 'loading' && <Loading m={m} />}
      {data.kind === 'failed' && <ServiceError m={m} support={support} detail={data.detail} retry={() => setAttempt((n) => n + 1)} />}
      {data.kind === 'ready' && data.machines.length === 0 && <p className="services__empty">{m['inventory.empty']}</p>}
      {data.kind === 'ready' && data.machines.length > 0 && view === 'cards' && (
        <MachineCards id={id} m={m} locale={locale} paths={paths} machines={data.machines} />
      )}
      {data.kind === 'ready' && data.machines.length > 0 && view === 'table' && (
        <MachineTable id={id} m={m} locale={locale} machines={data.machines} />
      )}
    </div>
  );
}
