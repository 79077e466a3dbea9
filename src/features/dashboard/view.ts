import { fill, type IslandMessages } from '../../i18n/island.ts';
import type { Tile } from './tiles.ts';
import type { ServiceId, TileStatus } from '../customer-area/roles.ts';

/*
 * The dashboard's view model: what each tile card shows (title, description, status text, a note,
 * its actions) from the computed tiles and the translated strings. Pure; the island renders it.
 */

/** The locale keys the dashboard island shows (see src/i18n/island.ts). */
export const MESSAGE_KEYS = [
  'dashboard.welcome', 'dashboard.loading', 'dashboard.servicesLabel', 'dashboard.statusLabel',
  'dashboard.status.unregistered', 'dashboard.status.pending', 'dashboard.status.active', 'dashboard.status.comingsoon', 'dashboard.status.invited', 'dashboard.status.inviteexpired', 'dashboard.status.noprocess',
  'dashboard.note.unregistered', 'dashboard.note.pending', 'dashboard.note.comingsoon', 'dashboard.note.invited', 'dashboard.note.inviteexpired', 'dashboard.note.noprocess',
  'dashboard.action.open', 'dashboard.action.openCloud', 'dashboard.action.register', 'dashboard.action.requestAccess', 'dashboard.action.acceptInvite', 'dashboard.action.named',
  'dashboard.work.title', 'dashboard.work.openTickets', 'dashboard.work.waitingForCustomer', 'dashboard.work.machines', 'dashboard.work.pendingInvitations',
  'dashboard.work.unavailable',
  'dashboard.wireFlow.onprem', 'dashboard.wireFlow.cloud', 'dashboard.error.title', 'dashboard.error.text', 'dashboard.error.details', 'dashboard.error.retry',
  'dashboard.service.serviceTicketing.title', 'dashboard.service.serviceTicketing.description', 'dashboard.service.inventory.title', 'dashboard.service.inventory.description',
  'dashboard.service.wireFlow.title', 'dashboard.service.wireFlow.description', 'dashboard.service.delegatedAdmin.title', 'dashboard.service.delegatedAdmin.description',
  'dashboard.service.direct.title', 'dashboard.service.direct.description', 'dashboard.service.masterDataWm.title', 'dashboard.service.masterDataWm.description',
  'dashboard.service.masterDataMds.title', 'dashboard.service.masterDataMds.description', 'dashboard.service.campus.title', 'dashboard.service.campus.description',
] as const;
export type DashboardMessages = IslandMessages<typeof MESSAGE_KEYS>;

export type ActionKind = 'open' | 'openCloud' | 'register' | 'requestAccess' | 'acceptInvite';

export interface TileAction {
  kind: ActionKind;
  /** Visible text ("Open"). */
  label: string;
  /** Accessible name: the visible text and the service ("Open: Service tickets"), so speech input finds it by what it shows. */
  ariaLabel: string;
  href: string;
}

export interface TileView {
  service: ServiceId;
  title: string;
  description: string;
  status: TileStatus;
  /** The status as the texts name it ("Invite expired"). */
  statusText: string;
  /** The status for screen readers ("Status: Invite expired"). */
  statusLabel: string;
  /** What the status means for the user; null when active. */
  note: string | null;
  /** The wire-flow installation type of an active wire-flow user ("Cloud"). */
  detail: string | null;
  actions: TileAction[];
}

/**
 * The card of each tile: active tiles open their service (wire-flow cloud users also get the cloud
 * service), an unregistered direct tile registers, other unregistered tiles and an expired invite
 * ask for access, an invitation is accepted at the service, pending and coming-soon tiles have no
 * action. An action without an address is left out.
 */
export function tileViews(tiles: Tile[], m: DashboardMessages): TileView[] {
  return tiles.map((tile) => {
    const title = m[`dashboard.service.${tile.service}.title`];
    const statusText = m[`dashboard.status.${tile.status}`];
    const action = (kind: ActionKind, href: string | null | undefined): TileAction[] =>
      href ? [{ kind, label: m[`dashboard.action.${kind}`], ariaLabel: fill(m['dashboard.action.named'], { action: m[`dashboard.action.${kind}`], service: title }), href }] : [];
    let actions: TileAction[] = [];
    switch (tile.status) {
      case 'active':
        actions = [...action('open', tile.serviceUrl), ...(tile.service === 'wireFlow' && tile.userType === 'cloud' ? action('openCloud', tile.serviceUrlCloud) : [])];
        break;
      case 'unregistered':
        actions = tile.service === 'direct' ? action('register', tile.registrationUrl) : action('requestAccess', tile.requestAccessUrl);
        break;
      case 'invited':
        actions = action('acceptInvite', tile.serviceUrl);
        break;
      case 'inviteexpired':
        actions = action('requestAccess', tile.requestAccessUrl);
        break;
      default:
        actions = [];
    }
    const detail = tile.service === 'wireFlow' && tile.status === 'active' && (tile.userType === 'onprem' || tile.userType === 'cloud') ? m[`dashboard.wireFlow.${tile.userType}`] : null;
    return {
      service: tile.service,
      title,
      description: m[`dashboard.service.${tile.service}.description`],
      status: tile.status,
      statusText,
      statusLabel: fill(m['dashboard.statusLabel'], { status: statusText }),
      note: tile.status === 'active' ? null : m[`dashboard.note.${tile.status}`],
      detail,
      actions,
    };
  });
}
