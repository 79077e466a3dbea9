import type { Site } from './types.ts';

export const NO_DOMAIN_ERROR = 'Matched site but no domain configuration was found.';

export class SiteResolutionError extends Error {
  override name = 'SiteResolutionError';
}

export interface SiteMatch {
  site: Site;
  /** True when the site was chosen by its slug, i.e. the first path segment belongs to the site. */
  bySlug: boolean;
}

const hostOf = (host: string) => host.toLowerCase().replace(/:\d+$/, '');
const isSuffix = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * Chooses the site from the host and the first path segment after the locale (spec 2.2):
 * exact host with slug, exact host without slug, host suffix with slug, host suffix without slug;
 * otherwise the main site. A match without any domain configuration is an error.
 *
 * @example resolveSite(sites, 'localhost:4321', 'brand-portal') // the brand portal, bySlug true
 */
export function resolveSite(sites: Site[], hostHeader: string, firstSegment: string | undefined): SiteMatch {
  const host = hostOf(hostHeader);
  const segment = firstSegment?.toLowerCase();
  const steps: Array<(d: { host: string; slug: string | null }) => boolean> = [
    (d) => d.host === host && !!d.slug && d.slug === segment,
    (d) => d.host === host && !d.slug,
    (d) => isSuffix(host, d.host) && !!d.slug && d.slug === segment,
    (d) => isSuffix(host, d.host) && !d.slug,
  ];
  for (const [i, step] of steps.entries()) {
    // Among suffix matches the most specific domain wins (events.komax.example over komax.example).
    let site: Site | undefined;
    let best = -1;
    for (const s of sites) {
      for (const d of s.domains) {
        if (step(d) && d.host.length > best) { site = s; best = d.host.length; }
      }
    }
    if (site) return { site, bySlug: i === 0 || i === 2 };
  }
  const main = sites.find((s) => s.isMain && !s.slug);
  if (!main) throw new SiteResolutionError(NO_DOMAIN_ERROR);
  if (main.domains.length === 0) throw new SiteResolutionError(NO_DOMAIN_ERROR);
  return { site: main, bySlug: false };
}

/** The host a site is served from: the first domain matching the running host family, else its first domain. */
export function siteHost(site: Site, currentHost: string): string {
  if (site.domains.length === 0) throw new SiteResolutionError(NO_DOMAIN_ERROR);
  const host = hostOf(currentHost);
  const local = isLocalHost(host);
  const pick = site.domains.find((d) => isLocalHost(d.host) === local) ?? site.domains[0]!;
  return pick.host;
}

/** True for loopback hosts (localhost, *.localhost, 127.0.0.1, ::1). */
export function isLocalHost(hostHeader: string): boolean {
  const host = hostOf(hostHeader);
  return host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]';
}
