import { roleStatuses } from '../customer-area/roles.ts';

/*
 * The myKomax portal navigation (issue 29 item 16): the customer area's own pages, each shown only
 * when the user's roles open it. One rule with the dashboard tiles (tiles.ts over spec §6's role
 * strings): a page is in the navigation exactly when its tile is active. The dashboard and the
 * account settings belong to every signed-in user (spec §6).
 */

/** The portal's pages, in the order the navigation lists them. */
export const PORTAL_NAV_ITEMS = ['dashboard', 'tickets', 'inventory', 'wireFlow', 'userAdmin', 'account'] as const;
export type PortalNavItem = (typeof PORTAL_NAV_ITEMS)[number];

/** The items the roles allow, in navigation order. */
export function portalNavItems(roles: Iterable<string>): PortalNavItem[] {
  const s = roleStatuses(roles);
  const allowed: Record<PortalNavItem, boolean> = {
    dashboard: true,
    tickets: s.serviceTicketing === 'active',
    inventory: s.inventory === 'active',
    wireFlow: s.wireFlow === 'active',
    userAdmin: s.delegatedAdmin === 'active',
    account: true,
  };
  return PORTAL_NAV_ITEMS.filter((item) => allowed[item]);
}

/** The first segment below /mykomax of each item's pages (the dashboard has none). */
const SECTIONS: Record<string, PortalNavItem> = { tickets: 'tickets', inventory: 'inventory', 'wire-flow': 'wireFlow', 'user-admin': 'userAdmin', account: 'account' };

/**
 * The item a customer-area page belongs to, from its page path below locale and site
 * (`/mykomax/tickets/SR-100004` → tickets); null for a path outside the portal's sections.
 * @example portalSection('/mykomax') // 'dashboard'
 */
export function portalSection(pagePath: string): PortalNavItem | null {
  const [area = '', section] = pagePath.split('/').filter(Boolean).map((s) => s.toLowerCase());
  if (area !== 'mykomax') return null;
  if (section === undefined) return 'dashboard';
  return SECTIONS[section] ?? null;
}
