import type * as v from 'valibot';
import { graphQLService, type GraphQLServiceConfig } from '../graphql/query.ts';
import type { Logger } from '../log/index.ts';
import { CatalogueError } from './errors.ts';

/** Where and how to reach the catalogue; built from the environment (CATALOGUE_ENDPOINT). */
export type CatalogueConfig = GraphQLServiceConfig;

/** Per-request catalogue context: every catalogue query is asked in one language. */
export interface CatalogueContext {
  config: CatalogueConfig;
  /** Interface language of the page (en, de, …); the catalogue falls back to English per field. */
  language: string;
}

const service = graphQLService({ name: 'catalogue', ErrorClass: CatalogueError, unreachable: 'Catalogue unreachable' });

/** The catalogue logger (hierarchy lookups report skipped references through it). */
export const catalogueLogger: Logger = service.logger;

/**
 * The only way to query the catalogue: validates the answer with valibot and turns failures into
 * a CatalogueError with the spec's message (the first GraphQL error's message, else
 * 'GraphQL Error (Code: {status})'). Every error is rethrown to the caller.
 */
export function catalogueQuery<S extends v.GenericSchema>(
  ctx: CatalogueContext,
  operation: string,
  query: string,
  variables: Record<string, unknown>,
  schema: S,
): Promise<v.InferOutput<S>> {
  return service.query(ctx.config, operation, query, variables, schema);
}
