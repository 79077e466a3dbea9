import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cannotStartMessage, hasPublishedRelease, probeContentHub, retryWithBackoff } from './startup.ts';
import { parseServerEnv } from './env.ts';
import { publishRelease, releaseDir } from '../release/release.ts';

describe('retryWithBackoff', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('retries after 5 s, doubling up to 5 minutes, until the attempt succeeds', async () => {
    let failures = 9;
    const attempt = vi.fn(async () => { if (failures-- > 0) throw new Error('content hub down'); });
    const waits: number[] = [];
    const onSuccess = vi.fn();
    retryWithBackoff(attempt, { onFailure: (_e, next) => waits.push(next), onSuccess });
    expect(attempt).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(4999);
    expect(attempt).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(attempt).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(waits).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000, 300_000]);
    expect(attempt).toHaveBeenCalledTimes(10);
    expect(onSuccess).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(attempt).toHaveBeenCalledTimes(10);
  });

  it('stops when told to', async () => {
    const attempt = vi.fn(async () => { throw new Error('down'); });
    const retry = retryWithBackoff(attempt);
    await vi.advanceTimersByTimeAsync(5000);
    retry.stop();
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    expect(attempt).toHaveBeenCalledTimes(1);
  });
});

describe('start-up checks', () => {
  let dist: string;
  beforeEach(async () => { dist = await mkdtemp(join(tmpdir(), 'startup-')); });
  afterEach(() => rm(dist, { recursive: true, force: true }));

  it('find a published release only when a host has a latest build with its meta', async () => {
    expect(hasPublishedRelease(dist)).toBe(false);
    const host = join(releaseDir(join(dist, 'static'), 'release0001'), 'localhost/builds');
    await mkdir(join(host, 'meta'), { recursive: true });
    await publishRelease(join(dist, 'static'), 'release0001');
    expect(hasPublishedRelease(dist)).toBe(false);
    await writeFile(join(host, 'latest.json'), JSON.stringify({ id: 'r1', timestamp: '2026-01-01T00:00:00Z' }));
    await writeFile(join(host, 'meta/r1.json'), JSON.stringify({ id: 'r1', timestamp: '', appBuildId: 'b', routes: {}, redirects: [] }));
    expect(hasPublishedRelease(dist)).toBe(true);
  });

  it('count a complete release the start falls back to when the live pointer is broken', async () => {
    const staticRoot = join(dist, 'static');
    const host = join(releaseDir(staticRoot, 'release0001'), 'localhost');
    await mkdir(join(host, 'builds/meta'), { recursive: true });
    await writeFile(join(host, 'builds/latest.json'), JSON.stringify({ id: 'r1', timestamp: '2026-01-01T00:00:00Z' }));
    await writeFile(join(host, 'builds/meta/r1.json'), JSON.stringify({ id: 'r1', timestamp: '', appBuildId: 'b', routes: {}, redirects: [] }));
    await writeFile(join(releaseDir(staticRoot, 'release0001'), 'hosts.json'), JSON.stringify({ main: 'localhost', hosts: { localhost: 'http://localhost:4321' } }));
    // A mistyped rollback: live names a release that does not exist.
    await symlink('releases/release0009', join(staticRoot, 'live'));
    expect(hasPublishedRelease(dist)).toBe(true);
  });

  it('name the unreachable content hub', async () => {
    const env = parseServerEnv({ CONTENT_ENDPOINT: 'http://127.0.0.1:9/graphql', UPSTREAM_TIMEOUT_MS: '1000' });
    const err = await probeContentHub(env);
    expect(err?.message).toMatch(/^Content hub unreachable: /);
    expect(cannotStartMessage(env, err!, dist)).toContain('the content hub at http://127.0.0.1:9/graphql is unreachable');
  });
});
