import { ServiceError } from '../graphql/query.ts';

/** A failed call to the catalogue (PIM) service; keeps the operation, the HTTP status and the cause. */
export class CatalogueError extends ServiceError {
  override name = 'CatalogueError';
}

/** The spec's text for a product (or service product) the catalogue does not know (spec §8). */
export const NO_PRODUCT_FOUND = 'No product found for slug';

/** A product or service product slug that names nothing in the catalogue: a 404, not a failure. */
export class ProductNotFoundError extends CatalogueError {
  override name = 'ProductNotFoundError';
  readonly slug: string;
  constructor(slug: string, operation: string) {
    super(`${NO_PRODUCT_FOUND} ${slug}`, { operation, status: 404 });
    this.slug = slug;
  }
}
