import { ClientError, GraphQLClient } from 'graphql-request';
import * as v from 'valibot';
import { graphQLErrorMessage } from '../content/errors.ts';
import { createLogger, truncateVariables, type Logger, type LogLevel } from '../content/log.ts';
import { CatalogueError } from './errors.ts';

/** Where and how to reach the catalogue; built from the environment (CATALOGUE_ENDPOINT). */
export interface CatalogueConfig {
  endpoint: string;
  logLevel: LogLevel;
}

/** Per-request catalogue context: every catalogue query is asked in one language. */
export interface CatalogueContext {
  config: CatalogueConfig;
  /** Interface language of the page (en, de, …); the catalogue falls back to English per field. */
  language: string;
}

const clients = new Map<string, { client: GraphQLClient; log: Logger }>();

function clientFor(config: CatalogueConfig) {
  const key = `${config.endpoint}|${config.logLevel}`;
  let entry = clients.get(key);
  if (!entry) {
    entry = { client: new GraphQLClient(config.endpoint), log: createLogger(config.logLevel, 'catalogue') };
    clients.set(key, entry);
  }
  return entry;
}

/** The catalogue logger for a context (hierarchy lookups report skipped references through it). */
export function catalogueLogger(config: CatalogueConfig): Logger {
  return clientFor(config).log;
}

/**
 * The only way to query the catalogue: validates the answer with valibot and turns failures into
 * a CatalogueError with the spec's message (the first GraphQL error's message, else
 * 'GraphQL Error (Code: {status})'). Every error is rethrown to the caller.
 */
export async function catalogueQuery<S extends v.GenericSchema>(
  ctx: CatalogueContext,
  operation: string,
  query: string,
  variables: Record<string, unknown>,
  schema: S,
): Promise<v.InferOutput<S>> {
  const { client, log } = clientFor(ctx.config);
  const started = performance.now();
  log.debug(`${operation} ${truncateVariables(variables)}`);
  let data: unknown;
  try {
    const res = await client.rawRequest<unknown>(query, variables);
    data = res.data;
  } catch (err) {
    if (err instanceof ClientError) {
      const message = graphQLErrorMessage(err.response.errors as { message?: string }[] | undefined, err.response.status);
      log.error(`${operation} failed: ${message} ${truncateVariables(variables)}`);
      throw new CatalogueError(message, { operation, status: err.response.status, cause: err });
    }
    const message = (err as Error).message;
    log.error(`${operation} failed: ${message}`);
    throw new CatalogueError(`Catalogue unreachable: ${message}`, { operation, cause: err });
  }
  const parsed = v.safeParse(schema, data);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const message = `Unexpected ${operation} response at ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`;
    log.error(message);
    throw new CatalogueError(message, { operation });
  }
  log.info(`${operation} ${Math.round(performance.now() - started)} ms`);
  return parsed.output;
}
