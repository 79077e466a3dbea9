import { comparisonData } from '../../../models/catalogue-api.ts';
import { catalogueRoute } from './_route.ts';

/**
 * GET /api/catalogue/comparison?language=en&slugs=kappa-310,kappa-320: what the comparison shows
 * of each product (every specification reading, variants, brand, image 180×180).
 */
export const GET = catalogueRoute('comparison', comparisonData, 'ProductCard');
