import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseServerEnv } from '../boot/env.ts';
import type { PrerenderResult } from '../prerender/run.ts';
import { runFailureError } from './revalidate-failure.ts';
import { createRevalidation, type RevalidateRequest } from './revalidate.ts';
import { inject } from '../../../tests/support/node-http.ts';
import { captureLogs } from '../../../tests/support/log.ts';

const SECRET = 'a-revalidation-secret';

const result = (releaseId: string | null, rendered = 1): PrerenderResult => ({
  releaseId, rendered, unchanged: 0, removed: 0, failed: [], total: rendered, seconds: 0.5,
  collectSeconds: 0, linkSeconds: 0, renderSeconds: 0, publishSeconds: 0, stageSeconds: 0, pagesPerSecond: 0, scope: 'full',
});

interface Run {
  force: RevalidateRequest;
  resolve(r: PrerenderResult): void;
  reject(err: Error): void;
}

/**
 * A prerender that does nothing until the test says so: every call is recorded with its own
 * deferred answer, and `nextRun()` resolves when the queue starts the next one (no timers).
 */
function fakePrerender() {
  const runs: Run[] = [];
  const waiting: ((r: Run) => void)[] = [];
  let active = 0;
  let maxActive = 0;
  const runPrerender = (force: RevalidateRequest) => new Promise<PrerenderResult>((resolve, reject) => {
    active++;
    maxActive = Math.max(maxActive, active);
    const run: Run = {
      force: structuredClone(force),
      resolve: (r) => { active--; resolve(r); },
      reject: (e) => { active--; reject(e); },
    };
    runs.push(run);
    waiting.shift()?.(run);
  });
  let seen = 0;
  const nextRun = (): Promise<Run> => {
    const index = seen++;
    return runs[index] ? Promise.resolve(runs[index]) : new Promise((r) => waiting.push(r));
  };
  return { runPrerender, runs, nextRun, get maxActive() { return maxActive; } };
}

function setup(opts: { secret?: string; onPublished?: () => Promise<void>; safetyNetMs?: number; untilServed?: (id: string) => Promise<void> } = {}) {
  const fake = fakePrerender();
  const env = parseServerEnv(opts.secret === undefined ? { REVALIDATE_SECRET: SECRET } : {});
  const published: number[] = [];
  const revalidation = createRevalidation({
    distDir: '/nonexistent',
    env,
    runPrerender: fake.runPrerender,
    onPublished: opts.onPublished ?? (async () => { published.push(published.length); }),
    safetyNetMs: opts.safetyNetMs ?? 0,
    ...(opts.untilServed ? { untilServed: opts.untilServed } : {}),
  });
  return { fake, revalidation, published };
}

/** Lets every already-settled promise chain run (microtasks only). */
const settle = async () => { for (let i = 0; i < 20; i++) await Promise.resolve(); };

describe('createRevalidation: the run queue', () => {
  it('runs a request at once with what it asked for and answers with the run\'s result', async () => {
    const { fake, revalidation, published } = setup();
    const answer = revalidation.run({ ids: ['p1'] });
    const run = await fake.nextRun();
    expect(run.force).toEqual({ ids: ['p1'] });
    run.resolve(result('r1'));
    expect(await answer).toEqual(result('r1'));
    expect(published).toHaveLength(1);
  });

  it('answers once what visitors get serves the published release (the edge in front), and without waiting when nothing was published', async () => {
    const asked: string[] = [];
    let served!: () => void;
    const { fake, revalidation } = setup({ untilServed: (id) => { asked.push(id); return new Promise((ok) => { served = ok; }); } });
    let answered = false;
    const answer = revalidation.run({ ids: ['p1'] }).then((r) => { answered = true; return r; });
    (await fake.nextRun()).resolve(result('r1'));
    await settle();
    expect(asked).toEqual(['r1']);
    expect(answered).toBe(false);
    served();
    expect(await answer).toEqual(result('r1'));
    const nothing = revalidation.run({});
    (await fake.nextRun()).resolve(result(null, 0));
    expect((await nothing).releaseId).toBeNull();
    expect(asked).toEqual(['r1']);
  });

  it('reloads the search index only when the run published a release', async () => {
    const { fake, revalidation, published } = setup();
    const answer = revalidation.run({});
    (await fake.nextRun()).resolve(result(null, 0));
    expect((await answer).releaseId).toBeNull();
    expect(published).toHaveLength(0);
  });

  it('never overlaps runs: requests during a run wait and are merged into ONE follow-up run covering all their keys', async () => {
    const { fake, revalidation } = setup();
    const first = revalidation.run({ ids: ['a'] });
    const run1 = await fake.nextRun();
    const second = revalidation.run({ ids: ['b'], slugs: ['story-b'] });
    const third = revalidation.run({ slugs: ['story-c'] });
    const fourth = revalidation.run({ all: true });
    await settle();
    // Nothing starts while the first run is going.
    expect(fake.runs).toHaveLength(1);
    run1.resolve(result('r1'));
    const run2 = await fake.nextRun();
    expect(run2.force).toEqual({ ids: ['b'], slugs: ['story-b', 'story-c'], all: true });
    await settle();
    expect(fake.runs).toHaveLength(2);
    run2.resolve(result('r2', 7));
    // The first caller gets its own run's answer, the queued ones the follow-up's.
    expect(await first).toEqual(result('r1'));
    expect(await second).toEqual(result('r2', 7));
    expect(await third).toEqual(result('r2', 7));
    expect(await fourth).toEqual(result('r2', 7));
    expect(fake.maxActive).toBe(1);
  });

  it('does not let a queued request change what the running run was asked', async () => {
    const { fake, revalidation } = setup();
    const asked: RevalidateRequest = { ids: ['a'] };
    void revalidation.run(asked);
    const run1 = await fake.nextRun();
    const queuedAsk: RevalidateRequest = { ids: ['b'] };
    void revalidation.run(queuedAsk);
    void revalidation.run({ ids: ['c'] });
    run1.resolve(result('r1'));
    const run2 = await fake.nextRun();
    expect(run2.force.ids).toEqual(['b', 'c']);
    // The callers' own requests are left as they were.
    expect(asked).toEqual({ ids: ['a'] });
    expect(queuedAsk).toEqual({ ids: ['b'] });
    run2.resolve(result('r2'));
  });

  it('queues a third run when a request arrives while the follow-up is running', async () => {
    const { fake, revalidation } = setup();
    const first = revalidation.run({ ids: ['a'] });
    const run1 = await fake.nextRun();
    const second = revalidation.run({ ids: ['b'] });
    run1.resolve(result('r1'));
    const run2 = await fake.nextRun();
    const third = revalidation.run({ ids: ['c'] });
    await settle();
    expect(fake.runs).toHaveLength(2);
    run2.resolve(result('r2'));
    const run3 = await fake.nextRun();
    expect(run3.force).toEqual({ ids: ['c'] });
    run3.resolve(result('r3'));
    expect([(await first).releaseId, (await second).releaseId, (await third).releaseId]).toEqual(['r1', 'r2', 'r3']);
    expect(fake.maxActive).toBe(1);
  });

  it('reports a failed run to its callers only, and the queued run still goes ahead', async () => {
    const { fake, revalidation, published } = setup();
    const first = revalidation.run({ ids: ['a'] });
    const run1 = await fake.nextRun();
    const second = revalidation.run({ ids: ['b'] });
    run1.reject(new Error('content hub down'));
    await expect(first).rejects.toThrow('content hub down');
    const run2 = await fake.nextRun();
    expect(run2.force).toEqual({ ids: ['b'] });
    run2.resolve(result('r2'));
    expect((await second).releaseId).toBe('r2');
    expect(published).toHaveLength(1);
  });

  it('is not wedged by a failure: the next request after a failed run (and a failed follow-up) starts at once', async () => {
    const { fake, revalidation } = setup();
    const first = revalidation.run({});
    const run1 = await fake.nextRun();
    const second = revalidation.run({ ids: ['b'] });
    const third = revalidation.run({ ids: ['c'] });
    run1.reject(new Error('boom 1'));
    const run2 = await fake.nextRun();
    run2.reject(new Error('boom 2'));
    await expect(first).rejects.toThrow('boom 1');
    await expect(second).rejects.toThrow('boom 2');
    await expect(third).rejects.toThrow('boom 2');
    const later = revalidation.run({ ids: ['d'] });
    const run3 = await fake.nextRun();
    expect(run3.force).toEqual({ ids: ['d'] });
    run3.resolve(result('r3'));
    expect((await later).releaseId).toBe('r3');
  });

  it('answers with the result even when the new search index cannot be loaded (logged)', async () => {
    const { fake, revalidation } = setup({ onPublished: () => Promise.reject(new Error('index corrupt')) });
    const logs = captureLogs('error');
    try {
      const answer = revalidation.run({});
      (await fake.nextRun()).resolve(result('r1'));
      expect((await answer).releaseId).toBe('r1');
    } finally {
      logs.restore();
    }
    expect(logs.lines).toEqual([expect.objectContaining({ component: 'revalidate', msg: expect.stringContaining('index corrupt') })]);
  });
});

describe('createRevalidation: named records (webhooks)', () => {
  afterEach(() => { vi.useRealTimers(); });
  const page = (id: string) => ({ model: 'page', id, stage: 'PUBLISHED' });

  it('merges the records of queued requests into the follow-up run, and a request naming nothing makes it a run for everything', async () => {
    const { fake, revalidation } = setup();
    void revalidation.run({ records: [page('a')] });
    const run1 = await fake.nextRun();
    void revalidation.run({ records: [page('b')] });
    void revalidation.run({ records: [page('c')] });
    run1.resolve(result('r1'));
    const run2 = await fake.nextRun();
    expect(run2.force.records).toEqual([page('b'), page('c')]);
    void revalidation.run({ records: [page('d')] });
    void revalidation.run({ ids: ['e'] });
    run2.resolve(result('r2'));
    const run3 = await fake.nextRun();
    expect(run3.force.ids).toEqual(['e']);
    expect(run3.force.records).toBeUndefined();
    run3.resolve(result('r3'));
  });

  it('follows a targeted run with a full run after the safety-net delay (one for several targeted runs)', async () => {
    vi.useFakeTimers();
    const { fake, revalidation } = setup({ safetyNetMs: 60_000 });
    const targeted = { ...result('r1'), scope: 'targeted' as const };
    void revalidation.run({ records: [page('a')] });
    (await fake.nextRun()).resolve(targeted);
    await settle();
    vi.advanceTimersByTime(30_000);
    void revalidation.run({ records: [page('b')] });
    (await fake.nextRun()).resolve(targeted);
    await settle();
    vi.advanceTimersByTime(59_000);
    expect(fake.runs).toHaveLength(2);
    vi.advanceTimersByTime(1_000);
    const full = await fake.nextRun();
    expect(full.force).toEqual({});
    full.resolve(result(null, 0));
    await settle();
    vi.advanceTimersByTime(120_000);
    expect(fake.runs).toHaveLength(3);
    revalidation.close();
  });
});

describe('createRevalidation: POST /api/revalidate', () => {
  // A webhook's JSON body carries its Content-Type (set here unless a test sends its own headers).
  const post = (revalidation: ReturnType<typeof createRevalidation>, body: string | undefined, headers: Record<string, string> = { 'x-revalidate-secret': SECRET }, method = 'POST') =>
    inject(async (req, res) => {
      const url = new URL(`http://localhost${req.url}`);
      if (!(await revalidation.route(req, res, url))) res.writeHead(404).end('not ours');
    }, { method, url: '/api/revalidate', headers: body ? { 'content-type': 'application/json', ...headers } : headers, body });

  it('leaves other paths alone', async () => {
    const { revalidation } = setup();
    const res = await inject(async (req, res) => {
      if (!(await revalidation.route(req, res, new URL(`http://localhost${req.url}`)))) res.writeHead(404).end('not ours');
    }, { method: 'POST', url: '/api/revalidate/x' });
    expect(res.body).toBe('not ours');
  });

  it('answers 405 to another method, 503 without a configured secret, 401 to a missing or wrong secret, and runs nothing', async () => {
    const { fake, revalidation } = setup();
    const get = await post(revalidation, undefined, { 'x-revalidate-secret': SECRET }, 'GET');
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
    expect((await post(revalidation, '{}', {})).status).toBe(401);
    expect((await post(revalidation, '{}', { 'x-revalidate-secret': `${SECRET}x` })).status).toBe(401);
    const unconfigured = setup({ secret: '' });
    const res = await post(unconfigured.revalidation, '{}');
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String), message: 'Revalidation is not configured: set REVALIDATE_SECRET' });
    expect(fake.runs).toHaveLength(0);
    expect(unconfigured.fake.runs).toHaveLength(0);
  });

  // The refusals of every endpoint (src/lib/http/input.ts): one wording, the top-level field in `detail`.
  it.each([
    ['not json', 'The body is not valid JSON.', undefined],
    ['[]', 'The body must be a JSON object.', undefined],
    ['{"ids":"not-a-list"}', 'ids must be a list of page ids', 'ids'],
    ['{"ids":[""]}', 'ids must not contain empty strings', 'ids'],
    ['{"slugs":["Not Kebab"]}', 'slugs must be lowercase-kebab', 'slugs'],
    ['{"all":"yes"}', 'all must be true or false', 'all'],
    ['{"other":1}', 'Unknown field: other', 'other'],
    ['{"records":[{"model":"page"}]}', /id/, 'records'],
    ['{"records":[{"model":"page","id":""}]}', 'records[].id must not be empty', 'records'],
  ])('answers 400 to the body %s and runs nothing', async (body, message, field) => {
    const { fake, revalidation } = setup();
    const res = await post(revalidation, body);
    expect(res.status).toBe(400);
    const answer = JSON.parse(res.body) as { error: string; message: string; detail?: { field: string } };
    expect(answer).toEqual({ error: 'bad-request', message: message instanceof RegExp ? expect.stringMatching(message) : message, ...(field ? { detail: { field } } : {}) });
    expect(fake.runs).toHaveLength(0);
  });

  it('runs the prerender for the validated body (Bearer secret too) and answers 200 with its result', async () => {
    const { fake, revalidation } = setup();
    const answer = post(revalidation, '{"ids":["p1"],"slugs":["about-us"]}', { authorization: `Bearer ${SECRET}` });
    const run = await fake.nextRun();
    expect(run.force).toEqual({ ids: ['p1'], slugs: ['about-us'] });
    run.resolve(result('r1', 3));
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.body)).toEqual(result('r1', 3));
  });

  it('passes the records a webhook names (other fields of a record are dropped)', async () => {
    const { fake, revalidation } = setup();
    const answer = post(revalidation, JSON.stringify({ records: [{ model: 'page', id: 'cm5jglt3pytja09q8bdj5zz02', stage: 'PUBLISHED', locale: 'en' }] }));
    const run = await fake.nextRun();
    expect(run.force).toEqual({ records: [{ model: 'page', id: 'cm5jglt3pytja09q8bdj5zz02', stage: 'PUBLISHED' }] });
    run.resolve(result('r1'));
    expect((await answer).status).toBe(200);
  });

  it('runs a plain incremental prerender (nothing forced) for an empty body', async () => {
    const { fake, revalidation } = setup();
    const answer = post(revalidation, '');
    const run = await fake.nextRun();
    expect(run.force).toEqual({});
    run.resolve(result(null, 0));
    expect((await answer).status).toBe(200);
  });

  it('answers 415 to a body of another type, 413 to one over 64 KiB, and runs nothing', async () => {
    const { fake, revalidation } = setup();
    const text = await post(revalidation, 'ids=x', { 'x-revalidate-secret': SECRET, 'content-type': 'text/plain', 'content-length': '5' });
    expect([text.status, JSON.parse(text.body).message]).toEqual([415, 'Unsupported Content-Type: send application/json.']);
    const big = JSON.stringify({ ids: ['x'.repeat(70_000)] });
    const large = await post(revalidation, big, { 'x-revalidate-secret': SECRET, 'content-length': String(big.length) });
    expect([large.status, JSON.parse(large.body).message]).toEqual([413, 'The request body is too large: at most 65,536 bytes.']);
    const undeclared = await post(revalidation, big);
    expect(undeclared.status).toBe(413);
    expect(fake.runs).toHaveLength(0);
  });

  it('gives wrong-secret requests a budget of their own per client (429 with Retry-After past 10 a minute), which leaves the right secret\'s alone', async () => {
    const { fake, revalidation } = setup();
    const statuses: number[] = [];
    // More than the right secret's 60 a minute: guessing from the webhook's address.
    for (let i = 0; i < 65; i++) statuses.push((await post(revalidation, '{}', { 'x-revalidate-secret': i % 2 ? 'wrong' : '' })).status);
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(55).fill(429)]);
    const limited = await post(revalidation, '{}', { 'x-revalidate-secret': 'wrong' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The webhook from the same address still gets through.
    const answer = post(revalidation, '{}');
    (await fake.nextRun()).resolve(result('r1', 1));
    expect((await answer).status).toBe(200);
  });

  it('answers 502 when the run fails, saying the previous build stays (the details only in the log)', async () => {
    const { fake, revalidation } = setup();
    const answer = post(revalidation, '{}');
    (await fake.nextRun()).reject(new Error('render of /en failed at /srv/dist/server/entry.mjs'));
    const res = await answer;
    expect(res.status).toBe(502);
    expect(JSON.parse(res.body)).toEqual({ error: expect.any(String), message: 'Revalidation failed, the previous build stays live: the prerender failed (details in the server log).', live: null });
  });

  it('answers 503 with Retry-After when the content hub is down', async () => {
    const { fake, revalidation } = setup();
    const answer = post(revalidation, '{}');
    (await fake.nextRun()).reject(runFailureError({ message: 'Content hub unreachable: connect ECONNREFUSED 127.0.0.1:1', name: 'ContentError', unavailable: true, failure: 'unreachable', operation: 'SystemData' }));
    const res = await answer;
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('60');
    expect(JSON.parse(res.body).message).toBe('Revalidation failed, the previous build stays live: the content hub is unavailable (it could not be reached). Try again later.');
  });
});
