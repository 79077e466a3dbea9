import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { apiFetch, ensureSession } from '../../lib/identity/session.ts';
import { fill } from '../../i18n/island.ts';
import { ticketing } from '../tickets/api-client.ts';
import { UserListSchema } from '../user-admin/api-answers.ts';
import { computeTiles, type CustomerAreaSettings, type TilePaths } from './tiles.ts';
import { SERVICES } from '../customer-area/roles.ts';
import { tileViews, type DashboardMessages, type TileView } from './view.ts';
import { loadWork, workFigures, workHref, type WorkFigure, type WorkSources, type WorkValues } from './work.ts';

export { MESSAGE_KEYS } from './view.ts';

interface Props {
  settings: CustomerAreaSettings;
  paths: TilePaths;
  /** Set when the content hub's settings could not be loaded (shown as a dashboard error with its detail). */
  settingsError: string | null;
  messages: DashboardMessages;
}

type State = { kind: 'loading' } | { kind: 'ready'; name: string; tiles: TileView[]; figures: WorkFigure[] } | { kind: 'failed'; detail: string };

/** The counts behind the work figures, through the user's token (the tickets proxy, the user administration API). */
const SOURCES: WorkSources = {
  ticketCount: async (statuses) => (await ticketing.tickets({ status: [...statuses], pageSize: 1 })).totalCount,
  machineCount: async () => (await ticketing.machines()).totalCount,
  invitationCount: async () => {
    const res = await apiFetch('/api/user-admin/users?status=invited&pageSize=1');
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return v.parse(UserListSchema, await res.json()).totalCount;
  },
};

/**
 * The myKomax dashboard (spec customer-area §2–§4, issue 29 item 16): the signed-in user's name,
 * the work to do (open tickets, tickets waiting for the customer, machines, pending invitations:
 * each only when the roles open its service) and one card per service with its status from the
 * user's roles. The server renders skeletons only (no personal data); the session comes from
 * `ensureSession()`. The ready content replaces the skeleton as new elements, so nothing the
 * visitor already saw moves (no layout shift).
 */
export function Dashboard({ settings, paths, settingsError, messages: m }: Props) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [work, setWork] = useState<WorkValues>({});
  useEffect(() => {
    let live = true;
    ensureSession().then(({ user }) => {
      if (!live) return;
      const figures = workFigures(user.roles);
      setState({ kind: 'ready', name: user.fullName || user.email, tiles: tileViews(computeTiles(user.roles, settings, paths), m), figures });
      void loadWork(figures, SOURCES).then((values) => { if (live) setWork(values); });
    }, (err: unknown) => {
      if (live) setState({ kind: 'failed', detail: err instanceof Error ? err.message : String(err) });
    });
    return () => { live = false; };
  }, [settings, paths, m]);
  // The tiles arrive after the page loaded: a link to one of them (the user menu's `#direct`) scrolls once they are there.
  useEffect(() => {
    if (state.kind === 'ready' && location.hash.length > 1) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
  }, [state.kind]);

  if (state.kind === 'failed') return <DashboardError detail={state.detail} m={m} />;
  return (
    <div className="dashboard" aria-busy={state.kind === 'loading' || undefined}>
      <p className="dashboard__welcome">{state.kind === 'ready' ? fill(m['dashboard.welcome'], { name: state.name }) : <span className="dashboard__skeleton-text">{m['dashboard.loading']}</span>}</p>
      {state.kind === 'ready'
        ? (
          <div key="ready">
            {settingsError && <DashboardError detail={settingsError} m={m} />}
            {state.figures.length > 0 && <Work figures={state.figures} values={work} paths={paths} m={m} />}
            <ul className="dashboard__tiles" aria-label={m['dashboard.servicesLabel']}>
              {state.tiles.map((tile) => <TileCard key={tile.service} tile={tile} />)}
            </ul>
          </div>
        )
        : (
          <div key="loading" aria-hidden="true">
            <div className="work work--skeleton"><span className="work__title-skeleton" /><ul className="work__figures"><li className="work__figure" /><li className="work__figure" /></ul></div>
            <ul className="dashboard__tiles">
              {SERVICES.map((service) => <li key={service} className="tile tile--skeleton"><span /><span /><span /></li>)}
            </ul>
          </div>
        )}
    </div>
  );
}

/** The work to do: one figure per allowed count, each leading to the list it counts. */
function Work({ figures, values, paths, m }: { figures: WorkFigure[]; values: WorkValues; paths: TilePaths; m: DashboardMessages }) {
  return (
    <section className="work" aria-labelledby="dashboard-work-title">
      <h2 className="work__title" id="dashboard-work-title">{m['dashboard.work.title']}</h2>
      <ul className="work__figures">
        {figures.map((figure) => {
          const label = m[`dashboard.work.${figure}`];
          const value = values[figure];
          // The link's name is its visible text: "18 Open tickets" (no count while it loads).
          return (
            <li key={figure} className="work__figure" data-figure={figure}>
              <a className="work__link" href={workHref(figure, paths)} aria-busy={value === undefined || undefined}>
                <span className={`work__value${value === undefined ? ' work__value--loading' : ''}`} aria-hidden={value === null || undefined}>{value === null ? '–' : value ?? ''}</span>{' '}
                <span className="work__label">{label}</span>
                {value === null && <>{' '}<span className="work__note">{m['dashboard.work.unavailable']}</span></>}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** Actions shown as outline buttons, so a tile's way into its service stands out. */
const SECONDARY = new Set(['openCloud', 'requestAccess']);

function TileCard({ tile }: { tile: TileView }) {
  const titleId = `tile-${tile.service}`;
  return (
    <li id={tile.service} className={`tile tile--${tile.status}`} data-service={tile.service} data-status={tile.status}>
      <article className="tile__body" aria-labelledby={titleId}>
        <h2 className="tile__title" id={titleId}>{tile.title}</h2>
        <p className="tile__status"><span className="visually-hidden">{tile.statusLabel}</span><span aria-hidden="true">{tile.statusText}</span></p>
        <p className="tile__description">{tile.description}</p>
        {tile.detail && <p className="tile__detail">{tile.detail}</p>}
        {tile.note && <p className="tile__note">{tile.note}</p>}
        {tile.actions.length > 0 && (
          <div className="tile__actions">
            {tile.actions.map((a) => (
              <a key={a.kind} className={`btn${SECONDARY.has(a.kind) ? ' btn--secondary' : ''}`} href={a.href} aria-label={a.ariaLabel} data-astro-prefetch="false">{a.label}</a>
            ))}
          </div>
        )}
      </article>
    </li>
  );
}

function DashboardError({ detail, m }: { detail: string; m: DashboardMessages }) {
  return (
    <div className="dashboard__error" role="alert">
      <h2>{m['dashboard.error.title']}</h2>
      <p>{m['dashboard.error.text']}</p>
      <details>
        <summary>{m['dashboard.error.details']}</summary>
        <pre>{detail}</pre>
      </details>
      <button type="button" className="btn btn--secondary" onClick={() => location.reload()}>{m['dashboard.error.retry']}</button>
    </div>
  );
}
