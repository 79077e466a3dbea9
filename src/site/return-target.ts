import { isLocalHost } from './resolve-site.ts';
import type { Site } from './types.ts';

/**
 * The way back from the customer area to the site a visitor came from. The customer area lives on
 * the main site only; a sub-site on its own host (`events.localhost`, `www.wirepro-partner.example`)
 * links there with `?return=<its page>`, and logout goes back to that site. The return address is
 * an input from anybody: only the hosts of the site configuration are accepted (no open redirect).
 */

/** The query parameter a sub-site's link into the customer area names its page with. */
export const RETURN_PARAM = 'return';
/** Longer return addresses are refused (no page of ours needs more). */
export const MAX_RETURN_LENGTH = 2048;

/** Every host of the site configuration, lower-cased, once each (both the loopback and the public ones). */
export function siteHosts(sites: readonly Pick<Site, 'domains'>[]): string[] {
  return [...new Set(sites.flatMap((s) => (s.domains ?? []).map((d) => d.host.toLowerCase())))];
}

/**
 * The origins of those hosts in the host family of the current page (loopback hosts locally,
 * public hosts otherwise), with the page's scheme, and its port on loopback hosts (as
 * {@link originFor} in links.ts). The browser passes its own address: behind a TLS proxy the
 * server may not know the public scheme.
 * @example siteOrigins(['localhost', 'events.localhost', 'komax.example'], new URL('http://localhost:4321/en'))
 *   // ['http://localhost:4321', 'http://events.localhost:4321']
 */
export function siteOrigins(hosts: readonly string[], here: URL): string[] {
  const local = isLocalHost(here.hostname);
  const port = local && here.port ? `:${here.port}` : '';
  return hosts.filter((h) => isLocalHost(h) === local).map((h) => `${here.protocol}//${h}${port}`);
}

/** `new URL` without the throw (URL.parse is too new for some of the browsers we serve). */
function parseUrl(href: string, base?: URL): URL | null {
  try {
    return new URL(href, base);
  } catch {
    return null;
  }
}

/**
 * The address to return to when `raw` is an absolute http(s) URL on one of `allowedOrigins`
 * (without user info, without a fragment), else null: anything else is ignored.
 * @example returnTarget('http://events.localhost:4321/en/agenda#x', ['http://events.localhost:4321']) // 'http://events.localhost:4321/en/agenda'
 * @example returnTarget('https://evil.example/', ['http://events.localhost:4321']) // null
 */
export function returnTarget(raw: string | null | undefined, allowedOrigins: readonly string[]): string | null {
  // An allow-list check on the parsed URL, not a schema: the header's script shares this module
  // with every public page, which should not carry a validation library for it.
  const trimmed = raw?.trim();
  if (!trimmed || trimmed.length > MAX_RETURN_LENGTH) return null;
  const url = parseUrl(trimmed);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return null;
  if (!allowedOrigins.includes(url.origin)) return null;
  url.hash = '';
  return url.href;
}

/**
 * Where the provider's logout sends the browser back to for a return address: the root of its
 * site's host. The provider returns only to registered addresses, and those are the hosts' roots
 * (docs/operations.md); the root of a site's host leads to its home page.
 * @example signOutReturnUri('http://events.localhost:4321/en/agenda') // 'http://events.localhost:4321/'
 */
export function signOutReturnUri(target: string): string {
  return `${new URL(target).origin}/`;
}

/**
 * A link with the current page as its return address, when it leads to another origin (a
 * sub-site's link into the main site's customer area); same-origin links stay as they are.
 * @example withReturn('http://localhost:4321/en/mykomax#direct', new URL('http://events.localhost:4321/en'))
 *   // 'http://localhost:4321/en/mykomax?return=http%3A%2F%2Fevents.localhost%3A4321%2Fen#direct'
 */
export function withReturn(href: string, here: URL): string {
  const url = parseUrl(href, here);
  if (!url || url.origin === here.origin) return href;
  const back = new URL(here.href);
  back.hash = '';
  if (back.href.length > MAX_RETURN_LENGTH) return href;
  url.searchParams.set(RETURN_PARAM, back.href);
  return url.href;
}
