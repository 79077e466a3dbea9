/*
 * The customer area's role table (spec customer-area §4, §6): the role strings, the services they
 * open and each service's status for a user's roles. Pure and browser-safe; the dashboard's tiles,
 * the portal navigation and every service's access check read it.
 */

/** The role strings of spec §6, verbatim. */
export const ROLES = {
  serviceTicketing: 'kmx_int_serviceticketing_active',
  inventory: 'kmx_int_assetdb_active',
  delegatedAdminExtern: 'kmx_delegatedadmin_extern',
  delegatedAdminIntern: 'kmx_delegatedadmin_intern',
  wireFlow: 'kmx_int_artemis_active',
  wireFlowOnPrem: 'kmx_artemis_onpremuser',
  directPending: 'kmx_int_direct_pending',
  directActive: 'kmx_int_direct_active',
  masterDataWm: 'kmx_int_mfpwm_active',
  masterDataMds: 'kmx_int_mfpmds_active',
  campusActive: 'kmx_int_lmsefront_active',
  campusInvited: 'kmx_int_lmsefront_invited',
  campusInviteExpired: 'kmx_int_lmsefront_inviteexpired',
} as const;

/** The services of the dashboard, in the order their tiles appear. */
export const SERVICES = ['serviceTicketing', 'inventory', 'wireFlow', 'delegatedAdmin', 'direct', 'masterDataWm', 'masterDataMds', 'campus'] as const;
export type ServiceId = (typeof SERVICES)[number];

/** The service status values of spec §4, verbatim. */
export const SERVICE_STATUSES = ['unknown', 'noprocess', 'unregistered', 'pending', 'active', 'invited', 'inviteexpired', 'inactive', 'declined', 'comingsoon'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

/**
 * The statuses a dashboard tile shows: the six of the texts (spec §4: unregistered, pending, active,
 * coming soon, invited, invite expired) and `noprocess`, a service the user does not have and has
 * no way to ask for (no registration or request-access address configured).
 */
export const TILE_STATUSES = ['unregistered', 'pending', 'active', 'comingsoon', 'invited', 'inviteexpired', 'noprocess'] as const satisfies readonly ServiceStatus[];
export type TileStatus = (typeof TILE_STATUSES)[number];

/** Wire-flow user type (spec §3). */
export type WireFlowUserType = 'unknown' | 'onprem' | 'cloud';

/** Status of an on/off service: active if the role exists, else unregistered. */
function activeIf(roles: ReadonlySet<string>, ...anyOf: string[]): TileStatus {
  return anyOf.some((r) => roles.has(r)) ? 'active' : 'unregistered';
}

/** Direct: pending wins over active (a pending request is shown even if an old active role remains), else unregistered. */
export function directStatus(roles: Iterable<string>): TileStatus {
  const set = new Set(roles);
  if (set.has(ROLES.directPending)) return 'pending';
  if (set.has(ROLES.directActive)) return 'active';
  return 'unregistered';
}

/** Campus: active, invited or invite expired by role (in that order of precedence), else unregistered. */
export function campusStatus(roles: Iterable<string>): TileStatus {
  const set = new Set(roles);
  if (set.has(ROLES.campusActive)) return 'active';
  if (set.has(ROLES.campusInvited)) return 'invited';
  if (set.has(ROLES.campusInviteExpired)) return 'inviteexpired';
  return 'unregistered';
}

/** Wire-flow user type: onprem with the on-prem role, else cloud (spec §4). */
export function wireFlowUserType(roles: Iterable<string>): WireFlowUserType {
  return new Set(roles).has(ROLES.wireFlowOnPrem) ? 'onprem' : 'cloud';
}

/** The role-derived status of each service (before "coming soon" from content). */
export function roleStatuses(roles: Iterable<string>): Record<ServiceId, TileStatus> {
  const set = new Set(roles);
  return {
    serviceTicketing: activeIf(set, ROLES.serviceTicketing),
    inventory: activeIf(set, ROLES.inventory),
    wireFlow: activeIf(set, ROLES.wireFlow),
    delegatedAdmin: activeIf(set, ROLES.delegatedAdminIntern, ROLES.delegatedAdminExtern),
    direct: directStatus(set),
    masterDataWm: activeIf(set, ROLES.masterDataWm),
    masterDataMds: activeIf(set, ROLES.masterDataMds),
    campus: campusStatus(set),
  };
}
