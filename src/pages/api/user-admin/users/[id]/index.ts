import { apiRoute } from '../../../../../lib/http/endpoint.ts';
import { userAdmin } from '../../../../../features/user-admin/api.server.ts';

/** GET, DELETE /api/user-admin/users/{id}: see userAdminHandlers. */
export const { GET, DELETE, ALL } = apiRoute({ GET: userAdmin.user, DELETE: userAdmin.deleteUser });
