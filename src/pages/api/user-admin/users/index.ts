import { apiRoute } from '../../../../lib/http/endpoint.ts';
import { userAdmin } from '../../../../features/user-admin/api.server.ts';

/** GET /api/user-admin/users: see userAdminHandlers. */
export const { GET, ALL } = apiRoute({ GET: userAdmin.users });
