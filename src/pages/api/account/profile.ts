import { apiRoute } from '../../../lib/http/endpoint.ts';
import { account } from '../../../features/account/api.server.ts';

/** GET /api/account/profile, PATCH /api/account/profile: see accountHandlers. */
export const { GET, PATCH, ALL } = apiRoute({ GET: account.getProfile, PATCH: account.patchProfile });
