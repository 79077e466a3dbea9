import * as v from 'valibot';
import { describeFetchFailure, resolveTimeouts, timedFetch, type UpstreamTimeouts } from '../http/timeouts.ts';
import type { Logger } from '../log/index.ts';

/**
 * One JSON call to identity management (`…/openidm`) with the signed-in user's token, shared by
 * the account client (management.ts) and the user-administration client (admin.ts): timeouts,
 * the body read once, the answer checked with valibot. Each client turns the three ways a call
 * fails into its own typed error.
 */
export interface IdmFailures {
  /** No answer (refused, timed out): `message` says which. */
  unreachable(message: string, cause: unknown): Error;
  /** An error status; `body` is the parsed JSON answer or null. */
  rejected(status: number, body: unknown): Error;
  /** A 2xx answer that is not JSON or not of the expected shape. */
  invalid(why: string, status: number, cause: unknown): Error;
}

export async function idmCall<S extends v.GenericSchema>(
  call: { url: string; operation: string; timeouts?: UpstreamTimeouts; log: Logger },
  init: { method: string; accessToken: string; body?: unknown; headers?: Record<string, string> },
  schema: S,
  fail: IdmFailures,
): Promise<v.InferOutput<S>> {
  const timeouts = resolveTimeouts(call.timeouts);
  let res: Response;
  try {
    res = await timedFetch(call.url, {
      method: init.method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${init.accessToken}`,
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    }, timeouts);
  } catch (err) {
    const failure = describeFetchFailure(err, timeouts);
    call.log.error(`${call.operation}: identity management unreachable: ${failure.message}`);
    throw fail.unreachable(failure.message, err);
  }
  let body: unknown = null;
  let readError: unknown;
  try {
    const text = await res.text();
    body = text ? JSON.parse(text) : null;
  } catch (err) {
    readError = err;
  }
  if (!res.ok) throw fail.rejected(res.status, body);
  const parsed = v.safeParse(schema, body);
  if (readError !== undefined || !parsed.success) {
    const why = readError !== undefined ? 'not JSON' : `${parsed.issues?.[0]?.message ?? 'unexpected shape'}`;
    call.log.error(`${call.operation}: unexpected answer from identity management (${why})`);
    throw fail.invalid(why, res.status, readError);
  }
  return parsed.output;
}
