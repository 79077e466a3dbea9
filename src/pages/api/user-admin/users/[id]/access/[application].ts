import { apiRoute } from '../../../../../../lib/http/endpoint.ts';
import { userAdmin } from '../../../../../../features/user-admin/api.server.ts';

/** POST /api/user-admin/users/{id}/access/{application}: see userAdminHandlers. */
export const { POST, ALL } = apiRoute({ POST: userAdmin.access });
