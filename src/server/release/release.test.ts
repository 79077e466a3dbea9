import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeAtomic } from '../../lib/fs/atomic.ts';
import { captureLogs } from '../../../tests/support/log.ts';
import { acquireLock, cleanStatic, linkTree, LockedError, newestCompleteRelease, newReleaseId, publishRelease, readPointer, releaseDir, releaseProblem, stagedBase, stageRelease, takeStaged, tidyStatic } from './release.ts';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'release-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const file = async (path: string, body = 'x') => {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, body);
};
/** A complete release as a prerender leaves it: a page, each host's latest.json and meta, then hosts.json. */
const complete = async (id: string, hosts = ['localhost']) => {
  for (const host of hosts) {
    await file(join(releaseDir(root, id), host, 'en/index.html'), `page of ${id}`);
    await file(join(releaseDir(root, id), host, 'builds/latest.json'), JSON.stringify({ id, timestamp: '2026-01-01T00:00:00Z' }));
    await file(join(releaseDir(root, id), host, 'builds/meta', `${id}.json`), JSON.stringify({ id, routes: { '/en': { fingerprint: 'f', csp: null } } }));
  }
  await writeFile(join(releaseDir(root, id), 'hosts.json'), JSON.stringify({ main: hosts[0], hosts: Object.fromEntries(hosts.map((h) => [h, `http://${h}:4321`])) }));
};
/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

describe('newReleaseId', () => {
  it('is lowercase base 36 and sorts by creation time', () => {
    const ids = [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1, 0, 0, 1), Date.UTC(2031, 5, 1)].map((t) => newReleaseId(t));
    for (const id of ids) expect(id).toMatch(/^[0-9a-z]{14}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(newReleaseId()).not.toBe(newReleaseId());
  });
});

describe('release pointers', () => {
  it('has no live release before the first publish', () => {
    expect(readPointer(root)).toBeNull();
    expect(readPointer(root, 'previous')).toBeNull();
  });

  it('publishes a release by swapping the live symlink, and remembers the one before as previous', async () => {
    await mkdir(releaseDir(root, 'aaaaaaaa0001'), { recursive: true });
    await publishRelease(root, 'aaaaaaaa0001');
    expect(readPointer(root)).toBe('aaaaaaaa0001');
    expect(readPointer(root, 'previous')).toBeNull();
    expect(lstatSync(join(root, 'live')).isSymbolicLink()).toBe(true);
    // Relative, so the whole output folder can be moved or uploaded as it is.
    expect(readlinkSync(join(root, 'live'))).toBe('releases/aaaaaaaa0001');

    await mkdir(releaseDir(root, 'aaaaaaaa0002'), { recursive: true });
    await publishRelease(root, 'aaaaaaaa0002');
    expect(readPointer(root)).toBe('aaaaaaaa0002');
    expect(readPointer(root, 'previous')).toBe('aaaaaaaa0001');
    // No temporary symlink is left beside the pointers.
    expect((await readdir(root)).sort()).toEqual(['live', 'previous', 'releases']);
  });

  it('ignores a pointer that does not name a release folder', async () => {
    await symlink('/etc', join(root, 'live'));
    expect(readPointer(root)).toBeNull();
    expect(() => releaseDir(root, '../etc')).toThrow(/Not a release id/);
  });
});

describe('linkTree', () => {
  it('hard-links every file into the new tree, skipping what it is told to', async () => {
    const from = join(root, 'a');
    await file(join(from, 'en/about-us/index.html'), 'about');
    await file(join(from, 'en/index.html'), 'en');
    await file(join(from, 'builds/latest.json'), '{}');
    await file(join(from, 'en/index.html.123.tmp'), 'half');
    const to = join(root, 'b');
    const counts = await linkTree(from, to, { skip: (rel) => rel === 'builds' || rel.startsWith('builds/') || rel.endsWith('.tmp') });
    expect(counts).toEqual({ files: 2, dirs: 2 });
    expect(statSync(join(to, 'en/about-us/index.html')).ino).toBe(statSync(join(from, 'en/about-us/index.html')).ino);
    expect(existsSync(join(to, 'builds'))).toBe(false);
    expect(existsSync(join(to, 'en/index.html.123.tmp'))).toBe(false);
  });

  it('leaves the original untouched when a file of the copy is replaced atomically or removed', async () => {
    const from = join(root, 'a');
    await file(join(from, 'en/index.html'), 'old');
    await file(join(from, 'de/index.html'), 'de');
    const to = join(root, 'b');
    await linkTree(from, to);
    await writeAtomic(join(to, 'en/index.html'), 'new');
    await rm(join(to, 'de/index.html'));
    expect(await readFile(join(to, 'en/index.html'), 'utf8')).toBe('new');
    expect(await readFile(join(from, 'en/index.html'), 'utf8')).toBe('old');
    expect(await readFile(join(from, 'de/index.html'), 'utf8')).toBe('de');
  });
});

describe('acquireLock', () => {
  const lockFile = () => join(root, '.lock');

  it('is held until released, and refuses while another running process holds it', async () => {
    const lock = await acquireLock(root);
    expect(JSON.parse(await readFile(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    await lock.release();
    expect(existsSync(lockFile())).toBe(false);

    // The parent process (the test runner) runs: its lock is respected.
    await writeFile(lockFile(), JSON.stringify({ pid: process.ppid, host: hostname(), since: 'then' }));
    await expect(acquireLock(root)).rejects.toThrow(LockedError);
    await expect(acquireLock(root)).rejects.toThrow(`pid ${process.ppid}`);
  });

  it('takes over a lock whose process died, or that this process left behind', async () => {
    await writeFile(lockFile(), JSON.stringify({ pid: deadPid(), host: hostname(), since: 'then' }));
    const lock = await acquireLock(root);
    expect(JSON.parse(await readFile(lockFile(), 'utf8')).pid).toBe(process.pid);
    // A second take in this process (a worker thread that was terminated midway left it): taken over.
    const again = await acquireLock(root);
    await again.release();
    await lock.release();
  });

  it('takes over an empty lock file (a process killed while taking it)', async () => {
    await writeFile(lockFile(), '');
    const lock = await acquireLock(root);
    await lock.release();
  });

  it('never takes over the lock of another machine', async () => {
    await writeFile(lockFile(), JSON.stringify({ pid: deadPid(), host: `not-${hostname()}`, since: 'then' }));
    await expect(acquireLock(root)).rejects.toThrow(LockedError);
  });
});

describe('cleanStatic', () => {
  it('removes unfinished releases, pointer temporaries, old-layout trees and search temporaries, and keeps live and previous', async () => {
    for (const id of ['aaaaaaaa0001', 'aaaaaaaa0002', 'aaaaaaaa0003', 'aaaaaaaa0004']) await file(join(releaseDir(root, id), 'localhost/en/index.html'));
    await publishRelease(root, 'aaaaaaaa0002');
    await publishRelease(root, 'aaaaaaaa0003');
    await symlink('releases/aaaaaaaa0004', join(root, 'live.1a2b3c4d.tmp'));
    await file(join(root, 'localhost/builds/latest.json'));
    await writeFile(join(root, '.lock'), '{}');
    const search = join(root, '../', `${root.split('/').pop()}-search`);
    await file(join(search, '_main/en.json'));
    await file(join(search, '_main/en.json.9f8e.tmp'));
    try {
      const removed = await cleanStatic(root, { searchDir: search });
      expect(removed).toEqual(expect.arrayContaining(['live.1a2b3c4d.tmp', 'localhost', 'releases/aaaaaaaa0001', 'releases/aaaaaaaa0004', join(search, '_main/en.json.9f8e.tmp')]));
      expect((await readdir(join(root, 'releases'))).sort()).toEqual(['aaaaaaaa0002', 'aaaaaaaa0003']);
      expect((await readdir(root)).sort()).toEqual(['.lock', 'live', 'previous', 'releases']);
      expect(await readdir(join(search, '_main'))).toEqual(['en.json']);
      expect(readPointer(root)).toBe('aaaaaaaa0003');
    } finally {
      await rm(search, { recursive: true, force: true });
    }
  });

  it('does nothing on an output folder that does not exist yet', async () => {
    expect(await cleanStatic(join(root, 'missing'), { searchDir: join(root, 'missing-search') })).toEqual([]);
  });
});

describe('a broken live pointer', () => {
  let logs: ReturnType<typeof captureLogs>;
  beforeEach(() => { logs = captureLogs('debug'); });
  afterEach(() => logs.restore());
  const errors = () => logs.lines.filter((l) => l.level === 'error').map((l) => String(l.msg));
  const releases = async () => (await readdir(join(root, 'releases'))).sort();

  it('tells a complete release from a missing or unfinished one', async () => {
    await complete('aaaaaaaa0001', ['localhost', 'events.localhost']);
    expect(releaseProblem(root, 'aaaaaaaa0001')).toBeNull();
    expect(releaseProblem(root, 'aaaaaaaa0009')).toMatch(/does not exist/);
    // A run killed before its hosts.json: the host trees are there, the release is not finished.
    await file(join(releaseDir(root, 'aaaaaaaa0002'), 'localhost/en/index.html'));
    expect(releaseProblem(root, 'aaaaaaaa0002')).toMatch(/no readable hosts\.json/);
    await complete('aaaaaaaa0003', ['localhost', 'events.localhost']);
    await rm(join(releaseDir(root, 'aaaaaaaa0003'), 'events.localhost/builds/latest.json'));
    expect(releaseProblem(root, 'aaaaaaaa0003')).toMatch(/events\.localhost\/builds\/latest\.json is missing/);
    await complete('aaaaaaaa0004');
    await rm(join(releaseDir(root, 'aaaaaaaa0004'), 'localhost/builds/meta/aaaaaaaa0004.json'));
    expect(releaseProblem(root, 'aaaaaaaa0004')).toMatch(/meta\/aaaaaaaa0004\.json is missing/);
    expect(newestCompleteRelease(root)).toBe('aaaaaaaa0001');
  });

  it('naming a missing release (a mistyped rollback): the start falls back to the newest complete release, says so, and removes no complete release', async () => {
    for (const id of ['aaaaaaaa0001', 'aaaaaaaa0002', 'aaaaaaaa0003']) await complete(id);
    await publishRelease(root, 'aaaaaaaa0002');
    await publishRelease(root, 'aaaaaaaa0003');
    // The operator meant aaaaaaaa0002 and typed a release that does not exist.
    await symlink('releases/aaaaaaaa0020', join(root, 'live.tmp'));
    await rename(join(root, 'live.tmp'), join(root, 'live'));
    await file(join(releaseDir(root, 'aaaaaaaa0004'), 'localhost/en/index.html'));
    const removed = await tidyStatic(root);
    expect(readPointer(root)).toBe('aaaaaaaa0003');
    expect(await releases()).toEqual(['aaaaaaaa0001', 'aaaaaaaa0002', 'aaaaaaaa0003']);
    // Only the unfinished release went.
    expect(removed).toEqual(['releases/aaaaaaaa0004']);
    expect(errors()).toEqual([expect.stringMatching(/live pointer was broken \(release aaaaaaaa0020: releases\/aaaaaaaa0020 does not exist\).*newest complete release, aaaaaaaa0003/)]);
  });

  it('naming an unfinished release, or not naming a release at all: the same fallback', async () => {
    await complete('aaaaaaaa0001');
    await complete('aaaaaaaa0002');
    await file(join(releaseDir(root, 'aaaaaaaa0003'), 'localhost/en/index.html'));
    await publishRelease(root, 'aaaaaaaa0003');
    await cleanStatic(root);
    expect(readPointer(root)).toBe('aaaaaaaa0002');
    expect(await releases()).toEqual(['aaaaaaaa0001', 'aaaaaaaa0002']);
    expect(errors()[0]).toMatch(/release aaaaaaaa0003: releases\/aaaaaaaa0003 has no readable hosts\.json/);

    await rm(join(root, 'live'));
    await symlink('/etc', join(root, 'live'));
    await cleanStatic(root);
    expect(readPointer(root)).toBe('aaaaaaaa0002');
    expect(errors()[1]).toMatch(/it points at "\/etc", not at a release/);
    await rm(join(root, 'live'));
    await cleanStatic(root);
    expect(readPointer(root)).toBe('aaaaaaaa0002');
    expect(errors()[2]).toMatch(/there is no live pointer/);
    expect(await releases()).toEqual(['aaaaaaaa0001', 'aaaaaaaa0002']);
  });

  it('without a complete release to fall back to: logs the problem and changes nothing; a first run killed early says nothing', async () => {
    await file(join(releaseDir(root, 'aaaaaaaa0001'), 'localhost/en/index.html'));
    await cleanStatic(root);
    expect(errors()).toEqual([]);
    await file(join(releaseDir(root, 'aaaaaaaa0002'), 'localhost/en/index.html'));
    await publishRelease(root, 'aaaaaaaa0002');
    await cleanStatic(root);
    expect(readPointer(root)).toBe('aaaaaaaa0002');
    expect(errors()).toEqual([expect.stringMatching(/live release aaaaaaaa0002 cannot be served .* no complete release to fall back to/)]);
  });

  it('after a rollback keeps the complete releases, until the clean-up after a publish supersedes them', async () => {
    for (const id of ['aaaaaaaa0001', 'aaaaaaaa0002', 'aaaaaaaa0003']) await complete(id);
    await publishRelease(root, 'aaaaaaaa0002');
    await publishRelease(root, 'aaaaaaaa0003');
    // Rolled back to aaaaaaaa0001, as docs/operations.md says.
    await symlink('releases/aaaaaaaa0001', join(root, 'live.tmp'));
    await rename(join(root, 'live.tmp'), join(root, 'live'));
    expect(await cleanStatic(root)).toEqual([]);
    expect(await releases()).toEqual(['aaaaaaaa0001', 'aaaaaaaa0002', 'aaaaaaaa0003']);
    expect(errors()).toEqual([]);
    await complete('aaaaaaaa0004');
    await publishRelease(root, 'aaaaaaaa0004');
    expect(await cleanStatic(root)).toEqual([]);
    expect((await cleanStatic(root, { superseded: true })).sort()).toEqual(['releases/aaaaaaaa0002', 'releases/aaaaaaaa0003']);
    expect(await releases()).toEqual(['aaaaaaaa0001', 'aaaaaaaa0004']);
  });
});

describe('staged releases', () => {
  const live = 'aaaaaaaa0001';
  const setUp = async () => {
    await file(join(releaseDir(root, live), 'localhost/en/index.html'), 'en');
    await file(join(releaseDir(root, live), 'localhost/builds/latest.json'), '{}');
    await file(join(releaseDir(root, live), 'events.localhost/en/index.html'), 'events');
    await publishRelease(root, live);
  };

  it('stages a marked hard-link copy of a release, which cleanStatic keeps while its base is live', async () => {
    await setUp();
    const id = await stageRelease(root, live, ['localhost', 'events.localhost']);
    expect(stagedBase(root, id)).toBe(live);
    expect(statSync(join(releaseDir(root, id), 'localhost/en/index.html')).ino).toBe(statSync(join(releaseDir(root, live), 'localhost/en/index.html')).ino);
    // Build manifests are written anew by every run: not copied.
    expect(existsSync(join(releaseDir(root, id), 'localhost/builds'))).toBe(false);
    expect(await cleanStatic(root)).toEqual([]);
    // Once another release is live, the copy is stale: removed.
    await file(join(releaseDir(root, 'aaaaaaaa0009'), 'localhost/en/index.html'));
    await publishRelease(root, 'aaaaaaaa0009');
    expect(await cleanStatic(root)).toEqual([`releases/${id}`]);
  });

  it('removes an unmarked copy (a run killed while staging)', async () => {
    await setUp();
    await file(join(releaseDir(root, 'aaaaaaaa0005'), 'localhost/en/index.html'));
    expect(await cleanStatic(root)).toEqual(['releases/aaaaaaaa0005']);
  });

  it('hands the staged copy of the live release to a run under a new id, without the marker and the hosts no longer built', async () => {
    await setUp();
    expect(await takeStaged(root, live, ['localhost'])).toBeNull();
    const staged = await stageRelease(root, live, ['localhost', 'events.localhost']);
    const id = await takeStaged(root, live, ['localhost']);
    expect(id).not.toBeNull();
    expect(id!.slice(0, 8) >= staged.slice(0, 8)).toBe(true);
    expect(existsSync(releaseDir(root, staged))).toBe(false);
    expect((await readdir(releaseDir(root, id!))).sort()).toEqual(['localhost']);
    expect(await readFile(join(releaseDir(root, id!), 'localhost/en/index.html'), 'utf8')).toBe('en');
    // Taken: an unfinished release like any other until it is published.
    expect(stagedBase(root, id!)).toBeNull();
    expect(await takeStaged(root, live, ['localhost'])).toBeNull();
    expect(await cleanStatic(root)).toEqual([`releases/${id}`]);
  });
});

describe('tidyStatic', () => {
  it('cleans up when no prerender runs', async () => {
    await file(join(releaseDir(root, 'aaaaaaaa0001'), 'localhost/en/index.html'));
    expect(await tidyStatic(root)).toEqual(['releases/aaaaaaaa0001']);
    expect(existsSync(join(root, '.lock'))).toBe(false);
  });

  it('leaves the release of a running prerender alone', async () => {
    await file(join(releaseDir(root, 'aaaaaaaa0001'), 'localhost/en/index.html'));
    await writeFile(join(root, '.lock'), JSON.stringify({ pid: process.ppid, host: hostname(), since: 'now' }));
    expect(await tidyStatic(root)).toEqual([]);
    expect(existsSync(releaseDir(root, 'aaaaaaaa0001'))).toBe(true);
  });
});
