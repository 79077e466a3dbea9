import { outcomeUnknown } from '../idempotency/key.ts';

/**
 * A failed ticketing call (spec customer-area §7, §8), in the browser and on the server: keeps the
 * operation, the HTTP status and the GraphQL errors of the answer. Browser-safe (no Node imports).
 */

/** One entry of a GraphQL answer's `errors`. */
export interface TicketingGraphQLError {
  message?: string;
  extensions?: { code?: string } & Record<string, unknown>;
}

export type TicketingFailure =
  /** The service (or the proxy in front of it) answered with an error status or GraphQL errors. */
  | 'answer'
  /** No answer: network failure, proxy says the service is down (502/503/504). */
  | 'unavailable'
  /** The answer had an unexpected shape. */
  | 'invalid';

export interface TicketingErrorOptions {
  operation: string;
  status?: number;
  graphQLErrors?: readonly TicketingGraphQLError[];
  failure: TicketingFailure;
  cause?: unknown;
}

/** The spec's GraphQL error text: the first error's message, else 'GraphQL Error (Code: {status})'. */
export function graphQLErrorMessage(errors: readonly { message?: string }[] | undefined, status: number): string {
  const first = errors?.find((e) => e?.message)?.message;
  return first ?? `GraphQL Error (Code: ${status})`;
}

export class TicketingError extends Error {
  override name = 'TicketingError';
  readonly operation: string;
  readonly status: number | undefined;
  readonly graphQLErrors: readonly TicketingGraphQLError[];
  readonly failure: TicketingFailure;
  constructor(message: string, opts: TicketingErrorOptions) {
    super(message, { cause: opts.cause });
    this.operation = opts.operation;
    this.status = opts.status;
    this.graphQLErrors = opts.graphQLErrors ?? [];
    this.failure = opts.failure;
  }

  /** The `extensions.code` of the first GraphQL error (NOT_FOUND, FORBIDDEN, UNAUTHENTICATED …). */
  get code(): string | undefined {
    return this.graphQLErrors.find((e) => e.extensions?.code)?.extensions?.code;
  }

  /**
   * Whether it is not known if a write happened: no answer arrived (`status` undefined: the
   * network failed, perhaps after the request went out), or 502/504/409 (see `outcomeUnknown`).
   * Sent again with the same idempotency key, the write still happens at most once.
   */
  get outcomeUnknown(): boolean {
    return outcomeUnknown(this.status ?? null);
  }

  /** The visitor's upload stopped arriving and was given up (408): nothing was saved. */
  get stalled(): boolean {
    return this.status === 408;
  }

  /** Whether the record asked for does not exist for the caller (another organisation's included). */
  get notFound(): boolean {
    return this.status === 404 || this.code === 'NOT_FOUND';
  }
}
