import { ClientError, GraphQLClient } from 'graphql-request';
import * as v from 'valibot';
import { getLogger, truncateVariables, type Logger } from '../log/index.ts';

/** Where and how to reach a GraphQL service (the log level is the server's, LOG_LEVEL). */
export interface GraphQLServiceConfig {
  endpoint: string;
}

/** A failed call to a service; keeps the operation, the HTTP status and the cause. Each service names its own subclass. */
export class ServiceError extends Error {
  readonly operation: string;
  readonly status: number | undefined;
  constructor(message: string, opts: { operation: string; status?: number; cause?: unknown }) {
    super(message, { cause: opts.cause });
    this.operation = opts.operation;
    this.status = opts.status;
  }
}

/** The error class of a service (ContentError, CatalogueError …). */
export type ServiceErrorClass = new (message: string, opts: { operation: string; status?: number; cause?: unknown }) => ServiceError;

/** The spec's GraphQL error text: the first error's message, else 'GraphQL Error (Code: {status})'. */
export function graphQLErrorMessage(errors: { message?: string }[] | undefined, status: number): string {
  const first = errors?.find((e) => e?.message)?.message;
  return first ?? `GraphQL Error (Code: ${status})`;
}

/**
 * The GraphQL transport shared by the service folders in src/lib: one client per endpoint, the
 * answer validated with valibot, every failure turned into the service's own error class with
 * the spec's message, logging at the configured level with variables truncated to 50 characters.
 * Each service keeps its own queries, schemas and mapping; only the plumbing is shared.
 */
export function graphQLService(opts: { name: string; ErrorClass: ServiceErrorClass; unreachable: string }) {
  const log: Logger = getLogger(opts.name);
  const clients = new Map<string, GraphQLClient>();
  const clientFor = (config: GraphQLServiceConfig) => {
    let client = clients.get(config.endpoint);
    if (!client) {
      client = new GraphQLClient(config.endpoint);
      clients.set(config.endpoint, client);
    }
    return client;
  };

  async function query<S extends v.GenericSchema>(
    config: GraphQLServiceConfig,
    operation: string,
    document: string,
    variables: Record<string, unknown>,
    schema: S,
    headers?: Record<string, string>,
  ): Promise<v.InferOutput<S>> {
    const client = clientFor(config);
    const started = performance.now();
    log.debug(`${operation} ${truncateVariables(variables)}`);
    let data: unknown;
    try {
      data = (await client.rawRequest<unknown>(document, variables, headers)).data;
    } catch (err) {
      if (err instanceof ClientError) {
        const message = graphQLErrorMessage(err.response.errors as { message?: string }[] | undefined, err.response.status);
        log.error(`${operation} failed: ${message} ${truncateVariables(variables)}`);
        throw new opts.ErrorClass(message, { operation, status: err.response.status, cause: err });
      }
      const message = (err as Error).message;
      log.error(`${operation} failed: ${message}`);
      throw new opts.ErrorClass(`${opts.unreachable}: ${message}`, { operation, cause: err });
    }
    const parsed = v.safeParse(schema, data);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      const message = `Unexpected ${operation} response at ${v.getDotPath(issue) ?? '(root)'}: ${issue.message}`;
      log.error(message);
      throw new opts.ErrorClass(message, { operation });
    }
    log.info(`${operation} ${Math.round(performance.now() - started)} ms`);
    return parsed.output;
  }

  return { query, logger: log };
}
