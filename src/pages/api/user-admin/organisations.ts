import { userAdmin } from '../../../features/user-admin/api.server.ts';

/** GET /api/user-admin/organisations: see userAdminHandlers. */
export const GET = userAdmin.organisations;
