import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { hostDir, normalizeHost, StaticSite, type BuildMeta } from './static-site.ts';
import { captureLogs } from '../lib/log/testing.ts';

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

  const meta = (id: string, routes: BuildMeta['routes']): BuildMeta => ({ id, timestamp: '2026-01-01T00:00:00Z', appBuildId: 'app-1', routes, redirects: [] });
  const publish = async (host: string, m: BuildMeta) => {
    await mkdir(join(root, host, 'builds/meta'), { recursive: true });
    await writeFile(join(root, host, 'builds/meta', `${m.id}.json`), JSON.stringify(m));
    await writeFile(join(root, host, 'builds/latest.json'), JSON.stringify({ id: m.id, timestamp: m.timestamp }));
  };

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'static-site-'));
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(root, { recursive: true, force: true });
  });

  it('loads the latest build of a host and answers its route rules', async () => {
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'f-en', csp: "default-src 'self'" } }));
    const site = new StaticSite(root);
    expect(site.load('localhost')).toMatchObject({ latest: { id: 'b1' }, meta: { id: 'b1' } });
    expect(site.route('localhost', '/en')).toEqual({ fingerprint: 'f-en', csp: "default-src 'self'" });
    expect(site.route('LOCALHOST:4321', '/en')).toEqual({ fingerprint: 'f-en', csp: "default-src 'self'" });
    expect(site.route('localhost', '/de')).toBeNull();
    expect(site.latest('localhost')).toEqual({ id: 'b1', timestamp: '2026-01-01T00:00:00Z' });
  });

  it('keeps hosts apart', async () => {
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'main', csp: null } }));
    await publish('events.localhost', meta('e1', { '/en': { fingerprint: 'events', csp: null } }));
    const site = new StaticSite(root);
    site.load('localhost');
    site.load('events.localhost');
    expect(site.route('localhost', '/en')?.fingerprint).toBe('main');
    expect(site.route('events.localhost', '/en')?.fingerprint).toBe('events');
  });

  it('answers null for a host without a build or a bad host', async () => {
    const site = new StaticSite(root);
    expect(site.load('unknown.localhost')).toBeNull();
    expect(site.load('../etc')).toBeNull();
    expect(site.route('unknown.localhost', '/en')).toBeNull();
    expect(site.latest('unknown.localhost')).toBeNull();
  });

  it('answers null and logs when the manifest of the latest build is missing', async () => {
    await mkdir(join(root, 'localhost/builds'), { recursive: true });
    await writeFile(join(root, 'localhost/builds/latest.json'), JSON.stringify({ id: 'gone', timestamp: 't' }));
    const logs = captureLogs('error');
    try {
      expect(new StaticSite(root).load('localhost')).toBeNull();
    } finally {
      logs.restore();
    }
    expect(logs.lines).toEqual([expect.objectContaining({ level: 'error', component: 'static', msg: expect.stringContaining('could not read the build of localhost') })]);
  });

  it('reads a newly published build after invalidate()', async () => {
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'old', csp: null } }));
    const site = new StaticSite(root);
    site.load('localhost');
    await publish('localhost', meta('b2', { '/en': { fingerprint: 'new', csp: null } }));
    site.invalidate();
    expect(site.route('localhost', '/en')).toBeNull();
    site.load('localhost');
    expect(site.route('localhost', '/en')?.fingerprint).toBe('new');
    expect(site.latest('localhost')?.id).toBe('b2');
  });

  it('reads a newly published build once the recheck interval has passed', async () => {
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'old', csp: null } }));
    const site = new StaticSite(root);
    site.load('localhost');
    await publish('localhost', meta('b2', { '/en': { fingerprint: 'new', csp: null } }));
    now += 500;
    site.load('localhost');
    expect(site.route('localhost', '/en')?.fingerprint).toBe('old');
    now += 1000;
    site.load('localhost');
    expect(site.route('localhost', '/en')?.fingerprint).toBe('new');
  });

  it('forgets a host whose latest.json disappeared', async () => {
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    await publish('localhost', meta('b1', { '/en': { fingerprint: 'f', csp: null } }));
    const site = new StaticSite(root);
    site.load('localhost');
    await rm(join(root, 'localhost/builds/latest.json'));
    now += 5000;
    expect(site.load('localhost')).toBeNull();
    expect(site.route('localhost', '/en')).toBeNull();
  });

  it('reads the saved HTML of a route, and null when there is none', async () => {
    await mkdir(join(root, 'localhost/en/about-us'), { recursive: true });
    await writeFile(join(root, 'localhost/en/about-us/index.html'), '<h1>About</h1>');
    await writeFile(join(root, 'localhost/index.html'), '<h1>Root</h1>');
    const site = new StaticSite(root);
    expect(await site.html('localhost:4321', '/en/about-us')).toBe('<h1>About</h1>');
    expect(await site.html('localhost', '/')).toBe('<h1>Root</h1>');
    expect(await site.html('localhost', '/en/missing')).toBeNull();
    expect(await site.html('../etc', '/')).toBeNull();
  });
});
