import { userAdmin } from '../../../../features/user-admin/api.server.ts';

/** GET /api/user-admin/users: see userAdminHandlers. */
export const GET = userAdmin.users;
