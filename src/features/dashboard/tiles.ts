/*
 * The dashboard's service tiles (spec customer-area §2, §3, §4, §6): which status each service has
 * for a user's roles, and where its tile leads. Pure and browser-safe: the island computes the
 * tiles from the signed-in user's roles; the server hands it the paths and the content hub's
 * customer-area settings (no personal data).
 */

import { roleStatuses, SERVICES, wireFlowUserType, type ServiceId, type TileStatus, type WireFlowUserType } from '../customer-area/roles.ts';

/**
 * The customer-area settings of the content hub: service addresses that are not our own routes,
 * and the services announced but not open yet ("coming soon" unless a role opens them).
 */
export interface CustomerAreaSettings {
  directServiceUrl: string | null;
  /** The direct service's registration page; the tile adds the return address (`goto`). */
  directRegistrationUrl: string | null;
  wireFlowCloudUrl: string | null;
  masterDataWmUrl: string | null;
  masterDataMdsUrl: string | null;
  campusUrl: string | null;
  /** Where a user asks for access to a service they do not have (a contact page or form). */
  requestAccessUrl: string | null;
  comingSoon: ServiceId[];
}

/** The app's own routes the tiles lead to, already localized (`localizedPath`). */
export interface TilePaths {
  tickets: string;
  inventory: string;
  userAdmin: string;
  wireFlow: string;
  /** The absolute URL of the localized dashboard: where the direct registration returns to. */
  dashboardUrl: string;
}

/** One service tile (spec §3: status and serviceUrl; wire-flow adds userType and serviceUrlCloud, direct registrationUrl). */
export interface Tile {
  service: ServiceId;
  status: TileStatus;
  serviceUrl: string | null;
  /** Only the direct tile. */
  registrationUrl?: string | null;
  /** Only the wire-flow tile. */
  userType?: WireFlowUserType;
  /** Only the wire-flow tile. */
  serviceUrlCloud?: string | null;
  /** Where to ask for access when the service is not open to the user. */
  requestAccessUrl: string | null;
}

/** The parameter that tells the registration page where to go after sign-in (the identity provider's `goto`). */
export const RETURN_PARAMETER = 'goto';

/**
 * Adds the return address to a registration URL, keeping its own query.
 * @example withReturn('https://idp/am/XUI/?realm=alpha', 'http://localhost:4321/en/mykomax')
 *   // 'https://idp/am/XUI/?realm=alpha&goto=http%3A%2F%2Flocalhost%3A4321%2Fen%2Fmykomax'
 */
export function withReturn(registrationUrl: string, returnUrl: string): string {
  const url = new URL(registrationUrl);
  url.searchParams.set(RETURN_PARAMETER, returnUrl);
  return url.toString();
}

/**
 * Every tile of the dashboard, in {@link SERVICES} order: the status from the roles; a service the
 * content hub lists as coming soon shows "coming soon" unless a role gives the user a status; an
 * unregistered service with no way in (direct: no registration address; any other: no
 * request-access address) has no process for the user: `noprocess`.
 */
export function computeTiles(roles: Iterable<string>, settings: CustomerAreaSettings, paths: TilePaths): Tile[] {
  const held = new Set(roles);
  const statuses = roleStatuses(held);
  const comingSoon = new Set(settings.comingSoon);
  const request = settings.requestAccessUrl;
  const wayIn = (service: ServiceId) => (service === 'direct' ? settings.directRegistrationUrl : request);
  const status = (service: ServiceId): TileStatus => {
    if (statuses[service] !== 'unregistered') return statuses[service];
    if (comingSoon.has(service)) return 'comingsoon';
    return wayIn(service) ? 'unregistered' : 'noprocess';
  };
  const tile = (service: ServiceId, serviceUrl: string | null): Tile => ({ service, status: status(service), serviceUrl, requestAccessUrl: request });
  return SERVICES.map((service): Tile => {
    switch (service) {
      case 'serviceTicketing': return tile(service, paths.tickets);
      case 'inventory': return tile(service, paths.inventory);
      case 'delegatedAdmin': return tile(service, paths.userAdmin);
      case 'wireFlow': return { ...tile(service, paths.wireFlow), userType: wireFlowUserType(held), serviceUrlCloud: settings.wireFlowCloudUrl };
      case 'direct': return {
        ...tile(service, settings.directServiceUrl),
        registrationUrl: settings.directRegistrationUrl ? withReturn(settings.directRegistrationUrl, paths.dashboardUrl) : null,
      };
      case 'masterDataWm': return tile(service, settings.masterDataWmUrl);
      case 'masterDataMds': return tile(service, settings.masterDataMdsUrl);
      case 'campus': return tile(service, settings.campusUrl);
    }
  });
}
