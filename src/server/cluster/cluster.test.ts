import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisConnection, type RedisConnection } from '../../lib/shared-state/redis.ts';
import { parseServerEnv } from '../boot/env.ts';
import type { PrerenderResult } from '../prerender/run.ts';
import { createRevalidation, type RevalidateRequest } from '../revalidate/revalidate.ts';
import { runFailureError } from '../revalidate/revalidate-failure.ts';
import { mergeRevalidations, sharedRevalidation } from './revalidation.ts';
import { watchRelease, type ReleaseWatch } from './release-watch.ts';
import { ensureRedisServer, freePort, startRedis, type RunningRedis } from '../../../tests/support/redis.ts';

const server = ensureRedisServer();
const TIMEOUTS = { commandTimeoutMs: 30_000, connectTimeoutMs: 10_000 };
const env = parseServerEnv({ REVALIDATE_SECRET: 'a-revalidation-secret' });

const result = (releaseId: string, scope: 'full' | 'targeted' = 'full'): PrerenderResult => ({
  releaseId, rendered: 1, unchanged: 0, removed: 0, failed: [], total: 1, seconds: 0.5,
  collectSeconds: 0, linkSeconds: 0, renderSeconds: 0, publishSeconds: 0, stageSeconds: 0, pagesPerSecond: 0, scope,
});

describe('mergeRevalidations', () => {
  it('adds up ids, slugs and records; a request for everything keeps the merged one for everything', () => {
    const a = { ids: ['p1'], records: [{ model: 'Page', id: 'p1' }] };
    const b = { slugs: ['news'], records: [{ model: 'Story', id: 's1' }] };
    expect(mergeRevalidations(a, b)).toEqual({ ids: ['p1'], slugs: ['news'], all: undefined, records: [{ model: 'Page', id: 'p1' }, { model: 'Story', id: 's1' }] });
    expect(mergeRevalidations(a, {}).records).toBeUndefined();
    expect(mergeRevalidations({}, { all: true }).all).toBe(true);
  });
});

describe.skipIf('skip' in server)('several instances over one Redis (a real redis-server)', () => {
  let redis: RunningRedis;
  const opened: RedisConnection[] = [];
  const connection = (prefix: string, url = redis.url) => {
    const c = redisConnection({ url, ...TIMEOUTS, prefix });
    opened.push(c);
    return c;
  };
  const prefix = () => `test-${randomBytes(6).toString('hex')}:`;
  /** Webhooks waiting in the shared queue. */
  const queued = (p: string) => connection(p).run('LLEN', (c) => c.llen('revalidate:queue'));
  beforeAll(async () => {
    redis = await startRedis((server as { path: string }).path);
  });
  afterAll(async () => {
    await Promise.all(opened.map((c) => c.close()));
    await redis?.stop();
  });

  it('webhooks on two instances: one writer at a time, those arriving during a run merged into the next, each answered with its run\'s result', async () => {
    const p = prefix();
    const runs: { who: string; force: RevalidateRequest }[] = [];
    let active = 0;
    let most = 0;
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((r) => { releaseFirst = r; });
    const instance = (who: string) => createRevalidation({
      distDir: tmpdir(), env, safetyNetMs: 0,
      runPrerender: async (force) => {
        active++;
        most = Math.max(most, active);
        runs.push({ who, force: structuredClone(force) });
        if (runs.length === 1) await firstHeld;
        active--;
        return result(`${who}${runs.length}`.padEnd(8, '0'));
      },
      shared: (runHere) => sharedRevalidation(connection(p), runHere),
    });
    const [a, b] = [instance('a'), instance('b')];
    try {
      const first = a.run({ ids: ['p1'] });
      await expect.poll(() => runs.length).toBe(1);
      const during = [b.run({ ids: ['p2'] }), a.run({ slugs: ['news'] }), b.run({ ids: ['p3'] })];
      // All three wait in the queue while the first run holds the writer's lock.
      await expect.poll(() => queued(p)).toBe(3);
      expect(runs).toHaveLength(1);
      releaseFirst();
      expect((await first).releaseId).toBe('a1000000');
      const answers = await Promise.all(during);
      expect(runs).toHaveLength(2);
      expect(runs[1]!.force.ids?.sort()).toEqual(['p2', 'p3']);
      expect(runs[1]!.force.slugs).toEqual(['news']);
      // Every webhook of the second run gets that run's answer, on the instance it came to.
      expect(new Set(answers.map((r) => r.releaseId)).size).toBe(1);
      expect(answers[0]!.releaseId).toBe(`${runs[1]!.who}2`.padEnd(8, '0'));
      expect(most).toBe(1);
    } finally {
      a.close();
      b.close();
    }
  });

  it('a failed run answers the webhook on the other instance with the run\'s failure (its service, down or not)', async () => {
    const p = prefix();
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((r) => { releaseFirst = r; });
    let calls = 0;
    const failing = createRevalidation({
      distDir: tmpdir(), env, safetyNetMs: 0,
      runPrerender: async () => {
        if (++calls === 1) {
          await firstHeld;
          return result('aaaaaaaa');
        }
        throw runFailureError({ message: 'content hub down', name: 'ContentError', unavailable: true, failure: 'unreachable' });
      },
      shared: (runHere) => sharedRevalidation(connection(p), runHere),
    });
    const other = createRevalidation({ distDir: tmpdir(), env, safetyNetMs: 0, runPrerender: () => Promise.reject(new Error('not the writer')), shared: (runHere) => sharedRevalidation(connection(p), runHere) });
    try {
      const first = failing.run({});
      await expect.poll(() => calls).toBe(1);
      const answer = other.run({ ids: ['x'] }).catch((e: unknown) => e);
      await expect.poll(() => queued(p)).toBe(1);
      releaseFirst();
      await first;
      expect(await answer).toMatchObject({ message: 'content hub down', name: 'ContentError', unavailable: true, failure: 'unreachable' });
    } finally {
      failing.close();
      other.close();
    }
  });

  it('with Redis unreachable the webhook runs on the instance that received it', async () => {
    const runs: RevalidateRequest[] = [];
    const down = `redis://127.0.0.1:${await freePort()}`;
    const alone = createRevalidation({
      distDir: tmpdir(), env, safetyNetMs: 0,
      runPrerender: async (force) => { runs.push(force); return result('bbbbbbbb'); },
      shared: (runHere) => sharedRevalidation(connection(prefix(), down), runHere),
    });
    try {
      expect((await alone.run({ ids: ['p9'] })).releaseId).toBe('bbbbbbbb');
      expect(runs).toEqual([{ ids: ['p9'] }]);
    } finally {
      alone.close();
    }
  });

  describe('the search reload when the live release changes', () => {
    const dirs: string[] = [];
    const watches: ReleaseWatch[] = [];
    afterAll(async () => {
      await Promise.all(watches.map((w) => w.close()));
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    });
    /** A release tree and search folder on "shared disk". */
    function disk() {
      const root = mkdtempSync(join(tmpdir(), 'kmx-release-watch-'));
      dirs.push(root);
      const staticRoot = join(root, 'static');
      const searchDir = join(root, 'search');
      mkdirSync(join(staticRoot, 'releases'), { recursive: true });
      mkdirSync(searchDir);
      /** What a prerender does: a new release live, then a new index manifest. */
      const publish = (id: string) => {
        mkdirSync(join(staticRoot, 'releases', id));
        symlinkSync(`releases/${id}`, join(staticRoot, 'live.tmp'));
        renameSync(join(staticRoot, 'live.tmp'), join(staticRoot, 'live'));
        writeFileSync(join(searchDir, 'manifest.json.tmp'), JSON.stringify({ id }));
        renameSync(join(searchDir, 'manifest.json.tmp'), join(searchDir, 'manifest.json'));
      };
      return { staticRoot, searchDir, publish };
    }
    async function watcher(d: ReturnType<typeof disk>, redisConnection: RedisConnection | null, intervalMs: number) {
      const reloads: number[] = [];
      const watch = await watchRelease({ staticRoot: d.staticRoot, searchDir: d.searchDir, redis: redisConnection, intervalMs, reload: async () => { reloads.push(Date.now()); } });
      watches.push(watch);
      return { watch, reloads };
    }

    it('the writer\'s announcement makes another instance reload at once (not waiting for its look at the files)', async () => {
      const p = prefix();
      const d = disk();
      // Looks at the files only once an hour: only the message can make it reload in time.
      const writer = await watcher(d, connection(p), 3_600_000);
      const other = await watcher(d, connection(p), 3_600_000);
      await other.watch.check();
      d.publish('mf0000000001');
      const published = Date.now();
      await writer.watch.announce();
      await expect.poll(() => other.reloads.length, { timeout: 1000 }).toBe(1);
      expect(other.reloads[0]! - published).toBeLessThan(1000);
      // The writer had loaded the files itself: no second reload there.
      expect(writer.reloads).toEqual([]);
      // A second announcement of the same files changes nothing.
      await writer.watch.announce();
      await other.watch.check();
      expect(other.reloads).toHaveLength(1);
    });

    it('an instance that missed the message finds the new release on disk within its interval', async () => {
      const d = disk();
      const missed = await watcher(d, null, 50);
      // Looks that find nothing new come first (as every tick does between releases).
      await missed.watch.check();
      await missed.watch.check();
      expect(missed.reloads).toEqual([]);
      d.publish('mf0000000002');
      await expect.poll(() => missed.reloads.length, { timeout: 1000 }).toBe(1);
      d.publish('mf0000000003');
      await expect.poll(() => missed.reloads.length, { timeout: 1000 }).toBe(2);
    });
  });
});
