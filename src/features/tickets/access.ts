/**
 * Which role opens which customer service (spec customer-area §6). A tiny pure check until the
 * dashboard's tile rules (src/features/dashboard/tiles.ts, branch id/dashboard) are on main; then
 * these pages should ask those rules instead, so one table decides both the tile and the page.
 */
export const SERVICE_ROLES = {
  tickets: 'kmx_int_serviceticketing_active',
  inventory: 'kmx_int_assetdb_active',
  wireFlow: 'kmx_int_artemis_active',
} as const;

export type CustomerService = keyof typeof SERVICE_ROLES;

/** Whether the user's roles open the service (exact role string). */
export function hasServiceAccess(roles: readonly string[], service: CustomerService): boolean {
  return roles.includes(SERVICE_ROLES[service]);
}
