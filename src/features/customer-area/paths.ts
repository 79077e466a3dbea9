import { localizedPath } from '../../site/paths.ts';
import type { Locale, Site } from '../../site/types.ts';

/*
 * The customer area's paths (spec customer-area §2), the one list: the routes below
 * `/{locale}/mykomax` on the main site, the islands' localized addresses built from them, and the
 * predicates the middleware, the prerender guard and the sign-in flow use. Pure and browser-safe.
 */

export const CUSTOMER_AREA_SEGMENT = 'mykomax';

/** The portal's pages (site-relative): the dashboard tiles, the portal navigation and the user menu link them. */
export const CUSTOMER_AREA_PATHS = {
  dashboard: '/mykomax',
  account: '/mykomax/account',
  tickets: '/mykomax/tickets/list',
  inventory: '/mykomax/inventory',
  userAdmin: '/mykomax/user-admin',
  wireFlow: '/mykomax/wire-flow',
} as const;

/** The other fixed routes of the area; a ticket's page is `${ticketBase}/{id}`, a user's `${userAdmin}/{id}`. */
export const CUSTOMER_AREA_SUBPATHS = {
  newTicket: '/mykomax/tickets/newticket',
  ticketBase: '/mykomax/tickets',
  inventoryOld: '/mykomax/inventory/old',
  logout: '/mykomax/logout',
} as const;

/** Every fixed route segment of the area (lowercase); ids (tickets, users) keep their case. */
const ROUTE_SEGMENTS = new Set(
  [...Object.values(CUSTOMER_AREA_PATHS), ...Object.values(CUSTOMER_AREA_SUBPATHS)].flatMap((p) => p.split('/').filter(Boolean)),
);
const LOCALE = /^[a-z]{2}(?:-[a-z]{2})?$/i;

/** The customer services' pages in the page's site and locale, as their islands get them. */
export interface ServicePaths {
  dashboard: string;
  ticketList: string;
  newTicket: string;
  /** A ticket's page is `${ticketBase}/${encodeURIComponent(id)}`. */
  ticketBase: string;
  inventory: string;
  inventoryOld: string;
  wireFlow: string;
}

export function servicePaths(site: Pick<Site, 'slug'>, locale: Pick<Locale, 'urlCode'>): ServicePaths {
  const p = (path: string) => localizedPath(site, locale, path);
  return {
    dashboard: p(CUSTOMER_AREA_PATHS.dashboard),
    ticketList: p(CUSTOMER_AREA_PATHS.tickets),
    newTicket: p(CUSTOMER_AREA_SUBPATHS.newTicket),
    ticketBase: p(CUSTOMER_AREA_SUBPATHS.ticketBase),
    inventory: p(CUSTOMER_AREA_PATHS.inventory),
    inventoryOld: p(CUSTOMER_AREA_SUBPATHS.inventoryOld),
    wireFlow: p(CUSTOMER_AREA_PATHS.wireFlow),
  };
}

export const ticketPath = (paths: Pick<ServicePaths, 'ticketBase'>, id: string) => `${paths.ticketBase}/${encodeURIComponent(id)}`;
export const newTicketForMachine = (paths: Pick<ServicePaths, 'newTicket'>, machineId: string) => `${paths.newTicket}?machine=${encodeURIComponent(machineId)}`;

/** Whether a site-relative page path (below locale and site slug, `/mykomax/account`) is in the customer area. */
export function isCustomerAreaPagePath(pagePath: string): boolean {
  const first = pagePath.split('/').filter(Boolean)[0] ?? '';
  return first.toLowerCase() === CUSTOMER_AREA_SEGMENT;
}

/** Whether a URL path (`/en/MyKomax/account`) is in the customer area, in any letter case. */
export function isCustomerAreaPath(pathname: string): boolean {
  const [locale = '', area = ''] = pathname.split('/').filter(Boolean);
  return LOCALE.test(locale) && area.toLowerCase() === CUSTOMER_AREA_SEGMENT;
}

/**
 * The lowercase spelling of a customer-area path written in another case, else null:
 * `/en/MyKomax/Account` → `/en/mykomax/account`; `/en/mykomax/tickets/AbC1` keeps the ticket id.
 */
export function customerAreaCanonicalPath(pathname: string): string | null {
  if (!isCustomerAreaPath(pathname)) return null;
  const parts = pathname.split('/');
  const canonical = parts.map((p, i) => (i === 1 || ROUTE_SEGMENTS.has(p.toLowerCase()) ? p.toLowerCase() : p)).join('/');
  return canonical === pathname ? null : canonical;
}
