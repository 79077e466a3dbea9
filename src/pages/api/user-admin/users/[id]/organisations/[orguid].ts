import { apiRoute } from '../../../../../../lib/http/endpoint.ts';
import { userAdmin } from '../../../../../../features/user-admin/api.server.ts';

/** DELETE /api/user-admin/users/{id}/organisations/{orguid}: see userAdminHandlers. */
export const { DELETE, ALL } = apiRoute({ DELETE: userAdmin.removeMembership });
