import { userAdmin } from '../../../../../../features/user-admin/api.server.ts';

/** DELETE /api/user-admin/users/{id}/organisations/{orguid}: see userAdminHandlers. */
export const DELETE = userAdmin.removeMembership;
