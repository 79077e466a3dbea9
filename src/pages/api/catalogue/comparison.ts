import { apiRoute } from '../../../lib/http/endpoint.ts';
import { getComparison } from '../../../features/catalogue/api.server.ts';

/** GET /api/catalogue/comparison: see getComparison. */
export const { GET, ALL } = apiRoute({ GET: getComparison });
