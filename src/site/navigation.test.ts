import { describe, expect, it, vi } from 'vitest';
import { filterNavigation, marketingBackground, visibleInCountry, visibleMarketing, type NavFilter } from './navigation.ts';
import type { Link, NavItem } from './navigation-types.ts';

const link = (extra: Partial<Link> = {}): Link => ({
  text: null, page: null, path: null, url: null, productSlug: null, serviceSlug: null,
  pageParameters: null, openInNewTab: false, ...extra,
});
const item = (id: string, extra: Partial<NavItem> = {}): NavItem => ({
  id, title: id, titleLanguage: null, link: link({ path: `/${id}` }), countries: [], hidden: false, hideSubItems: false,
  breadcrumbOverride: null, items: [], ...extra,
});
const filter = (extra: Partial<NavFilter> = {}): NavFilter => ({
  site: { id: 'main', slug: '' }, locale: { urlCode: 'en-us' }, country: 'US', editorMode: false, ...extra,
});
interface Tree { id: string; items: Tree[] }
/** The visible tree as ids: `['a', ['b', ['b1']]]`. */
const ids = (items: Tree[]): unknown => items.map((i) => (i.items.length ? [i.id, ids(i.items)] : i.id));

describe('country filter', () => {
  it('shows an item with no countries or with the current country', () => {
    expect(visibleInCountry({ countries: [] }, 'US')).toBe(true);
    expect(visibleInCountry({ countries: ['US', 'CA'] }, 'US')).toBe(true);
    expect(visibleInCountry({ countries: ['CH'] }, 'US')).toBe(false);
  });

  it('shows every item in the all-countries view', () => {
    expect(visibleInCountry({ countries: ['CH'] }, 'ALL')).toBe(true);
  });

  it('filters the tree at every level', () => {
    const tree = [
      item('global', { items: [item('us-only', { countries: ['US'] }), item('ch-only', { countries: ['CH'] })] }),
      item('ch-top', { countries: ['CH'] }),
    ];
    expect(ids(filterNavigation(tree, filter({ country: 'US' })))).toEqual([['global', ['us-only']]]);
    expect(ids(filterNavigation(tree, filter({ country: 'CH' })))).toEqual([['global', ['ch-only']], 'ch-top']);
    expect(ids(filterNavigation(tree, filter({ country: 'ALL' })))).toEqual([['global', ['us-only', 'ch-only']], 'ch-top']);
  });
});

describe('hidden items', () => {
  const tree = [item('visible'), item('secret', { hidden: true })];

  it('are left out for visitors', () => {
    expect(ids(filterNavigation(tree, filter()))).toEqual(['visible']);
  });

  it('show in editor mode', () => {
    expect(ids(filterNavigation(tree, filter({ editorMode: true })))).toEqual(['visible', 'secret']);
  });
});

describe('items without a usable link', () => {
  it('are skipped silently when the item has no link', () => {
    const warn = vi.fn();
    expect(filterNavigation([item('nolink', { link: null }), item('ok')], filter({ warn })).map((i) => i.id)).toEqual(['ok']);
    expect(warn).not.toHaveBeenCalled();
  });

  it('are skipped with a warning when the link has no target at all', () => {
    const warn = vi.fn();
    expect(filterNavigation([item('empty', { link: link({ text: 'Empty' }) })], filter({ warn }))).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain('empty');
  });

  it('are skipped without a warning when the target is there but unusable', () => {
    const warn = vi.fn();
    expect(filterNavigation([item('bad', { link: link({ url: 'javascript:alert(1)' }) })], filter({ warn }))).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('take their sub items with them', () => {
    expect(filterNavigation([item('parent', { link: null, items: [item('child')] })], filter())).toEqual([]);
  });
});

describe('hideSubItems', () => {
  it('drops the sub items of a flagged item but keeps the item', () => {
    const tree = [item('a', { hideSubItems: true, items: [item('a1')] }), item('b', { items: [item('b1')] })];
    expect(ids(filterNavigation(tree, filter()))).toEqual(['a', ['b', ['b1']]]);
  });
});

describe('visible items', () => {
  it("carry the resolved link, the title, its language and the breadcrumb override", () => {
    const [first] = filterNavigation([item('about', { title: 'About us', titleLanguage: 'en', breadcrumbOverride: 'About' })], filter());
    expect(first).toEqual({
      id: 'about', title: 'About us', titleLanguage: 'en', breadcrumbOverride: 'About', items: [],
      link: { kind: 'internal', href: '/en-us/about', newTab: false },
    });
  });
});

describe('marketing sections', () => {
  const logo = { url: 'http://hub/assets/logos/a.svg', alternativeText: 'Smart Factory' };

  it('knows the background colours by name, Dark_White for none or an unknown one', () => {
    expect(marketingBackground('Light_Blue')).toBe('Light_Blue');
    expect(marketingBackground(' light_black ')).toBe('Light_Black');
    expect(marketingBackground(null)).toBe('Dark_White');
    expect(marketingBackground('')).toBe('Dark_White');
    expect(marketingBackground('Neon_Pink')).toBe('Dark_White');
  });

  it('shows a section with a logo, its link resolved like any link', () => {
    expect(visibleMarketing({ logo, backgroundColor: 'Dark_Gray', link: link({ path: '/digital' }) }, 'Solutions', filter())).toEqual({
      logo: { url: logo.url, alt: 'Smart Factory' }, background: 'Dark_Gray', link: { kind: 'internal', href: '/en-us/digital', newTab: false },
    });
  });

  it('shows nothing without a logo, and the logo unlinked when the link leads nowhere', () => {
    expect(visibleMarketing({ logo: null, backgroundColor: 'Dark_White', link: link({ path: '/x' }) }, 'S', filter())).toBeNull();
    expect(visibleMarketing(null, 'S', filter())).toBeNull();
    expect(visibleMarketing({ logo, backgroundColor: 'Dark_White', link: link() }, 'S', filter())!.link).toBeNull();
  });

  it('names the logo by its alternative text, else the link text, else the item title', () => {
    const alt = (l: typeof logo | { url: string; alternativeText: null }, text: string | null) =>
      visibleMarketing({ logo: l, backgroundColor: 'Dark_White', link: link({ path: '/x', text }) }, 'Solutions', filter())!.logo.alt;
    expect(alt(logo, 'Digital')).toBe('Smart Factory');
    expect(alt({ url: logo.url, alternativeText: null }, 'Digital')).toBe('Digital');
    expect(alt({ url: logo.url, alternativeText: null }, null)).toBe('Solutions');
  });

  it('comes with the item through the filter', () => {
    const [top] = filterNavigation([item('solutions', { marketingSection: { logo, backgroundColor: 'Light_Blue', link: null } }), item('plain')], filter());
    expect(top!.marketing).toMatchObject({ background: 'Light_Blue', link: null });
    expect(filterNavigation([item('plain')], filter())[0]!.marketing).toBeUndefined();
  });
});
