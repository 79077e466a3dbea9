import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hostHeaderFor, httpsRedirectTarget, isLocalHostname, isValidHostname, MAX_HOST_HEADER, parseHost, readSiteHosts, resolveSiteHost, SiteHostsCache } from './host.ts';

describe('parseHost', () => {
  it.each([
    ['localhost', 'localhost', null],
    ['localhost:4321', 'localhost', '4321'],
    ['LOCALHOST:4321', 'localhost', '4321'],
    ['Events.Localhost', 'events.localhost', null],
    ['localhost.', 'localhost', null],
    ['localhost.:4321', 'localhost', '4321'],
    ['www.komax.example', 'www.komax.example', null],
    ['127.0.0.1:8080', '127.0.0.1', '8080'],
    ['[::1]:4321', '[::1]', '4321'],
    ['[2001:DB8::1]', '[2001:db8::1]', null],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example', null],
  ])('normalises %j', (header, hostname, port) => {
    expect(parseHost(header)).toEqual({ ok: true, host: { hostname, port } });
  });

  it.each([undefined, '', '   '])('calls %j missing', (header) => {
    expect(parseHost(header)).toEqual({ ok: false, reason: 'missing' });
  });

  it.each([
    'x/../..', '..', '.', '../etc', '%2e%2e', 'a%2fb', 'a\\b', '..\\..', 'host/sub', 'a..b', '.localhost', 'localhost..',
    'ho st', 'a_b.example', '-a.example', 'a-.example', 'localhost:', 'localhost:0', 'localhost:65536', 'localhost:123456',
    'localhost:43x', 'a:1:2', '::1', '[::1', '[localhost]', '[::1]x', 'bücher.example', 'a'.repeat(64), `${'a.'.repeat(127)}a`,
    'x'.repeat(MAX_HOST_HEADER + 1), 'localhost\u0000', 'local\thost', '@evil', 'user@localhost',
  ])('rejects %j', (header) => {
    expect(parseHost(header)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('isValidHostname', () => {
  it('accepts labels up to 63 characters and names up to 253', () => {
    expect(isValidHostname('a'.repeat(63))).toBe(true);
    expect(isValidHostname(`${'a'.repeat(63)}.`.repeat(3) + 'a'.repeat(61))).toBe(true);
    expect(isValidHostname(`${'a'.repeat(63)}.`.repeat(3) + 'a'.repeat(62))).toBe(false);
  });
});

describe('resolveSiteHost', () => {
  const sites = { main: 'localhost', hosts: ['events.localhost', 'localhost', 'partner.localhost'] };

  it('keeps a site host', () => {
    expect(resolveSiteHost('events.localhost', sites)).toBe('events.localhost');
    expect(resolveSiteHost('localhost', sites)).toBe('localhost');
  });

  it('serves a subdomain as the most specific site host it ends with', () => {
    expect(resolveSiteHost('foo.events.localhost', sites)).toBe('events.localhost');
    expect(resolveSiteHost('a.b.partner.localhost', sites)).toBe('partner.localhost');
    expect(resolveSiteHost('foo.localhost', sites)).toBe('localhost');
  });

  it('serves any other host as the main site', () => {
    expect(resolveSiteHost('evil.example', sites)).toBe('localhost');
    expect(resolveSiteHost('127.0.0.1', sites)).toBe('localhost');
    expect(resolveSiteHost('[::1]', sites)).toBe('localhost');
    expect(resolveSiteHost('xevents.localhost.example', sites)).toBe('localhost');
    expect(resolveSiteHost('anything', { main: 'komax.example', hosts: [] })).toBe('komax.example');
  });
});

describe('hostHeaderFor', () => {
  it('keeps the port', () => {
    expect(hostHeaderFor('localhost', '4321')).toBe('localhost:4321');
    expect(hostHeaderFor('komax.example', null)).toBe('komax.example');
  });
});

describe('readSiteHosts', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'site-hosts-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('lists the host folders, with localhost as the main host in local mode', async () => {
    for (const h of ['localhost', 'events.localhost', 'partner.localhost']) await mkdir(join(root, h));
    await mkdir(join(root, 'Not_A_Host'));
    await writeFile(join(root, 'file.localhost'), 'a file, not a tree');
    expect(readSiteHosts(root)).toEqual({ main: 'localhost', hosts: ['events.localhost', 'localhost', 'partner.localhost'] });
  });

  it('takes main and hosts from hosts.json when present', async () => {
    await mkdir(join(root, 'stale.example'));
    await writeFile(join(root, 'hosts.json'), JSON.stringify({
      main: 'komax.example',
      hosts: { 'komax.example': 'https://komax.example', 'events.komax.example': 'https://events.komax.example', '../etc': 'x' },
    }));
    expect(readSiteHosts(root)).toEqual({ main: 'komax.example', hosts: ['events.komax.example', 'komax.example'] });
  });

  it('falls back to the shortest host without localhost, and to localhost without any tree', async () => {
    expect(readSiteHosts(join(root, 'missing'))).toEqual({ main: 'localhost', hosts: [] });
    for (const h of ['komax.example', 'events.komax.example']) await mkdir(join(root, h));
    expect(readSiteHosts(root).main).toBe('komax.example');
  });

  it('is read again after refresh()', async () => {
    await mkdir(join(root, 'localhost'));
    const cache = new SiteHostsCache(root, { recheckMs: 60_000 });
    expect(cache.get().hosts).toEqual(['localhost']);
    await mkdir(join(root, 'events.localhost'));
    expect(cache.get().hosts).toEqual(['localhost']);
    cache.refresh();
    expect(cache.get().hosts).toEqual(['events.localhost', 'localhost']);
  });
});

describe('httpsRedirectTarget', () => {
  it('sends plain http through a TLS proxy to the same host on https, path and query kept', () => {
    expect(httpsRedirectTarget('http', 'www.komax.example', '/en?q=1')).toBe('https://www.komax.example/en?q=1');
    expect(httpsRedirectTarget('HTTP, https', 'events.komax.example', '/')).toBe('https://events.komax.example/');
    expect(httpsRedirectTarget(['http'], 'www.komax.example', '/en')).toBe('https://www.komax.example/en');
  });

  it('leaves https, an absent header, local hosts and odd targets alone', () => {
    expect(httpsRedirectTarget('https', 'www.komax.example', '/en')).toBeNull();
    expect(httpsRedirectTarget(undefined, 'www.komax.example', '/en')).toBeNull();
    expect(httpsRedirectTarget('ws', 'www.komax.example', '/en')).toBeNull();
    for (const local of ['localhost', 'events.localhost', '127.0.0.1', '[::1]']) expect(httpsRedirectTarget('http', local, '/en')).toBeNull();
    expect(httpsRedirectTarget('http', 'www.komax.example', '//evil.example/')).toBeNull();
    expect(httpsRedirectTarget('http', 'www.komax.example', 'http://evil.example/')).toBeNull();
  });
});

describe('isLocalHostname', () => {
  it('is true only for the developer machine', () => {
    expect(['localhost', 'events.localhost', '127.0.0.1', '[::1]'].map(isLocalHostname)).toEqual([true, true, true, true]);
    expect(['komax.example', 'localhost.example', 'evil-localhost', '10.0.0.1'].map(isLocalHostname)).toEqual([false, false, false, false]);
  });
});
