import { describe, expect, it } from 'vitest';
import type { Link, NavItem } from '../../site/navigation-types.ts';
import { navigationItems, siteNavigationAnswer } from './navigation.ts';

const link = (extra: Partial<Link>): Link => ({ text: null, page: null, path: null, url: null, productSlug: null, serviceSlug: null, pageParameters: null, openInNewTab: false, ...extra });
const item = (id: string, extra: Partial<NavItem> = {}): NavItem => ({
  id, title: id, titleLanguage: 'en', link: link({ path: `/${id}` }), countries: [], hidden: false, hideSubItems: false, breadcrumbOverride: null, items: [], ...extra,
});
const ctx = { site: { id: 'main', slug: '' }, locale: { urlCode: 'de' } };

describe('navigationItems', () => {
  const tree = [
    item('a', { items: [item('a1'), item('a2', { hidden: true })] }),
    item('secret', { hidden: true }),
    item('dead', { link: link({}) }),
    item('none', { link: null }),
    item('folded', { hideSubItems: true, items: [item('f1')] }),
    item('news', { link: link({ url: 'action:news-feed' }) }),
  ];

  it('public: hidden items and items without a link target are left out; links resolved', () => {
    const out = navigationItems(tree, ctx, false);
    expect(out.map((i) => i.id)).toEqual(['a', 'folded', 'news']);
    expect(out[0]!.items.map((i) => i.id)).toEqual(['a1']);
    expect(out[0]!.link).toEqual({ text: null, href: '/de/a', newTab: false });
    expect(out[1]!.items).toEqual([]);
    expect(out[2]!.link.href).toBe('action:news-feed');
  });

  it('editor: hidden items stay, marked; items without a target are still left out', () => {
    const out = navigationItems(tree, ctx, true);
    expect(out.map((i) => [i.id, i.hidden])).toEqual([['a', false], ['secret', true], ['folded', false], ['news', false]]);
    expect(out[0]!.items.map((i) => [i.id, i.hidden])).toEqual([['a1', false], ['a2', true]]);
  });
});

describe('siteNavigationAnswer', () => {
  it('has the spec\'s shape, null where a navigation is missing', () => {
    const answer = siteNavigationAnswer({ id: 'main', name: 'Komax' }, 'de', 'DRAFT', { homeItems: [item('h')], topItems: [], theme: 'Default', hidden: false }, null, ctx, true);
    expect(answer).toEqual({
      site: {
        id: 'main', name: 'Komax', language: 'de', stage: 'DRAFT', footerNavigation: null,
        headerNavigation: { homeItems: [expect.objectContaining({ id: 'h' })], topItems: [], theme: 'Default', hidden: false },
      },
    });
  });
});
