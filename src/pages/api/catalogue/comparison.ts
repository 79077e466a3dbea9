import { getComparison } from '../../../features/catalogue/api.server.ts';

/** GET /api/catalogue/comparison: see getComparison. */
export const GET = getComparison;
