import { userAdmin } from '../../../features/user-admin/api.server.ts';

/** POST /api/user-admin/invitations: see userAdminHandlers. */
export const POST = userAdmin.invite;
