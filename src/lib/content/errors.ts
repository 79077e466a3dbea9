/** A failed call to the content hub; keeps the operation, the HTTP status and the cause. */
export class ContentError extends Error {
  override name = 'ContentError';
  readonly operation: string;
  readonly status: number | undefined;
  constructor(message: string, opts: { operation: string; status?: number; cause?: unknown }) {
    super(message, { cause: opts.cause });
    this.operation = opts.operation;
    this.status = opts.status;
  }
}

/** The spec's GraphQL error text: the first error's message, else 'GraphQL Error (Code: {status})'. */
export function graphQLErrorMessage(errors: { message?: string }[] | undefined, status: number): string {
  const first = errors?.find((e) => e?.message)?.message;
  return first ?? `GraphQL Error (Code: ${status})`;
}
