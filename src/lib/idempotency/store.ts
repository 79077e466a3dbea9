import { LRUCache } from 'lru-cache';
import { IDEMPOTENCY_TTL_MS } from './key.ts';

/**
 * Where the first result of each idempotency key is kept (server only). One interface: the
 * in-process store below (one instance), or the Redis one (src/lib/shared-state/redis-idempotency.ts)
 * that the server registers when REDIS_URL is set, so a retry that lands on another instance gets
 * the first answer too (see {@link processIdempotencyStore}).
 */

export type BeginResult<T> =
  /** The key is new (or its earlier attempt was released): the caller runs the write and then finishes or releases it. */
  | { kind: 'started' }
  /** The key's write finished before: its result. */
  | { kind: 'done'; value: T }
  /** The same key is being worked on right now (a double click, a retry racing the first attempt). */
  | { kind: 'in-progress' }
  /** The key was used for a different request (another body or target). */
  | { kind: 'mismatch' };

export interface IdempotencyStore<T> {
  /** Claims `id` for a request with `fingerprint`, or says what holds it. */
  begin(id: string, fingerprint: string): Promise<BeginResult<T>>;
  /** Keeps `value` as the result of `id` for the TTL. */
  finish(id: string, fingerprint: string, value: T): Promise<void>;
  /** Lets go of a claim whose write did not settle (a failure, an unknown outcome): the next attempt runs again. */
  release(id: string): Promise<void>;
}

type Entry<T> = { fingerprint: string; state: 'pending'; since: number } | { fingerprint: string; state: 'done'; value: T };

export interface MemoryStoreOptions<T> {
  /** Keys remembered at most (least recently used go first). Default 10,000. */
  max?: number;
  /** How long a result is kept. Default 24 h. */
  ttlMs?: number;
  /**
   * How long a claim may stay pending before another attempt may take it over (a write that
   * never finished, e.g. its handler threw past the release). Default 2 minutes: longer than any
   * call to a service may take (UPSTREAM_TIMEOUT_MS).
   */
  pendingMs?: number;
  /** The size of a result in bytes, for `maxBytes`. Default: its JSON length. */
  sizeOf?: (value: T) => number;
  /** Bytes of results kept at most. Default 16 MiB. */
  maxBytes?: number;
  now?: () => number;
}

/** The in-process store: bounded in keys and bytes, entries expire after the TTL. */
export function memoryIdempotencyStore<T>(opts: MemoryStoreOptions<T> = {}): IdempotencyStore<T> & { readonly size: number } {
  const now = opts.now ?? Date.now;
  const pendingMs = opts.pendingMs ?? 120_000;
  const sizeOf = opts.sizeOf ?? ((value: T) => JSON.stringify(value)?.length ?? 1);
  const entries = new LRUCache<string, Entry<T>>({
    max: opts.max ?? 10_000,
    maxSize: opts.maxBytes ?? 16 * 1024 * 1024,
    sizeCalculation: (e) => Math.max(1, e.fingerprint.length + (e.state === 'done' ? sizeOf(e.value) : 0)),
    ttl: opts.ttlMs ?? IDEMPOTENCY_TTL_MS,
    ttlAutopurge: false,
    // Every read asks the clock (the default caches it for 1 ms, which an injected clock would outlive).
    ttlResolution: 0,
    perf: { now },
  });
  return {
    async begin(id, fingerprint) {
      const found = entries.get(id);
      if (found) {
        if (found.fingerprint !== fingerprint) return { kind: 'mismatch' };
        if (found.state === 'done') return { kind: 'done', value: found.value };
        if (now() - found.since < pendingMs) return { kind: 'in-progress' };
      }
      entries.set(id, { fingerprint, state: 'pending', since: now() });
      return { kind: 'started' };
    },
    async finish(id, fingerprint, value) {
      entries.set(id, { fingerprint, state: 'done', value });
    },
    async release(id) {
      const found = entries.get(id);
      if (found?.state === 'pending') entries.delete(id);
    },
    get size() {
      return entries.size;
    },
  };
}

export type Once<T> =
  | { kind: 'fresh'; value: T }
  | { kind: 'replayed'; value: T }
  | { kind: 'in-progress' }
  | { kind: 'mismatch' };

/**
 * Runs `write` once per key: a finished key gives its first result (`replayed`), a key being
 * worked on or used for another request says so. `write` says whether its result settles the
 * key (`keep`: it is stored for the TTL) or not (a failure, an unknown outcome: released, so a
 * retry runs it again, and the service behind it, which gets the same key, answers the retry
 * with its own first result). A write that throws releases the key.
 * @example const r = await once(store, `forms:${key}`, hash, async () => { const out = await submit(); return { value: out, keep: out.ok }; });
 */
export async function once<T>(store: IdempotencyStore<T>, id: string, fingerprint: string, write: () => Promise<{ value: T; keep: boolean }>): Promise<Once<T>> {
  const begun = await store.begin(id, fingerprint);
  if (begun.kind === 'done') return { kind: 'replayed', value: begun.value };
  if (begun.kind !== 'started') return begun;
  let result: { value: T; keep: boolean };
  try {
    result = await write();
  } catch (err) {
    await store.release(id);
    throw err;
  }
  if (result.keep) await store.finish(id, fingerprint, result.value);
  else await store.release(id);
  return { kind: 'fresh', value: result.value };
}

/** Makes a shared store per name (Redis), registered by the server when REDIS_URL is set. */
export type SharedIdempotencyFactory = <T>(name: string) => IdempotencyStore<T>;

/**
 * The registered factory, on globalThis: the server runs this module from source and the built app
 * bundles its own copy, and both must use the one connection.
 */
const SHARED = Symbol.for('komax.idempotency.shared-store');
const slot = globalThis as unknown as Record<symbol, { factory: SharedIdempotencyFactory; onError: (err: unknown) => void } | undefined>;

/** Makes every {@link processIdempotencyStore} of this process use `factory`'s stores (null: memory again). */
export function setSharedIdempotency(factory: SharedIdempotencyFactory | null, onError: (err: unknown) => void = () => {}): void {
  slot[SHARED] = factory ? { factory, onError } : undefined;
}

/**
 * The store of an endpoint (`name` keeps endpoints apart): the shared one when the server
 * registered it, else `memory`. When the shared store cannot be asked, the call goes to `memory`
 * (fails open): every write also carries its key to the service behind it (ticketing, identity,
 * the content hub's forms), which makes it once, so availability wins over a replay a retry on
 * another instance might miss (docs/operations.md, "Several server instances").
 */
export function processIdempotencyStore<T>(name: string, memory: IdempotencyStore<T>): IdempotencyStore<T> {
  const stores = new WeakMap<SharedIdempotencyFactory, IdempotencyStore<T>>();
  const call = async <R>(use: (store: IdempotencyStore<T>) => Promise<R>): Promise<R> => {
    const shared = slot[SHARED];
    if (!shared) return use(memory);
    let store = stores.get(shared.factory);
    if (!store) {
      store = shared.factory<T>(name);
      stores.set(shared.factory, store);
    }
    try {
      return await use(store);
    } catch (err) {
      shared.onError(err);
      return use(memory);
    }
  };
  return {
    begin: (id, fingerprint) => call((s) => s.begin(id, fingerprint)),
    finish: (id, fingerprint, value) => call((s) => s.finish(id, fingerprint, value)),
    release: (id) => call((s) => s.release(id)),
  };
}
