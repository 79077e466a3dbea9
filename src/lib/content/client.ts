import { ClientError, GraphQLClient } from 'graphql-request';
import * as v from 'valibot';
import { ContentError, graphQLErrorMessage } from './errors.ts';
import { createLogger, truncateVariables, type Logger, type LogLevel } from './log.ts';

export type Stage = 'DRAFT' | 'PUBLISHED';

/** Where and how to reach the content hub; built once at start-up from the environment. */
export interface ContentConfig {
  endpoint: string;
  logLevel: LogLevel;
}

/** Per-request content context: the ordered locale list (en last) and the stage. */
export interface ContentContext {
  config: ContentConfig;
  locales: string[];
  stage: Stage;
}

const clients = new Map<string, { client: GraphQLClient; log: Logger }>();

function clientFor(config: ContentConfig) {
  const key = `${config.endpoint}|${config.logLevel}`;
  let entry = clients.get(key);
  if (!entry) {
    entry = { client: new GraphQLClient(config.endpoint), log: createLogger(config.logLevel, 'content') };
    clients.set(key, entry);
  }
  return entry;
}

/**
 * The only way to query the content hub: sends the locale list header, validates the answer
 * with valibot and turns failures into a ContentError with the spec's message.
 */
export async function contentQuery<S extends v.GenericSchema>(
  ctx: ContentContext,
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
    const res = await client.rawRequest<unknown>(query, variables, { 'x-content-locales': ctx.locales.join(',') });
    data = res.data;
  } catch (err) {
    if (err instanceof ClientError) {
      const message = graphQLErrorMessage(err.response.errors as { message?: string }[] | undefined, err.response.status);
      log.error(`${operation} failed: ${message} ${truncateVariables(variables)}`);
      throw new ContentError(message, { operation, status: err.response.status, cause: err });
    }
    const message = (err as Error).message;
    log.error(`${operation} failed: ${message}`);
    throw new ContentError(`Content hub unreachable: ${message}`, { operation, cause: err });
  }
  const parsed = v.safeParse(schema, data);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const message = `Unexpected ${operation} response at ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`;
    log.error(message);
    throw new ContentError(message, { operation });
  }
  log.info(`${operation} ${Math.round(performance.now() - started)} ms`);
  return parsed.output;
}
