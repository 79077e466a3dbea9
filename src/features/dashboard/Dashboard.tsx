import { useEffect, useState } from 'react';
import { ensureSession } from '../../lib/identity/session.ts';
import { fill } from '../../i18n/island.ts';
import { computeTiles, SERVICES, type CustomerAreaSettings, type TilePaths } from './tiles.ts';
import { tileViews, type DashboardMessages, type TileView } from './view.ts';

export { MESSAGE_KEYS } from './view.ts';

interface Props {
  settings: CustomerAreaSettings;
  paths: TilePaths;
  /** Set when the content hub's settings could not be loaded (shown as a dashboard error with its detail). */
  settingsError: string | null;
  messages: DashboardMessages;
}

type State = { kind: 'loading' } | { kind: 'ready'; name: string; tiles: TileView[] } | { kind: 'failed'; detail: string };

/**
 * The myKomax dashboard (spec customer-area §2–§4): the signed-in user's name and one card per
 * service with its status from the user's roles. The server renders skeleton cards only (no
 * personal data); the session comes from `ensureSession()`.
 */
export function Dashboard({ settings, paths, settingsError, messages: m }: Props) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    ensureSession().then(({ user }) => {
      if (live) setState({ kind: 'ready', name: user.fullName || user.email, tiles: tileViews(computeTiles(user.roles, settings, paths), m) });
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
      {settingsError && state.kind === 'ready' && <DashboardError detail={settingsError} m={m} />}
      <ul className="dashboard__tiles" aria-label={m['dashboard.servicesLabel']}>
        {state.kind === 'ready'
          ? state.tiles.map((tile) => <TileCard key={tile.service} tile={tile} />)
          : SERVICES.map((service) => <li key={service} className="tile tile--skeleton" aria-hidden="true"><span /><span /><span /></li>)}
      </ul>
    </div>
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
