import { isServiceUnavailable, RETRY_AFTER_SECONDS } from '../../site/error-page.ts';

/**
 * What a failed revalidation run tells its caller (the content hub's webhook, an operator): the
 * status, and a message in our own words. The run's error itself (an upstream's GraphQL error
 * text, a file path of the lock, a stack) goes to the log only.
 */

/** The fields of a run's error that survive the worker thread (structured clone keeps no class). */
export interface RunFailure {
  message: string;
  /** `ContentError`, `CatalogueError`, `SearchError`, `LockedError` … */
  name?: string;
  /** The service is down or too slow (src/lib/graphql/query.ts ServiceError). */
  unavailable?: boolean;
  failure?: 'timeout' | 'unreachable';
  status?: number;
  operation?: string;
}

type ErrorFields = { message?: unknown; name?: unknown; failure?: unknown; status?: unknown; operation?: unknown; cause?: unknown; constructor?: { name?: string } };

const nameOf = (e: ErrorFields): string | undefined => {
  const name = typeof e.name === 'string' && e.name !== 'Error' ? e.name : e.constructor?.name;
  return name && name !== 'Error' && name !== 'Object' ? name : undefined;
};

/**
 * The fields of an error thrown in the prerender thread, for the message to the server thread:
 * the service's error is looked for along the cause chain (a wrapper names no service).
 */
export function runFailureOf(err: unknown): RunFailure {
  const chain: ErrorFields[] = [];
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as ErrorFields).cause, depth++) chain.push(e as ErrorFields);
  const top: ErrorFields = chain[0] ?? {};
  const service: ErrorFields = chain.find((e) => typeof e.operation === 'string') ?? chain.find((e) => nameOf(e)) ?? top;
  const name = nameOf(service);
  return {
    message: typeof top.message === 'string' ? top.message : String(err),
    ...(name ? { name } : {}),
    ...(isServiceUnavailable(err) ? { unavailable: true } : {}),
    ...(service.failure === 'timeout' || service.failure === 'unreachable' ? { failure: service.failure } : {}),
    ...(typeof service.status === 'number' ? { status: service.status } : {}),
    ...(typeof service.operation === 'string' ? { operation: service.operation } : {}),
  };
}

/** An Error in the server thread carrying a run failure's fields (so isServiceUnavailable sees them). */
export function runFailureError(f: RunFailure): Error {
  return Object.assign(new Error(f.message), f, { name: f.name ?? 'Error' });
}

const SERVICE_NAMES: Record<string, string> = {
  ContentError: 'the content hub',
  CatalogueError: 'the catalogue',
  SearchError: 'the search engine',
};

export interface RevalidationFailureAnswer {
  status: 409 | 502 | 503;
  headers: Record<string, string>;
  body: { error: string; message: string; live: string | null };
}

const PREFIX = 'Revalidation failed, the previous build stays live';

/**
 * The answer to a failed run: 503 with Retry-After when a service the prerender reads is down or
 * too slow (try again later), 409 when another prerender holds the lock, else 502. `live` is the
 * release that keeps being served.
 */
export function revalidationFailureAnswer(err: unknown, live: string | null): RevalidationFailureAnswer {
  const f = runFailureOf(err);
  const who = (f.name && SERVICE_NAMES[f.name]) ?? 'a service it reads';
  if (f.unavailable) {
    const why = f.failure === 'timeout' ? 'it did not answer in time' : f.failure === 'unreachable' ? 'it could not be reached' : `it answered ${f.status ?? 'with an error'}`;
    return { status: 503, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) }, body: { error: 'unavailable', message: `${PREFIX}: ${who} is unavailable (${why}). Try again later.`, live } };
  }
  if (f.name === 'LockedError') {
    return { status: 409, headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) }, body: { error: 'conflict', message: `${PREFIX}: another prerender is writing the release. Try again later.`, live } };
  }
  if (f.name && SERVICE_NAMES[f.name]) {
    return { status: 502, headers: {}, body: { error: 'bad-gateway', message: `${PREFIX}: ${who} answered ${f.operation ? `the ${f.operation} request ` : ''}with an error (details in the server log).`, live } };
  }
  return { status: 502, headers: {}, body: { error: 'bad-gateway', message: `${PREFIX}: the prerender failed (details in the server log).`, live } };
}
