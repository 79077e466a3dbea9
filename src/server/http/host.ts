import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { join } from 'node:path';
import { getLogger } from '../../lib/log/index.ts';

const log = getLogger('host');

/**
 * The Host header, checked once at the edge: normalised (lower case, no trailing dot, port split
 * off), validated (DNS labels, IPv4 or bracketed IPv6, bounded length) and resolved to the host of
 * a configured site. Everything after this (static trees, caches, the Astro handler) sees only a
 * resolved site host, never the raw header.
 */

/** Longest Host header we look at: a 253-character name, a colon and a 5-digit port, with room to spare. */
export const MAX_HOST_HEADER = 270;
const MAX_HOSTNAME = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export interface ParsedHost {
  /** Lower-case hostname without trailing dot; IPv6 keeps its brackets. */
  hostname: string;
  /** The port as written, or null. */
  port: string | null;
}

export type HostCheck = { ok: true; host: ParsedHost } | { ok: false; reason: 'missing' | 'invalid' };

/** True for a syntactically valid hostname: DNS labels, a dotted-quad IPv4 or a bracketed IPv6. */
export function isValidHostname(hostname: string): boolean {
  if (hostname.length === 0 || hostname.length > MAX_HOSTNAME) return false;
  if (hostname.startsWith('[')) return hostname.endsWith(']') && isIPv6(hostname.slice(1, -1));
  if (isIPv4(hostname)) return true;
  return hostname.split('.').every((label) => LABEL.test(label));
}

/**
 * Parses a Host header.
 *
 * @example parseHost('Events.Localhost.:4321') // { ok: true, host: { hostname: 'events.localhost', port: '4321' } }
 * @example parseHost('x/../..') // { ok: false, reason: 'invalid' }
 */
export function parseHost(header: string | undefined): HostCheck {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
  if (header.length > MAX_HOST_HEADER) return { ok: false, reason: 'invalid' };
  const m = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(header.toLowerCase());
  if (!m) return { ok: false, reason: 'invalid' };
  const port = m[2] ?? null;
  if (port !== null && (Number(port) < 1 || Number(port) > 65535)) return { ok: false, reason: 'invalid' };
  const name = m[1]!;
  const hostname = !name.startsWith('[') && name.endsWith('.') ? name.slice(0, -1) : name;
  if (!isValidHostname(hostname)) return { ok: false, reason: 'invalid' };
  return { ok: true, host: { hostname, port } };
}

/** The hosts the static tree serves: the main site's host and every host with a tree. */
export interface SiteHosts {
  main: string;
  hosts: readonly string[];
}

/**
 * The site host a (valid) hostname is served as: the host itself when it is a site's, else the
 * most specific site host it is a subdomain of (`foo.events.localhost` → `events.localhost`, like
 * the suffix rules of src/site/resolve-site.ts), else the main site's host.
 */
export function resolveSiteHost(hostname: string, sites: SiteHosts): string {
  let best: string | null = null;
  for (const h of sites.hosts) {
    if (hostname === h) return h;
    if (hostname.endsWith(`.${h}`) && (best === null || h.length > best.length)) best = h;
  }
  return best ?? sites.main;
}

/** The Host header downstream sees: the resolved site host with the port the client used. */
export function hostHeaderFor(siteHost: string, port: string | null): string {
  return port === null ? siteHost : `${siteHost}:${port}`;
}

/** Whether a hostname is the developer's machine (served over plain http; cookies without `Secure` there). */
export function isLocalHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '127.0.0.1' || hostname === '[::1]';
}

/**
 * Where a request that reached a TLS-terminating proxy over plain http goes: the same host on
 * https (HSTS is only honoured over https, so the first redirect stays on the host). The proxy
 * says so with `X-Forwarded-Proto: http` (its first value: the client's hop). Null for any other
 * request, for local hosts and for a target that is not a plain path. `hostname` is the validated,
 * lower-cased one of `parseHost` (the host the client asked for), so the answer cannot name another host.
 *
 * @example httpsRedirectTarget('http', 'www.komax.example', '/en?q=1') // 'https://www.komax.example/en?q=1'
 */
export function httpsRedirectTarget(forwardedProto: string | string[] | undefined, hostname: string, target: string): string | null {
  const first = (Array.isArray(forwardedProto) ? forwardedProto[0] : forwardedProto)?.split(',')[0]?.trim().toLowerCase();
  if (first !== 'http' || isLocalHostname(hostname) || !target.startsWith('/') || target.startsWith('//')) return null;
  return `https://${hostname}${target}`;
}

/** The main host in local mode when no hosts.json names one. */
export const LOCAL_MAIN_HOST = 'localhost';

interface HostsFile {
  main?: unknown;
  hosts?: unknown;
}

/**
 * Reads the site hosts of a static root: `hosts.json` (`{"main": "<host>", "hosts": {"<host>": "<origin>"}}`)
 * when present, otherwise the host folders of the root, with `localhost` as the main host (local
 * mode) or, failing that, the shortest host. Names that are not valid hostnames are skipped.
 * Releases (`<root>/live/hosts.json`) need only a different `root`.
 */
export function readSiteHosts(root: string): SiteHosts {
  const valid = (h: unknown): h is string => typeof h === 'string' && h === h.toLowerCase() && isValidHostname(h) && !h.startsWith('[');
  let fromFile: HostsFile | null = null;
  const file = join(root, 'hosts.json');
  if (existsSync(file)) {
    try {
      fromFile = JSON.parse(readFileSync(file, 'utf8')) as HostsFile;
    } catch (err) {
      log.error(`ignoring unreadable ${file}: ${(err as Error).message}`);
    }
  }
  let hosts: string[];
  if (fromFile?.hosts && typeof fromFile.hosts === 'object') {
    hosts = Object.keys(fromFile.hosts).filter(valid);
  } else {
    try {
      hosts = readdirSync(root).filter((name) => valid(name) && statSync(join(root, name)).isDirectory());
    } catch {
      hosts = [];
    }
  }
  hosts.sort();
  const fileMain = fromFile?.main;
  const main = valid(fileMain)
    ? fileMain
    : hosts.includes(LOCAL_MAIN_HOST) || hosts.length === 0
      ? LOCAL_MAIN_HOST
      : [...hosts].sort((a, b) => a.length - b.length || a.localeCompare(b))[0]!;
  return { main, hosts };
}

/**
 * The site hosts of a static root, read again at most every `recheckMs` (a prerender may add a
 * host) or at once after `refresh()` (a new build was published).
 */
export class SiteHostsCache {
  readonly root: string;
  private recheckMs: number;
  private value: SiteHosts | null = null;
  private readAt = 0;

  constructor(root: string, opts: { recheckMs?: number } = {}) {
    this.root = root;
    this.recheckMs = opts.recheckMs ?? 1000;
  }

  get(): SiteHosts {
    if (!this.value || performance.now() - this.readAt >= this.recheckMs) {
      this.value = readSiteHosts(this.root);
      this.readAt = performance.now();
    }
    return this.value;
  }

  refresh(): void {
    this.value = null;
  }
}
