import { userAdmin } from '../../../../../features/user-admin/api.server.ts';

/** GET, DELETE /api/user-admin/users/{id}: see userAdminHandlers. */
export const GET = userAdmin.user;
export const DELETE = userAdmin.deleteUser;
