import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisConnection, type RedisConnection } from './redis.ts';
import { redisJobQueue, type JobQueue, type JobQueueOptions } from './redis-queue.ts';
import { ensureRedisServer, startRedis, type RunningRedis } from '../../../tests/support/redis.ts';

const server = ensureRedisServer();
// Limits that only catch a hang (the first command to a redis-server just started, on a busy
// machine beside the e2e run, once took over 2 s): tests wait for conditions, never for these.
const TIMEOUTS = { commandTimeoutMs: 30_000, connectTimeoutMs: 10_000 };

/** A run the test finishes by hand. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => { open = r; });
  return { open, opened };
}

describe.skipIf('skip' in server)('the job queue with one writer in Redis (a real redis-server)', () => {
  let redis: RunningRedis;
  let raw: Redis;
  const opened: RedisConnection[] = [];
  const queues: JobQueue<unknown, unknown>[] = [];
  /** One "instance": its own connection and queue, all of a test under one prefix. */
  async function instance<J, R>(prefix: string, opts: JobQueueOptions<J, R>): Promise<JobQueue<J, R> & { connection: RedisConnection }> {
    const connection = redisConnection({ url: redis.url, ...TIMEOUTS, prefix });
    opened.push(connection);
    const queue = await redisJobQueue(connection, opts);
    queues.push(queue as JobQueue<unknown, unknown>);
    return Object.assign(queue, { connection });
  }
  const prefix = () => `test-${randomBytes(6).toString('hex')}:`;

  beforeAll(async () => {
    redis = await startRedis((server as { path: string }).path);
    raw = new Redis(redis.url, { lazyConnect: true });
  });
  afterAll(async () => {
    await Promise.all(queues.map((q) => q.close()));
    await Promise.all(opened.map((c) => c.close()));
    raw?.disconnect();
    await redis?.stop();
  });

  it('one writer at a time across instances; jobs arriving during a run are coalesced into the next; every submitter gets its batch\'s result', async () => {
    const p = prefix();
    const batches: string[][] = [];
    let running = 0;
    let most = 0;
    const first = gate();
    const run = (who: string) => async (jobs: string[]) => {
      running++;
      most = Math.max(most, running);
      batches.push([...jobs].sort());
      if (batches.length === 1) await first.opened;
      running--;
      return `${who} ran ${[...jobs].sort().join('+')}`;
    };
    const a = await instance<string, string>(p, { name: 'revalidate', run: run('a') });
    const b = await instance<string, string>(p, { name: 'revalidate', run: run('b') });
    const one = a.submit('1');
    await expect.poll(() => batches.length).toBe(1);
    // During the run: three more webhooks, on both instances.
    const later = [b.submit('2'), a.submit('3'), b.submit('4')];
    // They are queued, not run (a's run holds the lock).
    await expect.poll(() => raw.llen(`${p}revalidate:queue`)).toBe(3);
    expect(batches).toHaveLength(1);
    first.open();
    expect(await one).toBe('a ran 1');
    const results = await Promise.all(later);
    // One more run for the three of them, by whichever instance took the lock.
    expect(batches).toEqual([['1'], ['2', '3', '4']]);
    expect(new Set(results).size).toBe(1);
    expect(results[0]).toMatch(/^[ab] ran 2\+3\+4$/);
    expect(most).toBe(1);
    // Then nothing is left (the writer tidies up after answering): no lock, no queue, no running batch.
    await expect.poll(() => raw.exists(`${p}revalidate:writer`, `${p}revalidate:queue`, `${p}revalidate:running`)).toBe(0);
  });

  it('a failed run rejects every submitter of its batch, on the other instance too', async () => {
    const p = prefix();
    const first = gate();
    let runs = 0;
    // Every instance runs the same code: how a failure travels is the same on both.
    const travel = {
      failureOf: (err: unknown) => ({ message: (err as Error).message, status: (err as { status?: number }).status }),
      errorOf: (f: unknown) => Object.assign(new Error((f as { message: string }).message), f as object),
    };
    const a = await instance<string, string>(p, {
      name: 'q',
      ...travel,
      run: async () => {
        if (++runs === 1) {
          await first.opened;
          return 'ok';
        }
        throw Object.assign(new Error('the content hub is down'), { status: 503 });
      },
    });
    const b = await instance<string, string>(p, { name: 'q', ...travel, run: () => Promise.reject(new Error('b never writes here')) });
    const held = a.submit('x');
    await expect.poll(() => runs).toBe(1);
    const failing = b.submit('y');
    // Queued while a holds the lock: a runs it next.
    await expect.poll(() => raw.llen(`${p}q:queue`)).toBe(1);
    first.open();
    await held;
    await expect(failing).rejects.toMatchObject({ message: 'the content hub is down', status: 503 });
  });

  it('the batch of a writer that died is run by another instance once its lock expires', async () => {
    const p = prefix();
    const ran: string[][] = [];
    // A writer that takes the batch and never comes back (its process gone: no renewal, no answer).
    const dead = await instance<string, string>(p, { name: 'q', lockMs: 300, run: () => new Promise<string>(() => {}) });
    void dead.submit('lost').catch(() => undefined);
    await expect.poll(() => raw.llen(`${p}q:running`)).toBe(1);
    await dead.close();
    await dead.connection.close();
    const b = await instance<string, string>(p, { name: 'q', lockMs: 300, run: async (jobs) => { ran.push([...jobs].sort()); return 'done'; } });
    expect(await b.submit('mine')).toBe('done');
    expect(ran.flat().sort()).toEqual(['lost', 'mine']);
  });
});
