import { apiRoute } from '../../../lib/http/endpoint.ts';
import { userAdmin } from '../../../features/user-admin/api.server.ts';

/** POST /api/user-admin/invitations: see userAdminHandlers. */
export const { POST, ALL } = apiRoute({ POST: userAdmin.invite });
