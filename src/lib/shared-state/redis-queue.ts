/**
 * A job queue with exactly one writer across every instance, in Redis (the revalidation webhook's:
 * src/server/cluster/revalidation.ts). Any instance submits; the instance holding the writer lock
 * takes EVERY job waiting, runs them as one batch, and tells each submitter its result.
 *
 *   <name>:queue    list of submitted jobs (`{ id, job }` JSON)
 *   <name>:running  the batch being run: a writer that dies leaves it there, the next one runs it again
 *   <name>:writer   the lock: the writer's token, expiring after `lockMs`, renewed every third of it
 *   <name>:done     pub/sub channel: `{ ids, result }` or `{ ids, failure }` after each batch
 *
 * Jobs that arrive during a run wait in the queue and make up the next batch (coalesced, none
 * lost). The writer lets go of the lock only when the queue is empty, in one step with that check,
 * so a job pushed at that moment is either seen by the writer or finds the lock free. While a
 * submitter waits it tries for the lock now and then, so the jobs of a writer that died (its lock
 * expired) are run by another instance.
 * @example
 *   const queue = await redisJobQueue(redis, { name: 'revalidate', run: (jobs) => prerender(merge(jobs)) });
 *   const result = await queue.submit({ ids: ['abc'] }); // on whichever instance runs it
 */
import { randomBytes } from 'node:crypto';
import { getLogger } from '../log/index.ts';
import type { RedisConnection } from './redis.ts';

const log = getLogger('shared-state');

export interface JobQueueOptions<J, R> {
  /** Names the keys and channel (`<name>:queue` …). */
  name: string;
  /** Runs one batch (one at a time across all instances). Its result and failure travel as JSON. */
  run(jobs: J[]): Promise<R>;
  /** A failure as JSON (default: its message), and back to an Error on the submitter. */
  failureOf?: (err: unknown) => unknown;
  errorOf?: (failure: unknown) => Error;
  /** How long the lock lives without renewal (a dead writer's jobs wait this long). Default 30 s. */
  lockMs?: number;
}

export interface JobQueue<J, R> {
  /**
   * Queues `job`; resolves with the result of the batch that ran it (on any instance), or rejects
   * with its failure. Rejects at once with a SharedStateError when the job cannot be queued.
   */
  submit(job: J): Promise<R>;
  /** Stops listening (a batch under way here still finishes). */
  close(): Promise<void>;
}

/** Moves every queued job behind the running batch (what a dead writer left comes first) and gives the whole batch; nothing when the lock is not ours. */
const TAKE = `if redis.call('GET', KEYS[3]) ~= ARGV[1] then return false end
local queued = redis.call('LRANGE', KEYS[1], 0, -1)
redis.call('DEL', KEYS[1])
for _, job in ipairs(queued) do redis.call('RPUSH', KEYS[2], job) end
return redis.call('LRANGE', KEYS[2], 0, -1)`;
/** The batch is done: forget it (only while the lock is ours). */
const DONE = `if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0`;
/** Lets go of the lock only when nothing waits: 1 released, 0 jobs wait (go on). */
const RELEASE = `if redis.call('LLEN', KEYS[1]) > 0 then return 0 end
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return 1`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

interface Entry<J> { id: string; job: J }
interface Done<R> { ids: string[]; result?: R; failure?: unknown }

/** Renews the writer lock every third of its time while a batch runs; `onLost` when another instance holds it now. */
function keepLock(redis: RedisConnection, key: string, token: string, lockMs: number, name: string, onLost: () => void): NodeJS.Timeout {
  const renewal = setInterval(() => {
    void redis.run('queue lock renewal', (c) => c.eval(RENEW, 1, key, token, lockMs) as Promise<number>).then(
      (ok) => { if (!ok) onLost(); },
      (err: Error) => log.warn(`the ${name} writer lock could not be renewed: ${err.message}`),
    );
  }, Math.max(10, Math.floor(lockMs / 3)));
  renewal.unref();
  return renewal;
}

/** Runs the jobs taken from the queue as one batch: its result, or its failure as data, for every submitter of it. */
async function runBatch<J, R>(raw: string[], run: (jobs: J[]) => Promise<R>, failureOf: (err: unknown) => unknown): Promise<Done<R>> {
  const batch = raw.map((s) => JSON.parse(s) as Entry<J>);
  const ids = [...new Set(batch.map((e) => e.id))];
  try {
    return { ids, result: await run(batch.map((e) => e.job)) };
  } catch (err) {
    return { ids, failure: failureOf(err) };
  }
}

/** A {@link JobQueue} over the process's Redis connection; resolves once it listens for results. */
export async function redisJobQueue<J, R>(redis: RedisConnection, opts: JobQueueOptions<J, R>): Promise<JobQueue<J, R>> {
  const lockMs = opts.lockMs ?? 30_000;
  const keys = { queue: `${opts.name}:queue`, running: `${opts.name}:running`, writer: `${opts.name}:writer` };
  const channel = `${opts.name}:done`;
  const failureOf = opts.failureOf ?? ((err: unknown) => ({ message: err instanceof Error ? err.message : String(err) }));
  const errorOf = opts.errorOf ?? ((f: unknown) => new Error((f as { message?: string })?.message ?? 'the job failed'));
  /** This instance's lock token. */
  const token = randomBytes(12).toString('hex');
  const waiting = new Map<string, { resolve(r: R): void; reject(err: Error): void }>();
  let draining = false;
  let again = false;
  let watchdog: NodeJS.Timeout | null = null;
  let closed = false;

  const settle = (done: Done<R>) => {
    for (const id of done.ids) {
      const w = waiting.get(id);
      if (!w) continue;
      waiting.delete(id);
      if ('failure' in done) w.reject(errorOf(done.failure));
      else w.resolve(done.result as R);
    }
    if (waiting.size === 0 && watchdog) {
      clearInterval(watchdog);
      watchdog = null;
    }
  };
  const unsubscribe = await redis.subscribe(channel, (message) => {
    try {
      settle(JSON.parse(message) as Done<R>);
    } catch (err) {
      log.error(`a malformed message on ${channel}: ${(err as Error).message}`);
    }
  });

  /** Runs batches while this instance holds the lock and jobs wait. */
  async function drain(): Promise<void> {
    if (draining) {
      again = true;
      return;
    }
    draining = true;
    let renewal: NodeJS.Timeout | null = null;
    try {
      do {
        again = false;
        const got = await redis.run('queue lock', (c) => c.set(keys.writer, token, 'PX', lockMs, 'NX'));
        if (got !== 'OK') return;
        let held = true;
        renewal = keepLock(redis, keys.writer, token, lockMs, opts.name, () => { held = false; });
        while (held && !closed) {
          const raw = await redis.run('queue take', (c) => c.eval(TAKE, 3, keys.queue, keys.running, keys.writer, token) as Promise<string[] | null>);
          if (!raw) break;
          if (raw.length === 0) {
            const released = await redis.run('queue release', (c) => c.eval(RELEASE, 2, keys.queue, keys.writer, token) as Promise<number>);
            if (released) break;
            continue;
          }
          const done = await runBatch(raw, opts.run, failureOf);
          // The submitters here hear it at once, the others over the channel.
          settle(done);
          await redis.publish(channel, JSON.stringify(done));
          await redis.run('queue done', (c) => c.eval(DONE, 2, keys.running, keys.writer, token));
        }
        clearInterval(renewal);
        renewal = null;
        // A lost lock with jobs left: whoever holds it now runs them.
      } while (again && !closed);
    } finally {
      if (renewal) clearInterval(renewal);
      draining = false;
    }
  }

  const tryDrain = () => {
    drain().catch((err: Error) => log.warn(`the ${opts.name} queue could not be worked (tried again while jobs wait): ${err.message}`));
  };

  return {
    async submit(job) {
      const id = randomBytes(12).toString('hex');
      const result = new Promise<R>((resolve, reject) => waiting.set(id, { resolve, reject }));
      try {
        await redis.run('queue push', (c) => c.rpush(keys.queue, JSON.stringify({ id, job } satisfies Entry<J>)));
      } catch (err) {
        waiting.delete(id);
        throw err;
      }
      tryDrain();
      // A writer that died leaves its lock to expire: the jobs it took are run by whoever takes it next.
      watchdog ??= setInterval(tryDrain, Math.max(10, Math.floor(lockMs / 2)));
      watchdog.unref();
      return result;
    },
    async close() {
      closed = true;
      if (watchdog) clearInterval(watchdog);
      watchdog = null;
      await unsubscribe().catch(() => undefined);
    },
  };
}
