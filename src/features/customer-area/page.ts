import { mainSite } from '../../site/main-site.ts';
import { localizedPath } from '../../site/paths.ts';
import type { Locale, Site, SystemData } from '../../site/types.ts';
import { CUSTOMER_AREA_PATHS, servicePaths, type ServicePaths } from './paths.ts';

/** What a customer-area page needs of its request (a PageContext has it). */
export interface CustomerAreaContext {
  request: { system: Pick<SystemData, 'sites'>; site: Site; locale: Pick<Locale, 'urlCode'> };
}

export type PortalPage = keyof typeof CUSTOMER_AREA_PATHS;

/** The addresses a customer-area route file, its layout and its islands link. */
export interface CustomerAreaPage {
  /** The site the area lives on (spec customer-area §2): the main site, the request's when none is marked main. */
  site: Site;
  /** A site-relative path of the main site in the page's locale. */
  href: (path: string) => string;
  /** The portal's pages (dashboard, account, tickets, inventory, user-admin, wire-flow). */
  links: Record<PortalPage, string>;
  /** The customer services' pages, as their islands get them. */
  services: ServicePaths;
}

/** The main site and the area's localized addresses for a page, computed once instead of in each route file. */
export function customerAreaPage(ctx: CustomerAreaContext): CustomerAreaPage {
  const { request: req } = ctx;
  const site = mainSite(req.system) ?? req.site;
  const href = (path: string) => localizedPath(site, req.locale, path);
  const links = Object.fromEntries(Object.entries(CUSTOMER_AREA_PATHS).map(([k, p]) => [k, href(p)])) as Record<PortalPage, string>;
  return { site, href, links, services: servicePaths(site, req.locale) };
}
