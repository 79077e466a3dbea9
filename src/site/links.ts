import type { Link } from './navigation-types.ts';
import type { Locale, Site } from './types.ts';
import { localizedPath, productPath, servicePath } from './paths.ts';
import { isLocalHost, siteHost } from './resolve-site.ts';
import { isOfferedIn } from './countries.ts';

export type ResolvedLink =
  | { kind: 'internal'; href: string; newTab: boolean }
  /** A full-page link: http(s) targets and `hard:` targets (prefix removed). */
  | { kind: 'external'; href: string; newTab: boolean }
  /** `action:<name>`: an in-app action such as opening the news feed. */
  | { kind: 'action'; action: string };

const BLOCKED_PROTOCOLS = /^\s*(javascript|data|blob|vbscript):/i;

/** True for targets that must never be rendered as links (javascript:, data:, blob:, vbscript:). */
export function isBlockedTarget(target: string): boolean {
  // Checked as a browser reads the URL: tabs and newlines anywhere and leading control characters are dropped.
  // eslint-disable-next-line no-control-regex -- the URL parser drops exactly the C0 controls and space (U+0000–U+0020) before the scheme
  return BLOCKED_PROTOCOLS.test(target.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, ''));
}

export interface LinkContext {
  site: Pick<Site, 'id' | 'slug'>;
  locale: Pick<Locale, 'urlCode'>;
  /** Sites by id, to link pages of another site. */
  sites?: Pick<Site, 'id' | 'slug' | 'domains'>[];
  /** The current URL: a page of a site on another host gets an absolute link to that host. */
  here?: URL;
  /** The visitor's country: a page not offered there is no link (it would be a 404). */
  country?: string;
}

/**
 * The origin to prefix for a page of `owner`: '' on the current host, else that site's host (with
 * the current port on loopback hosts).
 * @example originFor(eventsSite, new URL('http://localhost:4321/en')) // 'http://events.localhost:4321'
 */
export function originFor(owner: Pick<Site, 'domains'> | undefined, here: URL | undefined): string {
  if (!owner || !here || !owner.domains?.length) return '';
  const host = siteHost(owner as Site, here.hostname);
  if (host === here.hostname) return '';
  const port = isLocalHost(host) && here.port ? `:${here.port}` : '';
  return `${here.protocol}//${host}${port}`;
}

function withParams(href: string, params: Record<string, string> | null): string {
  if (!params || Object.keys(params).length === 0) return href;
  const [path, hash] = href.split('#', 2);
  const sep = path!.includes('?') ? '&' : '?';
  return `${path}${sep}${new URLSearchParams(params).toString()}${hash ? `#${hash}` : ''}`;
}

function fromTarget(target: string, newTab: boolean, ctx: LinkContext): ResolvedLink | null {
  if (isBlockedTarget(target)) return null;
  if (target.startsWith('action:')) return { kind: 'action', action: target.slice('action:'.length) };
  if (target.startsWith('hard:')) {
    const href = target.slice('hard:'.length);
    return href && !isBlockedTarget(href) ? { kind: 'external', href, newTab } : null;
  }
  if (/^https?:\/\//i.test(target) || target.startsWith('mailto:') || target.startsWith('tel:')) {
    return { kind: 'external', href: target, newTab };
  }
  if (target.startsWith('/')) return { kind: 'internal', href: localizedPath(ctx.site, ctx.locale, target), newTab };
  return null;
}

/**
 * Turns a content-hub link into something to render, or null when it has no usable target (or
 * names a page the visitor's country is not offered). Page links to another site's page use that
 * site's slug.
 *
 * @example resolveLink({ path: '/contact', … }, { site: main, locale: de }) // { kind: 'internal', href: '/de/contact' }
 */
export function resolveLink(link: Link | null | undefined, ctx: LinkContext): ResolvedLink | null {
  if (!link) return null;
  const newTab = link.openInNewTab;
  let resolved: ResolvedLink | null = null;
  if (link.page) {
    if (ctx.country && link.page.countries?.length && !isOfferedIn(link.page.countries, ctx.country)) return null;
    const other = link.page.siteId && link.page.siteId !== ctx.site.id ? ctx.sites?.find((s) => s.id === link.page!.siteId) : undefined;
    const owner = other ?? ctx.site;
    const origin = originFor(other, ctx.here);
    resolved = { kind: origin ? 'external' : 'internal', href: `${origin}${localizedPath(owner, ctx.locale, link.page.path)}`, newTab };
  } else if (link.path) {
    resolved = fromTarget(link.path, newTab, ctx);
  } else if (link.url) {
    resolved = fromTarget(link.url, newTab, ctx);
  } else if (link.productSlug) {
    resolved = { kind: 'internal', href: `/${ctx.locale.urlCode}${productPath(link.productSlug)}`, newTab };
  } else if (link.serviceSlug) {
    resolved = { kind: 'internal', href: `/${ctx.locale.urlCode}${servicePath(link.serviceSlug)}`, newTab };
  }
  if (resolved && resolved.kind !== 'action') resolved = { ...resolved, href: withParams(resolved.href, link.pageParameters) };
  return resolved;
}
