import { apiRoute } from '../../../lib/http/endpoint.ts';
import { account } from '../../../features/account/api.server.ts';

/** DELETE /api/account: see accountHandlers. */
export const { DELETE, ALL } = apiRoute({ DELETE: account.deleteAccount });
