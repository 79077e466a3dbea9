import { describe, expect, it } from 'vitest';
import { isLocalHost, NO_DOMAIN_ERROR, resolveSite, siteHost, SiteResolutionError } from './resolve-site.ts';
import type { Domain, Site } from './types.ts';

const site = (id: string, slug: string, domains: Domain[], extra: Partial<Site> = {}): Site => ({
  id, name: id, technicalName: id, slug, isMain: false, internationalOnly: false, hideSideButtons: false,
  enableCutFont: false, theme: 'Default', mainSiteOnly: false, headerNavigationId: 'h', footerNavigationId: 'f',
  domains, addLanguages: [], dropLanguages: [], ...extra,
});
const d = (host: string, slug: string | null = null): Domain => ({ host, slug });

const main = site('main', '', [d('localhost'), d('komax.example')], { isMain: true });
const portal = site('portal', 'brand-portal', [d('localhost', 'brand-portal'), d('komax.example', 'brand-portal')]);
const events = site('events', '', [d('events.localhost'), d('events.komax.example')]);
// Only reachable through a suffix match with a slug (a sub-domain of komax.example).
const jobs = site('jobs', 'jobs', [d('komax.example', 'jobs')]);
const partner = site('partner', '', [d('partner.example')]);
const sites = [main, portal, events, jobs];

const pick = (host: string, segment?: string, list = sites) => {
  const m = resolveSite(list, host, segment);
  return { id: m.site.id, bySlug: m.bySlug };
};

describe('resolveSite: matching order', () => {
  it('1. exact host with slug', () => {
    expect(pick('komax.example', 'brand-portal')).toEqual({ id: 'portal', bySlug: true });
  });

  it('2. exact host without slug when the segment names no site', () => {
    expect(pick('komax.example', 'about-us')).toEqual({ id: 'main', bySlug: false });
    expect(pick('events.komax.example', 'brand-portal')).toEqual({ id: 'events', bySlug: false });
  });

  it('3. host suffix with slug', () => {
    expect(pick('www.komax.example', 'jobs')).toEqual({ id: 'jobs', bySlug: true });
    expect(pick('www.komax.example', 'brand-portal')).toEqual({ id: 'portal', bySlug: true });
  });

  it('4. host suffix without slug', () => {
    expect(pick('www.komax.example', 'about-us')).toEqual({ id: 'main', bySlug: false });
    expect(pick('cdn.partner.example', 'x', [main, partner])).toEqual({ id: 'partner', bySlug: false });
  });

  it('prefers an exact host without slug over a suffix match with slug', () => {
    // Step 2 (exact host, no slug) comes before step 3 (suffix with slug).
    const sub = site('sub', '', [d('www.komax.example')]);
    expect(pick('www.komax.example', 'jobs', [jobs, sub, main])).toEqual({ id: 'sub', bySlug: false });
  });

  it('prefers an exact host with slug over an exact host without slug', () => {
    expect(pick('localhost', 'brand-portal', [main, portal])).toEqual({ id: 'portal', bySlug: true });
  });

  it('ignores the port and the case of the host and segment', () => {
    expect(pick('LocalHost:4321', 'Brand-Portal')).toEqual({ id: 'portal', bySlug: true });
    expect(pick('events.localhost:8080', undefined)).toEqual({ id: 'events', bySlug: false });
  });

  it('does not treat a host that merely ends with the same letters as a sub-domain', () => {
    expect(pick('notkomax.example', 'jobs')).toEqual({ id: 'main', bySlug: false });
  });
});

describe('resolveSite: main-site fallback', () => {
  it('uses the main site (the one without a slug) for an unknown host', () => {
    expect(pick('unknown.example', 'brand-portal')).toEqual({ id: 'main', bySlug: false });
  });

  it(`raises '${NO_DOMAIN_ERROR}' when the main site has no domain configuration`, () => {
    const bare = site('main', '', [], { isMain: true });
    expect(() => resolveSite([bare, portal], 'unknown.example', undefined)).toThrow(SiteResolutionError);
    expect(() => resolveSite([bare, portal], 'unknown.example', undefined)).toThrow('Matched site but no domain configuration was found.');
  });

  it('raises the same error when there is no main site at all', () => {
    expect(() => resolveSite([portal], 'unknown.example', undefined)).toThrow(NO_DOMAIN_ERROR);
  });
});

describe('siteHost', () => {
  it('picks the domain of the same host family as the running host', () => {
    expect(siteHost(events, 'localhost:4321')).toBe('events.localhost');
    expect(siteHost(events, 'komax.example')).toBe('events.komax.example');
  });

  it('falls back to the first domain when none is of the same family', () => {
    expect(siteHost(jobs, 'localhost')).toBe('komax.example');
  });

  it('raises the no-domain error for a site without domains', () => {
    expect(() => siteHost(site('x', '', []), 'localhost')).toThrow(NO_DOMAIN_ERROR);
  });
});

describe('isLocalHost', () => {
  it.each(['localhost', 'localhost:4321', 'events.localhost', 'EVENTS.LOCALHOST:80', '127.0.0.1', '127.0.0.1:4321', '[::1]', '[::1]:4321'])(
    'is true for %s',
    (host) => expect(isLocalHost(host)).toBe(true),
  );

  it.each(['komax.example', 'localhost.example', 'mylocalhost', '127.0.0.2'])('is false for %s', (host) => {
    expect(isLocalHost(host)).toBe(false);
  });
});
