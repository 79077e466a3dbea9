import { apiRoute } from '../../../lib/http/endpoint.ts';
import { getRegister } from '../../../features/sign-in/api.server.ts';

/** GET /api/mykomax/register?locale=…: see getRegister. */
export const { GET, ALL } = apiRoute({ GET: getRegister });
