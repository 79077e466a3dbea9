import { describe, expect, it } from 'vitest';
import type { NewsFeedItem } from '../../lib/content/index.ts';
import { makeLocale } from '../../site/locale.ts';
import { mainSiteOrigin, toNewsFeedEntry, type NewsLinkOptions } from './response.ts';

const main = { id: 'site-main', slug: '', isMain: true, domains: [{ host: 'localhost', slug: null }, { host: 'komax.example', slug: null }] };
const events = { isMain: false, domains: [{ host: 'events.localhost', slug: null }, { host: 'events.komax.example', slug: null }] };
const sites = [main, events];
const portal = { id: 'site-portal', slug: 'brand-portal', domains: [] };
const item = (link: NewsFeedItem['link']): NewsFeedItem => ({ id: 'n1', title: 'T', text: 'Text', image: null, link, publicationDate: '2026-04-08T07:00:00Z' });
const link = (l: Partial<NonNullable<NewsFeedItem['link']>>): NewsFeedItem['link'] => ({
  text: null, page: null, path: null, url: null, productSlug: null, serviceSlug: null, pageParameters: null, openInNewTab: false, ...l,
});
const opts = (origin = ''): NewsLinkOptions => ({ links: { site: main, locale: makeLocale('de', 'CH'), sites: [main, portal] }, origin, fallbackLinkText: 'Weiterlesen' });

describe('mainSiteOrigin', () => {
  it('is empty (relative links) on a host of the main site', () => {
    expect(mainSiteOrigin(new URL('http://localhost:4321/api/news-feed'), sites)).toBe('');
    expect(mainSiteOrigin(new URL('https://komax.example/api/news-feed'), sites)).toBe('');
  });

  it('is empty on a host no site claims (the main site answers it)', () => {
    expect(mainSiteOrigin(new URL('http://127.0.0.1:4321/api/news-feed'), sites)).toBe('');
  });

  it("is the main site's loopback origin locally and its public origin otherwise", () => {
    expect(mainSiteOrigin(new URL('http://events.localhost:4321/api/news-feed'), sites)).toBe('http://localhost:4321');
    expect(mainSiteOrigin(new URL('https://events.komax.example/api/news-feed'), sites)).toBe('https://komax.example');
  });
});

describe('toNewsFeedEntry', () => {
  it('resolves a page link on the main site, in the page locale, with its text', () => {
    const entry = toNewsFeedEntry(item(link({ text: 'Investor Relations', page: { id: 'p', path: '/investors', siteId: 'site-main', title: 'Investoren' } })), opts());
    expect(entry.link).toEqual({ href: '/de-ch/investors', text: 'Investor Relations', external: false, newTab: false });
  });

  it('prefixes internal links with the main-site origin on another host, leaves external ones', () => {
    expect(toNewsFeedEntry(item(link({ path: '/stories/x' })), opts('http://localhost:4321')).link?.href).toBe('http://localhost:4321/de-ch/stories/x');
    expect(toNewsFeedEntry(item(link({ url: 'https://example.org/x', openInNewTab: true })), opts('http://localhost:4321')).link)
      .toEqual({ href: 'https://example.org/x', text: 'Weiterlesen', external: true, newTab: true });
  });

  it('uses the page title, then the fallback text, when the link has no text', () => {
    expect(toNewsFeedEntry(item(link({ page: { id: 'p', path: '/x', siteId: null, title: 'Karriere' } })), opts()).link?.text).toBe('Karriere');
    expect(toNewsFeedEntry(item(link({ productSlug: 'kappa-330' })), opts()).link).toMatchObject({ href: '/de-ch/products/kappa-330', text: 'Weiterlesen' });
  });

  it('drops in-app actions, blocked targets and missing links', () => {
    expect(toNewsFeedEntry(item(link({ path: 'action:news-feed' })), opts()).link).toBeNull();
    expect(toNewsFeedEntry(item(link({ url: 'javascript:alert(1)' })), opts()).link).toBeNull();
    expect(toNewsFeedEntry(item(null), opts()).link).toBeNull();
  });

  it('keeps the image with its alternative text', () => {
    const entry = toNewsFeedEntry({ ...item(null), image: { url: 'http://hub/a.svg', mimeType: 'image/svg+xml', alternativeText: 'Hall' } }, opts());
    expect(entry.image).toEqual({ url: 'http://hub/a.svg', alt: 'Hall' });
  });
});
