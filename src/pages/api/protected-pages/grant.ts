import { apiRoute } from '../../../lib/http/endpoint.ts';
import { postGrant } from '../../../features/protected-pages/api.server.ts';

/** POST /api/protected-pages/grant: see postGrant. */
export const { POST, ALL } = apiRoute({ POST: postGrant });
