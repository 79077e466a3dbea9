import { basketData } from '../../../models/catalogue-api.ts';
import { catalogueRoute } from './_route.ts';

/**
 * GET /api/catalogue/basket?language=en&slugs=kappa-310,alpha-550: what the comparison basket
 * shows of each product (name, variants, image, route).
 */
export const GET = catalogueRoute('basket', basketData, 'GalleryThumbnail');
