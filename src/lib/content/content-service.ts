import type * as v from 'valibot';
import { ContentError } from './errors.ts';
import { graphQLService, type GraphQLServiceConfig } from '../graphql/query.ts';

export type Stage = 'DRAFT' | 'PUBLISHED';

/** Where and how to reach the content hub; built once at start-up from the environment. */
export type ContentConfig = GraphQLServiceConfig;

/** Per-request content context: the ordered locale list (en last) and the stage. */
export interface ContentContext {
  config: ContentConfig;
  locales: string[];
  stage: Stage;
}

const service = graphQLService({ name: 'content', ErrorClass: ContentError, unreachable: 'Content hub unreachable' });

/**
 * The only way to query the content hub: sends the ordered locale list header, validates the
 * answer with valibot and turns failures into a ContentError with the spec's message.
 */
export function contentQuery<S extends v.GenericSchema>(
  ctx: ContentContext,
  operation: string,
  query: string,
  variables: Record<string, unknown>,
  schema: S,
  headers: Record<string, string> = {},
): Promise<v.InferOutput<S>> {
  return service.query(ctx.config, operation, query, variables, schema, { ...headers, 'x-content-locales': ctx.locales.join(',') });
}
