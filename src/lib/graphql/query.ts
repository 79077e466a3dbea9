import { ClientError, GraphQLClient } from 'graphql-request';
import * as v from 'valibot';
import { getLogger, truncateVariables, type Logger } from '../log/index.ts';
import { describeFetchFailure, isConnectionClosed, resolveTimeouts, timedFetch, type FailureKind, type UpstreamTimeouts } from '../http/timeouts.ts';

/** Where and how to reach a GraphQL service, and how long a call may take (defaults: connect 2 s, total 5 s). The log level is the server's (LOG_LEVEL). */
export interface GraphQLServiceConfig extends UpstreamTimeouts {
  endpoint: string;
}

export interface ServiceErrorOptions {
  operation: string;
  status?: number;
  cause?: unknown;
  /** The service did not answer: a timeout or a failed connection. */
  failure?: FailureKind;
  /** The GraphQL errors of the answer, when the service answered with errors. */
  graphQLErrors?: readonly GraphQLErrorItem[];
}

/** One entry of a GraphQL answer's `errors`. */
export interface GraphQLErrorItem {
  message?: string;
  extensions?: unknown;
}

/** Every error of the answer is the service's refusal of the input (`extensions.code` BAD_USER_INPUT). */
export function isBadUserInput(errors: GraphQLErrorItem[] | undefined): boolean {
  return !!errors?.length && errors.every((e) => (e.extensions as { code?: unknown } | undefined)?.code === 'BAD_USER_INPUT');
}

/** A failed call to a service; keeps the operation, the HTTP status and the cause. Each service names its own subclass. */
export class ServiceError extends Error {
  readonly operation: string;
  readonly status: number | undefined;
  readonly failure: FailureKind | undefined;
  readonly graphQLErrors: readonly GraphQLErrorItem[] | undefined;
  /**
   * The service is down or too slow (no answer, or a 5xx): the caller may serve stale data or
   * answer 503 with Retry-After. A plain field, so it survives a second copy of this module.
   */
  readonly unavailable: boolean;
  constructor(message: string, opts: ServiceErrorOptions) {
    super(message, { cause: opts.cause });
    this.operation = opts.operation;
    this.status = opts.status;
    this.failure = opts.failure;
    this.graphQLErrors = opts.graphQLErrors;
    this.unavailable = opts.failure !== undefined || (opts.status !== undefined && opts.status >= 500);
  }
}

/** The error class of a service (ContentError, CatalogueError …). */
export type ServiceErrorClass = new (message: string, opts: ServiceErrorOptions) => ServiceError;

/** Whether an error (or one of its causes) says an upstream service is unavailable (the rule lives with the error page). */
export { isServiceUnavailable } from '../../site/error-page.ts';

/** The spec's GraphQL error text: the first error's message, else 'GraphQL Error (Code: {status})'. */
export function graphQLErrorMessage(errors: { message?: string }[] | undefined, status: number): string {
  const first = errors?.find((e) => e?.message)?.message;
  return first ?? `GraphQL Error (Code: ${status})`;
}

/** A document that changes data (never sent twice by the transport). */
const MUTATION = /\bmutation\b/;

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
    const timeouts = resolveTimeouts(config);
    const key = `${config.endpoint}|${timeouts.connectTimeoutMs}|${timeouts.timeoutMs}`;
    let client = clients.get(key);
    if (!client) {
      client = new GraphQLClient(config.endpoint, {
        fetch: ((url: string | URL, init?: RequestInit) => timedFetch(url, init, timeouts)) as typeof fetch,
      });
      clients.set(key, client);
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
    const send = () => client.rawRequest<unknown>(document, variables, headers);
    // A query read on a connection the service closed at that moment is asked once more on a
    // new one; a mutation never is (it may have been carried out).
    const repeatable = !MUTATION.test(document);
    let data: unknown;
    try {
      data = (await send().catch((err: unknown) => {
        if (!repeatable || !isConnectionClosed(err)) throw err;
        log.debug(`${operation}: the connection closed before an answer; asking again`);
        return send();
      })).data;
    } catch (err) {
      if (err instanceof ClientError) {
        const graphQLErrors = err.response.errors as GraphQLErrorItem[] | undefined;
        const message = graphQLErrorMessage(graphQLErrors, err.response.status);
        // The service refused what a visitor sent (an unknown story, an invalid form): the visitor's
        // error, answered as a 4xx, not a fault of ours or of the service.
        const line = `${operation} failed: ${message} ${truncateVariables(variables)}`;
        if (isBadUserInput(graphQLErrors)) log.warn(line);
        else log.error(line);
        throw new opts.ErrorClass(message, { operation, status: err.response.status, cause: err, graphQLErrors });
      }
      const failure = describeFetchFailure(err, resolveTimeouts(config));
      log.error(`${operation} failed: ${failure.message} (${config.endpoint})`);
      throw new opts.ErrorClass(`${opts.unreachable}: ${failure.message}`, { operation, cause: err, failure: failure.kind });
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
