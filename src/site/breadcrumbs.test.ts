import { describe, expect, it } from 'vitest';
import { breadcrumbs, notFoundBreadcrumbs } from './breadcrumbs.ts';
import type { VisibleNavItem } from './navigation.ts';

const nav = (id: string, href: string, items: VisibleNavItem[] = [], breadcrumbOverride: string | null = null): VisibleNavItem => ({
  id, title: id.toUpperCase(), titleLanguage: null, link: { kind: 'internal', href, newTab: false }, items, breadcrumbOverride,
});

const home = { title: 'Home', route: '/en' };
const tree = [
  nav('company', '/en/company', [
    nav('careers', '/en/company/careers', [nav('jobs', '/en/company/careers/jobs?region=eu')], 'Jobs & careers'),
  ]),
  { id: 'news', title: 'News', titleLanguage: null, link: { kind: 'action', action: 'openNewsFeed' }, items: [nav('archive', '/en/news-archive')], breadcrumbOverride: null } satisfies VisibleNavItem,
];

describe('breadcrumbs', () => {
  it('start with home and end with the page, which is not clickable', () => {
    expect(breadcrumbs({ home, nav: tree, currentHref: '/en/company/careers', currentTitle: 'Careers page' })).toEqual([
      { title: 'Home', route: '/en' },
      { title: 'COMPANY', route: '/en/company' },
      { title: 'Jobs & careers', route: null },
    ]);
  });

  it('use the breadcrumb override for an item on the way', () => {
    expect(breadcrumbs({ home, nav: tree, currentHref: '/en/company/careers/jobs', currentTitle: 'Jobs' })).toEqual([
      { title: 'Home', route: '/en' },
      { title: 'COMPANY', route: '/en/company' },
      { title: 'Jobs & careers', route: '/en/company/careers' },
      { title: 'Jobs', route: null },
    ]);
  });

  it('use the page title for the last item without an override', () => {
    expect(breadcrumbs({ home, nav: tree, currentHref: '/en/company', currentTitle: 'Our company' }).at(-1))
      .toEqual({ title: 'Our company', route: null });
  });

  it('skip action items on the way', () => {
    expect(breadcrumbs({ home, nav: tree, currentHref: '/en/news-archive', currentTitle: 'Archive' })).toEqual([
      { title: 'Home', route: '/en' },
      { title: 'Archive', route: null },
    ]);
  });

  it('give home plus the page when the page is not in the navigation', () => {
    expect(breadcrumbs({ home, nav: tree, currentHref: '/en/elsewhere', currentTitle: 'Elsewhere' })).toEqual([
      { title: 'Home', route: '/en' },
      { title: 'Elsewhere', route: null },
    ]);
  });

  it('give a single current item on the home page', () => {
    expect(breadcrumbs({ home, nav: tree, currentHref: '/en', currentTitle: 'Welcome' })).toEqual([{ title: 'Home', route: null }]);
  });

  it('mark exactly one item, the last, as current', () => {
    const crumbs = breadcrumbs({ home, nav: tree, currentHref: '/en/company/careers/jobs', currentTitle: 'Jobs' });
    expect(crumbs[0]).toEqual(home);
    expect(crumbs.filter((c) => c.route === null)).toEqual([crumbs.at(-1)]);
  });
});

describe('breadcrumb languages', () => {
  it('carry the language of a navigation title and of the page title when known', () => {
    const fallbackNav = [{ ...nav('company', '/ja/company', [nav('careers', '/ja/company/careers')]), titleLanguage: 'en' }];
    expect(breadcrumbs({ home: { title: 'ホーム', route: '/ja' }, nav: fallbackNav, currentHref: '/ja/company/careers', currentTitle: 'Karriere', currentLanguage: 'de' })).toEqual([
      { title: 'ホーム', route: '/ja' },
      { title: 'COMPANY', route: '/ja/company', titleLanguage: 'en' },
      { title: 'Karriere', route: null, titleLanguage: 'de' },
    ]);
  });
});

describe('notFoundBreadcrumbs', () => {
  it("give home pointing to '/' plus '404' as the current item", () => {
    expect(notFoundBreadcrumbs('Startseite')).toEqual([
      { title: 'Startseite', route: '/' },
      { title: '404', route: null },
    ]);
  });
});
