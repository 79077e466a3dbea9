import { getFooterNavigation, getHeaderNavigation, getSystemData, listPages, listSystemRedirects, type ContentConfig, type ContentContext, type Page, type SystemRedirect } from '../../lib/content/index.ts';
import { contentLocaleChain, fallbackLanguage, siteLocales } from '../../site/locale.ts';
import { localizedPath } from '../../site/paths.ts';
import { isLocalHost } from '../../site/resolve-site.ts';
import { isPageAvailable, type ContentPageModel } from '../../models/content-page.ts';
import type { Locale, Site, SystemData } from '../../site/types.ts';
import { allCountry } from '../../site/locale.ts';
import { hashOf } from './fingerprint.ts';

export type HostMode = 'local' | 'public';

/** One static route: where it goes, what it is rendered from, and the hashes of those records. */
export interface PlannedRoute {
  host: string;
  origin: string;
  path: string;
  siteId: string;
  locale: Locale;
  page: Page;
  model: ContentPageModel;
  recordHashes: string[];
}

export interface Collected {
  system: SystemData;
  redirects: SystemRedirect[];
  routes: PlannedRoute[];
  /** Hosts and their origins, one static tree each. */
  hosts: Map<string, string>;
}

/** The host a site is prerendered for: its loopback domain locally, its public domain otherwise. */
export function prerenderHost(site: Site, mode: HostMode): string | null {
  const pick = site.domains.find((d) => isLocalHost(d.host) === (mode === 'local'));
  return pick?.host ?? null;
}

export function originOf(host: string, mode: HostMode, port: number): string {
  return mode === 'local' ? `http://${host}:${port}` : `https://${host}`;
}

/**
 * Pulls everything the static routes are rendered from — system data, navigation and pages per
 * site and locale, redirects — and plans one route per site × locale × page. Only public,
 * published, unprotected pages are planned. Throws (and writes nothing) when a service fails.
 */
export async function collect(config: ContentConfig, opts: { mode: HostMode; port: number }): Promise<Collected> {
  const base: ContentContext = { config, locales: ['en'], stage: 'PUBLISHED' };
  const [system, redirects] = await Promise.all([getSystemData(base), listSystemRedirects(base)]);
  const routes: PlannedRoute[] = [];
  const hosts = new Map<string, string>();

  for (const site of system.sites) {
    const host = prerenderHost(site, opts.mode);
    if (!host) continue;
    const origin = originOf(host, opts.mode, opts.port);
    hosts.set(host, origin);
    const siteFallback = fallbackLanguage(site, system.languages);
    const locales = siteLocales(site, system);
    // Records depend on the locale chain only, so locales sharing a chain share one fetch.
    const byChain = new Map<string, Promise<[Awaited<ReturnType<typeof getHeaderNavigation>>, Awaited<ReturnType<typeof getFooterNavigation>>, Page[]]>>();
    const load = (chain: string[]) => {
      const key = chain.join(',');
      let p = byChain.get(key);
      if (!p) {
        const ctx = { ...base, locales: chain };
        p = Promise.all([getHeaderNavigation(ctx, site), getFooterNavigation(ctx, site), listPages(ctx, site)]);
        byChain.set(key, p);
      }
      return p;
    };
    const results = await Promise.all(locales.map(async (locale) => ({ locale, data: await load(contentLocaleChain(locale, siteFallback)) })));
    const headerHashes = new Map<unknown, string>();
    const hashCached = (v: unknown) => {
      let h = headerHashes.get(v);
      if (!h) { h = hashOf(v); headerHashes.set(v, h); }
      return h;
    };
    for (const { locale, data: [header, footer, pages] } of results) {
      const country = system.countries.find((c) => c.countryCode === locale.country) ?? allCountry(system.languages);
      for (const page of pages) {
        if (page.protection !== 0 || !page.isPublished || !isPageAvailable(page, { site, country })) continue;
        const path = localizedPath(site, locale, page.path);
        routes.push({
          host, origin, path, siteId: site.id, locale, page,
          model: { kind: 'content-page', header, footer, page },
          recordHashes: [hashCached(system), hashCached(header), hashCached(footer), hashCached(page)],
        });
      }
    }
  }
  return { system, redirects, routes, hosts };
}
