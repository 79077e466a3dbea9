import { apiRoute } from '../../../lib/http/endpoint.ts';
import { getSession } from '../../../features/sign-in/api.server.ts';

/** GET /api/mykomax/session: see getSession. */
export const { GET, ALL } = apiRoute({ GET: getSession });
