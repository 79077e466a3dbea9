/**
 * The shared state in Redis (or Valkey; PXAT needs 6.2 or later), for several server instances:
 * a revocation or a used token recorded by one instance is seen by all (REDIS_URL, see
 * src/server/boot/shared-state.ts and docs/operations.md). One connection per process; every command
 * is bounded by the upstream timeout, and every failure (no connection, no answer in time, an
 * error answer) rejects with a {@link SharedStateError}, so a security check fails closed.
 * @example
 *   const redis = redisConnection({ url: 'redis://127.0.0.1:6379', commandTimeoutMs: 5000, connectTimeoutMs: 2000 });
 *   const state = redisSharedState(redis);
 *   await state.claim('editor-handoff:used:abc', Date.now() + 60_000); // SET kmx:editor-handoff:used:abc 1 NX PXAT …
 */
import { Redis } from 'ioredis';
import { getLogger } from '../log/index.ts';
import { SharedStateError, type SharedState } from './index.ts';

/** Every key the app writes starts with this: a Redis shared with other applications keeps them apart. */
export const KEY_PREFIX = 'kmx:';

export interface RedisConnectionOptions {
  /** `redis://[user:password@]host[:port][/db]`, or `rediss://` for TLS. */
  url: string;
  /** How long one command may take (UPSTREAM_TIMEOUT_MS): past it, the command fails. */
  commandTimeoutMs: number;
  /** How long opening the connection may take (UPSTREAM_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs: number;
  /** Default {@link KEY_PREFIX}; tests give each case a prefix of its own. */
  prefix?: string;
}

export interface RedisConnection {
  /** Runs one command (`what` names it in the error): any failure becomes a {@link SharedStateError}. */
  run<T>(what: string, command: (client: Redis) => Promise<T>): Promise<T>;
  /** Sends `message` to every instance subscribed to `channel` (under the connection's prefix, as keys are). */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Calls `listener` with every message on `channel`, over a second connection (a subscribed one
   * takes no other commands) that re-subscribes by itself after a reconnect. Resolves once
   * subscribed; the function it gives unsubscribes.
   */
  subscribe(channel: string, listener: (message: string) => void): Promise<() => Promise<void>>;
  /** Ends the connection (waits for the commands under way when it is open). */
  close(): Promise<void>;
}

const log = getLogger('shared-state');

/**
 * The process's connection to Redis. It opens on the first command and reconnects by itself;
 * commands sent while it is down fail at the next failed attempt to connect (never queued for
 * long), and none waits longer than `commandTimeoutMs`.
 */
export function redisConnection(opts: RedisConnectionOptions): RedisConnection {
  // Only host and port in messages: the URL may carry a password.
  const where = new URL(opts.url).host;
  const client = new Redis(opts.url, {
    keyPrefix: opts.prefix ?? KEY_PREFIX,
    lazyConnect: true,
    connectTimeout: opts.connectTimeoutMs,
    commandTimeout: opts.commandTimeoutMs,
    // A command waiting for the connection fails as soon as an attempt to connect does.
    maxRetriesPerRequest: 0,
  });
  let down = false;
  client.on('error', (err: Error) => {
    // Once per outage (the client retries every few seconds), not once per attempt.
    if (!down) log.warn(`Redis at ${where} cannot be reached (${err.message}): editor sessions are refused with 503, rate limits and idempotency keys are kept per instance until it answers`);
    down = true;
  });
  client.on('ready', () => {
    if (down) log.warn(`Redis at ${where} answers again`);
    down = false;
  });
  const prefix = opts.prefix ?? KEY_PREFIX;
  let subscriber: Redis | null = null;
  const listeners = new Map<string, Set<(message: string) => void>>();
  const subscriberClient = (): Redis => {
    if (subscriber) return subscriber;
    // Its own error handler: the main connection's one already says when Redis cannot be reached.
    subscriber = client.duplicate({ lazyConnect: true });
    subscriber.on('error', () => {});
    subscriber.on('message', (channel: string, message: string) => {
      for (const listener of listeners.get(channel) ?? []) listener(message);
    });
    return subscriber;
  };
  const connection: RedisConnection = {
    async run(what, command) {
      try {
        return await command(client);
      } catch (err) {
        const timedOut = err instanceof Error && err.message === 'Command timed out';
        const message = timedOut
          ? `Redis at ${where} did not answer ${what} within ${opts.commandTimeoutMs} ms (UPSTREAM_TIMEOUT_MS)`
          : `Redis at ${where} could not be asked ${what}: ${err instanceof Error ? err.message : String(err)}`;
        throw new SharedStateError(message, { cause: err });
      }
    },
    async publish(channel, message) {
      await connection.run('PUBLISH', (c) => c.publish(prefix + channel, message));
    },
    async subscribe(channel, listener) {
      const name = prefix + channel;
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener);
      const sub = subscriberClient();
      try {
        await sub.subscribe(name);
      } catch (err) {
        set.delete(listener);
        throw new SharedStateError(`Redis at ${where} could not be asked SUBSCRIBE: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      return async () => {
        set.delete(listener);
        if (set.size === 0 && subscriber === sub) {
          listeners.delete(name);
          await sub.unsubscribe(name).catch(() => undefined);
        }
      };
    },
    async close() {
      const sub = subscriber;
      subscriber = null;
      listeners.clear();
      sub?.disconnect();
      if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
      else client.disconnect();
    },
  };
  return connection;
}

/** The {@link SharedState} over a Redis connection: `claim` = `SET key 1 NX PXAT expiresAt`, `has` = `EXISTS key`. */
export function redisSharedState(redis: RedisConnection): SharedState {
  return {
    async claim(key, expiresAt) {
      // PXAT takes a positive whole number; a time already past records nothing (as in memory).
      const at = Math.max(1, Math.ceil(expiresAt));
      return (await redis.run('SET NX PXAT', (c) => c.set(key, '1', 'PXAT', at, 'NX'))) === 'OK';
    },
    async has(key) {
      return (await redis.run('EXISTS', (c) => c.exists(key))) === 1;
    },
  };
}
