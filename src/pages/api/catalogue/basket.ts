import { getBasket } from '../../../features/catalogue/api.server.ts';

/** GET /api/catalogue/basket: see getBasket. */
export const GET = getBasket;
