import { ServiceError } from '../graphql/query.ts';

/** A failed call to the content hub; keeps the operation, the HTTP status and the cause. */
export class ContentError extends ServiceError {
  override name = 'ContentError';
}

export { graphQLErrorMessage } from '../graphql/query.ts';
