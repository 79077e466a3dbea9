import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while handling a request carries. */
export interface RequestContext {
  reqId: string;
}

// One store per process (per thread), shared through globalThis: the server runs this module from
// source and the built app bundles its own copy, and both must see the request being handled.
const KEY = Symbol.for('komax.log.requestContext');
const slot = globalThis as unknown as Record<symbol, AsyncLocalStorage<RequestContext> | undefined>;
const storage: AsyncLocalStorage<RequestContext> = (slot[KEY] ??= new AsyncLocalStorage<RequestContext>());

/** Runs `fn` (and everything it starts) as part of the request `ctx`. */
export function runWithRequestContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.reqId;
}
