import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostDir, normalizeHost, StaticSite, type BuildMeta } from './static-site.ts';
import { captureLogs } from '../../../tests/support/log.ts';
import { publishRelease } from '../release/release.ts';

describe('hostDir', () => {
  it('is the lowercased host without port under the root', () => {
    expect(hostDir('/srv/static', 'Events.Localhost:4321')).toBe(join('/srv/static', 'events.localhost'));
    expect(hostDir('/srv/static', '127.0.0.1')).toBe(join('/srv/static', '127.0.0.1'));
  });

  it.each(['..', '../etc', 'a..b', 'evil/../../etc', 'host/sub', 'host\\sub', '', 'ho st', '[::1]:4321', 'host%2F..'])('rejects %j', (host) => {
    expect(hostDir('/srv/static', host)).toBeNull();
  });
});

describe('normalizeHost', () => {
  it('lowercases and drops the port', () => {
    expect(normalizeHost('Komax.Example:443')).toBe('komax.example');
  });
});

describe('StaticSite', () => {
  let root: string;
  let release: string;

  const meta = (id: string, routes: BuildMeta['routes']): BuildMeta => ({ id, timestamp: '2026-01-01T00:00:00Z', appBuildId: 'app-1', routes, redirects: [] });
  /** Writes a host's build into the release being prepared (not live until `swap`). */
  const publish = async (host: string, m: BuildMeta, files: Record<string, string> = {}) => {
    const dir = join(root, 'releases', release, host);
    await mkdir(join(dir, 'builds/meta'), { recursive: true });
    await writeFile(join(dir, 'builds/meta', `${m.id}.json`), JSON.stringify(m));
    await writeFile(join(dir, 'builds/latest.json'), JSON.stringify({ id: m.id, timestamp: m.timestamp }));
    for (const [path, body] of Object.entries(files)) {
      await mkdir(join(dir, path, '..'), { recursive: true });
      await writeFile(join(dir, path), body);
    }
  };
  const swap = async (next: string) => {
    await publishRelease(root, release);
    release = next;
  };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'static-site-'));
    release = 'release0001';
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(root, { recursive: true, force: true });
  });

  it('loads the latest build of a host from the live release and answers its route rules', async () => {
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'f-en', csp: "default-src 'self'" } }));
    await swap('release0002');
    const site = new StaticSite(root);
    expect(site.load('localhost')).toMatchObject({ latest: { id: 'b1' }, meta: { id: 'b1' }, dir: join(root, 'releases/release0001/localhost') });
    expect(site.route('localhost', '/en')).toEqual({ fingerprint: 'f-en', csp: "default-src 'self'" });
    expect(site.route('LOCALHOST:4321', '/en')).toEqual({ fingerprint: 'f-en', csp: "default-src 'self'" });
    expect(site.route('localhost', '/de')).toBeNull();
    expect(site.latest('localhost')).toEqual({ id: 'b1', timestamp: '2026-01-01T00:00:00Z' });
  });

  it('keeps hosts apart', async () => {
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'main', csp: null } }));
    await publish('events.localhost', meta('e1', { '/en': { fingerprint: 'events', csp: null } }));
    await swap('release0002');
    const site = new StaticSite(root);
    site.load('localhost');
    site.load('events.localhost');
    expect(site.route('localhost', '/en')?.fingerprint).toBe('main');
    expect(site.route('events.localhost', '/en')?.fingerprint).toBe('events');
  });

  it('answers null for a host without a build, a bad host, or before any release is live', async () => {
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'f', csp: null } }));
    const site = new StaticSite(root);
    // Written but not live yet: nothing is served from it.
    expect(site.load('localhost')).toBeNull();
    await swap('release0002');
    expect(site.load('unknown.localhost')).toBeNull();
    expect(site.load('../etc')).toBeNull();
    expect(site.route('unknown.localhost', '/en')).toBeNull();
    expect(site.latest('unknown.localhost')).toBeNull();
  });

  it('answers null and logs when the manifest of the latest build is missing', async () => {
    const dir = join(root, 'releases', release, 'localhost/builds');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'latest.json'), JSON.stringify({ id: 'gone', timestamp: 't' }));
    await swap('release0002');
    const logs = captureLogs('error');
    try {
      expect(new StaticSite(root).load('localhost')).toBeNull();
    } finally {
      logs.restore();
    }
    expect(logs.lines).toEqual([expect.objectContaining({ level: 'error', component: 'static', msg: expect.stringContaining('could not read the build of localhost') })]);
  });

  it('sees a newly published release at the next load, without waiting or invalidating', async () => {
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'old', csp: null } }));
    await swap('release0002');
    const site = new StaticSite(root);
    site.load('localhost');
    await publish('localhost', meta('b2', { '/en': { fingerprint: 'new', csp: null } }));
    // Until the pointer moves, the release being written is invisible.
    site.load('localhost');
    expect(site.route('localhost', '/en')?.fingerprint).toBe('old');
    await swap('release0003');
    site.load('localhost');
    expect(site.route('localhost', '/en')?.fingerprint).toBe('new');
    expect(site.latest('localhost')?.id).toBe('b2');
  });

  it('reads a newly published build after invalidate()', async () => {
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'old', csp: null } }));
    await swap('release0002');
    const site = new StaticSite(root);
    site.load('localhost');
    site.invalidate();
    expect(site.route('localhost', '/en')).toBeNull();
    site.load('localhost');
    expect(site.route('localhost', '/en')?.fingerprint).toBe('old');
  });

  it('forgets a host the new live release does not have', async () => {
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'f', csp: null } }));
    await publish('events.localhost', meta('e1', { '/en': { fingerprint: 'f', csp: null } }));
    await swap('release0002');
    const site = new StaticSite(root);
    site.load('events.localhost');
    await publish('localhost', meta('b2', { '/en': { fingerprint: 'f', csp: null } }));
    await swap('release0003');
    expect(site.load('events.localhost')).toBeNull();
    expect(site.route('events.localhost', '/en')).toBeNull();
  });

  it('reads the saved HTML of a route, and null when there is none', async () => {
    await publish('localhost', meta('b1', {}), { 'en/about-us/index.html': '<h1>About</h1>', 'index.html': '<h1>Root</h1>' });
    await swap('release0002');
    const site = new StaticSite(root);
    expect(await site.html('localhost:4321', '/en/about-us')).toBe('<h1>About</h1>');
    expect(await site.html('localhost', '/')).toBe('<h1>Root</h1>');
    expect(await site.html('localhost', '/en/missing')).toBeNull();
    expect(await site.html('../etc', '/')).toBeNull();
  });

  it('reads the HTML from the release its rules were loaded from, even when the pointer moved meanwhile', async () => {
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'old', csp: null } }), { 'en/index.html': 'old' });
    await swap('release0002');
    const site = new StaticSite(root);
    site.load('localhost');
    expect(site.route('localhost', '/en')).toEqual({ fingerprint: 'old', csp: null });
    await publish('localhost', meta('b2', { '/en': { fingerprint: 'new', csp: null } }), { 'en/index.html': 'new' });
    await swap('release0003');
    // A request that loaded the rules of b1 gets b1's page, never the next release's HTML with b1's ETag.
    expect(await site.html('localhost', '/en')).toBe('old');
    site.load('localhost');
    expect(await site.html('localhost', '/en')).toBe('new');
  });

  it('reads a file with its compressed siblings once per release, and the new release\'s file after a swap', async () => {
    await publish('localhost', meta('b1', {}), { 'en/index.html': 'old', 'en/index.html.br': 'OLD-BR', 'robots.txt': 'small' });
    await swap('release0002');
    const site = new StaticSite(root);
    site.load('localhost');
    const page = await site.file('localhost', '/en/index.html');
    expect([page?.encodings, page?.bodies.identity.toString(), page?.bodies.br?.toString()]).toEqual([['br', 'identity'], 'old', 'OLD-BR']);
    expect((await site.file('localhost', '/robots.txt'))?.encodings).toEqual(['identity']);
    expect(await site.file('localhost', '/en/missing/index.html')).toBeNull();
    expect(await site.file('localhost', '/../../etc/passwd')).toBeNull();
    await publish('localhost', meta('b2', {}), { 'en/index.html': 'new', 'en/index.html.br': 'NEW-BR', 'en/index.html.gz': 'NEW-GZ' });
    await swap('release0003');
    // Pinned to the release its rules came from until the next load.
    expect((await site.file('localhost', '/en/index.html'))?.bodies.identity.toString()).toBe('old');
    site.load('localhost');
    const next = await site.file('localhost', '/en/index.html');
    expect([next?.encodings, next?.bodies.gzip?.toString()]).toEqual([['br', 'gzip', 'identity'], 'NEW-GZ']);
  });
});
