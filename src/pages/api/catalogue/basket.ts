import { apiRoute } from '../../../lib/http/endpoint.ts';
import { getBasket } from '../../../features/catalogue/api.server.ts';

/** GET /api/catalogue/basket: see getBasket. */
export const { GET, ALL } = apiRoute({ GET: getBasket });
