import { roleStatuses, type ServiceId } from './roles.ts';

/**
 * Which customer service a page belongs to, and its dashboard tile: one table (the role table,
 * `roles.ts`, over spec customer-area §6's role strings) decides
 * both the tile and the page, so a page opens exactly when its tile is active.
 */
export const SERVICE_TILES = {
  tickets: 'serviceTicketing',
  inventory: 'inventory',
  wireFlow: 'wireFlow',
} as const satisfies Record<string, ServiceId>;

export type CustomerService = keyof typeof SERVICE_TILES;

/** Whether the user's roles open the service: its dashboard tile's status is 'active'. */
export function hasServiceAccess(roles: readonly string[], service: CustomerService): boolean {
  return roleStatuses(roles)[SERVICE_TILES[service]] === 'active';
}
