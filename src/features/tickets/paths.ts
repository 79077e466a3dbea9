import { localizedPath } from '../../site/paths.ts';
import type { Locale, Site } from '../../site/types.ts';

/** The customer services' pages (spec customer-area §2) in the page's site and locale. */
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
    dashboard: p('/mykomax'),
    ticketList: p('/mykomax/tickets/list'),
    newTicket: p('/mykomax/tickets/newticket'),
    ticketBase: p('/mykomax/tickets'),
    inventory: p('/mykomax/inventory'),
    inventoryOld: p('/mykomax/inventory/old'),
    wireFlow: p('/mykomax/wire-flow'),
  };
}

export const ticketPath = (paths: Pick<ServicePaths, 'ticketBase'>, id: string) => `${paths.ticketBase}/${encodeURIComponent(id)}`;
export const newTicketForMachine = (paths: Pick<ServicePaths, 'newTicket'>, machineId: string) => `${paths.newTicket}?machine=${encodeURIComponent(machineId)}`;
