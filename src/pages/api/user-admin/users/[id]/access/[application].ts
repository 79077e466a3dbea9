import { userAdmin } from '../../../../../../features/user-admin/api.server.ts';

/** POST /api/user-admin/users/{id}/access/{application}: see userAdminHandlers. */
export const POST = userAdmin.access;
