import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { mapFooter, mapHeader, mapNavItems, mapPage, mapSystemData, pageInjection, technicalName } from './map.ts';
import { RawFooterSchema, RawHeaderSchema, RawPageSchema, RawSystemDataSchema } from './schema.ts';

const rawSite = (id: string, extra: Record<string, unknown> = {}) => ({
  id, name: `Site ${id}`, slug: '', isMain: false, internationalOnly: false, hideSideButtons: false, enableCutFont: false,
  theme: 'Default', mainSiteOnly: false, headerNavigation: `${id}-header`, footerNavigation: `${id}-footer`,
  addLanguages: [], dropLanguages: [], domains: [{ host: 'localhost', slug: null }], ...extra,
});
const rawCountry = (countryCode: string, sortIndex: number) => ({
  countryCode, hidden: false, supportedLanguages: ['en'], defaultLanguage: 'en', defaultMeasurementSystem: 'Metric', sortIndex, localizations: [],
});
const system = (raw: Record<string, unknown>) =>
  mapSystemData(v.parse(RawSystemDataSchema, { systemData: { countries: [], languages: [], sites: [], brands: [], ...raw } }).systemData);

describe('technicalName', () => {
  it('is the lowercased name with underscores', () => {
    expect(technicalName('Komax Events North America')).toBe('komax_events_north_america');
    expect(technicalName('  Komax  Brand-Portal ')).toBe('komax_brand_portal');
    expect(technicalName('Komax')).toBe('komax');
  });
});

describe('mapSystemData: sites', () => {
  it('drops sites lacking a header or a footer navigation', () => {
    const data = system({
      sites: [rawSite('a'), rawSite('b', { headerNavigation: null }), rawSite('c', { footerNavigation: '' }), rawSite('d', { footerNavigation: undefined })],
    });
    expect(data.sites.map((s) => s.id)).toEqual(['a']);
  });

  it('maps a site with its technical name, navigation ids, domains and language rules', () => {
    const [s] = system({
      sites: [rawSite('ev', {
        name: 'Komax Events North America', internationalOnly: true, addLanguages: ['es'], dropLanguages: ['de'],
        domains: [{ host: 'Events.Komax.Example', slug: null }, { host: 'localhost', slug: '' }, { host: 'localhost', slug: 'events' }],
      })],
    }).sites;
    expect(s).toEqual({
      id: 'ev', name: 'Komax Events North America', technicalName: 'komax_events_north_america', slug: '', isMain: false,
      internationalOnly: true, hideSideButtons: false, enableCutFont: false, theme: 'Default', mainSiteOnly: false,
      headerNavigationId: 'ev-header', footerNavigationId: 'ev-footer',
      domains: [{ host: 'events.komax.example', slug: null }, { host: 'localhost', slug: null }, { host: 'localhost', slug: 'events' }],
      addLanguages: ['es'], dropLanguages: ['de'], defaultLanguage: null,
    });
  });
});

describe('mapSystemData: countries and brands', () => {
  it('sorts countries by their sort index', () => {
    expect(system({ countries: [rawCountry('US', 30), rawCountry('CH', 10), rawCountry('DE', 20)] }).countries.map((c) => c.countryCode))
      .toEqual(['CH', 'DE', 'US']);
  });

  it('gives a brand image the brand name as alternative text when it has none', () => {
    const brands = system({
      brands: [
        { id: 'b1', name: 'Lumeca', pimId: 'p1', theme: 'Lumeca', image: { url: 'https://x/l.png', mimeType: 'image/png', alternativeText: null } },
        { id: 'b2', name: 'Vexo', pimId: 'p2', theme: 'Vexo', image: { url: 'https://x/v.png', mimeType: 'image/png', alternativeText: 'Vexo logo' } },
        { id: 'b3', name: 'Sirex', pimId: 'p3', theme: 'Sirex', image: null },
      ],
    }).brands;
    expect(brands.map((b) => b.image)).toEqual([
      { url: 'https://x/l.png', mimeType: 'image/png', alternativeText: 'Lumeca' },
      { url: 'https://x/v.png', mimeType: 'image/png', alternativeText: 'Vexo logo' },
      null,
    ]);
  });
});

const rawItem = (id: string, link: unknown, items: unknown[] = []) => ({
  id, title: id, countries: [], hidden: false, hideSubItems: false, breadcrumbOverride: null, link, items,
});

describe('navigation and link mapping', () => {
  it('turns raw links into domain links (page.site becomes page.siteId, missing fields null)', () => {
    const raw = v.parse(RawHeaderSchema, {
      headerNavigation: {
        id: 'h', theme: '', hidden: false,
        homeItems: [rawItem('home', { text: 'Home', page: { id: 'p1', path: '', site: 'site-main' } })],
        topItems: [rawItem('about', { page: { id: 'p2', path: '/about', site: null, title: 'About' }, openInNewTab: true }, [
          rawItem('ext', { url: 'https://example.com', pageParameters: { a: '1' } }),
          rawItem('none', null),
        ])],
      },
    }).headerNavigation!;
    // The editor's tree: every item, whatever its link.
    const header = mapHeader(raw, { includeHidden: true });
    expect(header.theme).toBe('Default');
    expect(header.homeItems[0]!.link).toEqual({
      text: 'Home', page: { id: 'p1', path: '', siteId: 'site-main', title: null, countries: [] },
      path: null, url: null, productSlug: null, serviceSlug: null, pageParameters: null, openInNewTab: false,
    });
    const about = header.topItems[0]!;
    expect(about.link).toMatchObject({ page: { id: 'p2', path: '/about', siteId: null, title: 'About' }, openInNewTab: true });
    expect(about.items.map((i) => [i.id, i.link?.url ?? null, i.link?.pageParameters ?? null])).toEqual([
      ['ext', 'https://example.com', { a: '1' }],
      ['none', null, null],
    ]);
    expect(about.items[1]!.link).toBeNull();
  });

  it('gives nav items without sub items an empty list and keeps the breadcrumb override', () => {
    const raw = v.parse(RawFooterSchema, {
      footerNavigation: {
        id: 'f', theme: 'Copper', contactLink: { path: '/contact' },
        navigationSections: [{ id: 's', title: 'Company', items: [{ ...rawItem('x', null), items: undefined, breadcrumbOverride: 'X!' }] }],
      },
    }).footerNavigation!;
    const footer = mapFooter(raw, { includeHidden: true });
    expect(footer.theme).toBe('Copper');
    expect(footer.contactLink).toMatchObject({ path: '/contact', openInNewTab: false });
    expect(footer.navigationSections[0]!.items[0]).toMatchObject({ id: 'x', items: [], breadcrumbOverride: 'X!' });
  });
});

const pageLink = (id: string) => ({ page: { id, path: `/${id}`, site: 'site-main' } });
const parseItems = (items: unknown[]) => v.parse(RawHeaderSchema, { headerNavigation: { id: 'h', theme: '', hidden: false, homeItems: [], topItems: items } }).headerNavigation!.topItems;
const ids = (items: { id: string; items: unknown[] }[]): unknown[] => items.map((i) => (i.items.length ? [i.id, ids(i.items as never)] : i.id));

describe('navigation for visitors', () => {
  const raw = () => parseItems([
    rawItem('about', pageLink('about'), [
      { ...rawItem('internal-preview', pageLink('preview')), hidden: true },
      rawItem('history', pageLink('history')),
      // A reference to an unpublished page arrives as null from the published stage.
      rawItem('unpublished', { text: 'Soon', page: null }),
    ]),
    { ...rawItem('hidden-section', pageLink('x'), [rawItem('below-hidden', pageLink('y'))]), hidden: true },
    rawItem('no-link', null, [rawItem('under-no-link', pageLink('z'))]),
    rawItem('stories', { path: '/stories' }),
  ]);

  it('leaves out hidden items, their sub items and items without a link target', () => {
    expect(ids(mapNavItems(raw()))).toEqual([['about', ['history']], 'stories']);
  });

  it('warns about a link without any target, not about a hidden item or a missing link', () => {
    const warn = vi.fn();
    mapNavItems(raw(), {}, warn);
    expect(warn.mock.calls).toEqual([['Navigation item "unpublished" (unpublished) has no URL']]);
  });

  it('keeps everything for the editor with includeHidden', () => {
    expect(ids(mapNavItems(raw(), { includeHidden: true }))).toEqual([
      ['about', ['internal-preview', 'history', 'unpublished']], ['hidden-section', ['below-hidden']], ['no-link', ['under-no-link']], 'stories',
    ]);
  });

  it('keeps the language each title was resolved from (a fallback differs from the page), null when the hub does not say', () => {
    const [jaItem, fallback, unknown] = mapNavItems(parseItems([
      { ...rawItem('ja', pageLink('a')), locale: 'ja' },
      { ...rawItem('fallback', pageLink('b')), locale: 'en' },
      rawItem('unknown', pageLink('c')),
    ]));
    expect([jaItem!.titleLanguage, fallback!.titleLanguage, unknown!.titleLanguage]).toEqual(['ja', 'en', null]);
    const footer = mapFooter(v.parse(RawFooterSchema, {
      footerNavigation: { id: 'f', theme: '', contactLink: null, navigationSections: [{ id: 's', title: 'S', locale: 'de-CH', items: [{ ...rawItem('f', pageLink('a')), locale: 'de-CH' }] }] },
    }).footerNavigation!);
    expect([footer.navigationSections[0]!.titleLanguage, footer.navigationSections[0]!.items[0]!.titleLanguage]).toEqual(['de', 'de']);
  });

  it('filters header and footer alike', () => {
    const header = mapHeader(v.parse(RawHeaderSchema, {
      headerNavigation: { id: 'h', theme: '', hidden: false, homeItems: [{ ...rawItem('h1', pageLink('a')), hidden: true }], topItems: [{ ...rawItem('t1', pageLink('a')), hidden: true }, rawItem('t2', pageLink('b'))] },
    }).headerNavigation!);
    expect([header.homeItems.map((i) => i.id), header.topItems.map((i) => i.id)]).toEqual([[], ['t2']]);
    const footer = mapFooter(v.parse(RawFooterSchema, {
      footerNavigation: { id: 'f', theme: '', contactLink: null, navigationSections: [{ id: 's', title: 'S', items: [{ ...rawItem('f1', pageLink('a')), hidden: true }, rawItem('f2', pageLink('b'))] }] },
    }).footerNavigation!);
    expect(footer.navigationSections[0]!.items.map((i) => i.id)).toEqual(['f2']);
  });
});

describe('marketing sections (spec §3: logo, backgroundColor default Dark_White, link)', () => {
  it('maps a top-level item\'s section, the colour Dark_White when the hub gives none', () => {
    const [solutions, plain] = mapNavItems(parseItems([
      { ...rawItem('solutions', pageLink('solutions')), marketingSection: { logo: { url: 'http://hub/assets/logos/a.svg', alternativeText: 'A' }, backgroundColor: null, link: pageLink('digital') } },
      rawItem('plain', pageLink('plain')),
    ]));
    expect(solutions!.marketingSection).toEqual({
      logo: { url: 'http://hub/assets/logos/a.svg', alternativeText: 'A' },
      backgroundColor: 'Dark_White',
      link: { text: null, page: { id: 'digital', path: '/digital', siteId: 'site-main', title: null, countries: [] }, path: null, url: null, productSlug: null, serviceSlug: null, pageParameters: null, openInNewTab: false },
    });
    expect(plain!.marketingSection).toBeUndefined();
  });

  it('keeps a colour the hub gives and a section without logo or link', () => {
    const [item] = mapNavItems(parseItems([{ ...rawItem('s', pageLink('s')), marketingSection: { logo: null, backgroundColor: 'Light_Blue', link: null } }]));
    expect(item!.marketingSection).toEqual({ logo: null, backgroundColor: 'Light_Blue', link: null });
  });

  it('refuses a section whose logo has no URL (the boundary)', () => {
    expect(() => parseItems([{ ...rawItem('s', pageLink('s')), marketingSection: { logo: { alternativeText: 'x' }, backgroundColor: null, link: null } }])).toThrow();
  });
});

const rawPage = (modules: unknown[], extra: Record<string, unknown> = {}) => v.parse(RawPageSchema, {
  id: 'page-1', site: null, mainSiteOnly: false, slug: 'about', path: '/about', pageType: '', theme: '', countries: [],
  protection: 0, languages: ['en'], contentLanguage: 'en', title: 'About', description: null, modules,
  updatedAt: '2026-01-01T00:00:00Z', isPublished: true, ...extra,
});

describe('mapPage', () => {
  it('keeps valid modules and skips an invalid one with a report', () => {
    const onInvalid = vi.fn();
    const page = mapPage(rawPage([
      { type: 'callToAction', title: 'Talk to us', text: null, link: null },
      { type: 'hero', overline: null, text: null },
      { type: 'noSuchModule' },
      { type: 'quote', text: 'Quality', author: 'CEO' },
    ]), onInvalid);
    expect(page.modules.map((m) => m.type)).toEqual(['callToAction', 'quote']);
    expect(onInvalid).toHaveBeenCalledTimes(2);
    expect(onInvalid.mock.calls[0]![0]).toMatch(/page-1.*module 1 \(hero\) skipped/);
    expect(onInvalid.mock.calls[1]![0]).toMatch(/module 2 \(noSuchModule\) skipped/);
  });

  it('takes the aside layouts: text beside a square image or a video, the media right unless told', () => {
    const image = { url: 'http://hub/assets/img/a.svg', mimeType: 'image/svg+xml', alternativeText: 'A' };
    const onInvalid = vi.fn();
    const page = mapPage(rawPage([
      { type: 'asideImage', title: 'Measured', text: 'One paragraph', image, link: null },
      { type: 'asideVideo', title: null, text: ['One', 'Two'], url: 'https://video.example/v', poster: image, caption: 'Lab', videoPosition: 'left' },
      { type: 'asideVideo', title: 'No url', text: [] },
    ]), onInvalid);
    expect(page.modules).toEqual([
      { type: 'asideImage', title: 'Measured', text: ['One paragraph'], image, imagePosition: 'right', link: null },
      { type: 'asideVideo', title: null, text: ['One', 'Two'], url: 'https://video.example/v', poster: image, caption: 'Lab', videoPosition: 'left' },
    ]);
    expect(onInvalid).toHaveBeenCalledTimes(1);
  });

  it('reports a module that is not even an object', () => {
    const onInvalid = vi.fn();
    expect(mapPage(rawPage([null, 'text']), onInvalid).modules).toEqual([]);
    expect(onInvalid.mock.calls.map((c) => c[0])).toEqual([
      expect.stringContaining('module 0 (unknown) skipped'),
      expect.stringContaining('module 1 (unknown) skipped'),
    ]);
  });

  it('defaults pageType to Content and theme to Default, and maps site to siteId', () => {
    const page = mapPage(rawPage([], { site: 'site-main' }));
    expect(page).toMatchObject({ pageType: 'Content', theme: 'Default', siteId: 'site-main', description: null });
  });

  it('reads the page fields injection (with type), cmsType and branch', () => {
    expect(mapPage(rawPage([], { injection: 'alpha-550', type: 'Product', cmsType: 'Page', branch: 'automotive' }))).toMatchObject({
      injection: { kind: 'product', slug: 'alpha-550' }, cmsType: 'Page', branch: 'automotive',
    });
    expect(mapPage(rawPage([], { injection: 'repair-service', type: 'service' })).injection).toEqual({ kind: 'service', slug: 'repair-service' });
    // Older content without the fields: a page of modules only.
    expect(mapPage(rawPage([]))).toMatchObject({ injection: null, cmsType: 'Page', branch: null });
  });

  it('takes no injection the catalogue could not have: a malformed slug or an unknown type', () => {
    expect(pageInjection('alpha-550', null)).toEqual({ kind: 'product', slug: 'alpha-550' });
    expect(pageInjection(' alpha-550 ', '')).toEqual({ kind: 'product', slug: 'alpha-550' });
    expect(pageInjection('../secret', 'Product')).toBeNull();
    expect(pageInjection('Alpha 550', 'Product')).toBeNull();
    expect(pageInjection('alpha-550', 'Story')).toBeNull();
    expect(pageInjection('', 'Service')).toBeNull();
    expect(pageInjection(null, 'Service')).toBeNull();
  });

  it('gives a child of a protected page its parent\'s protection and names the protecting pages', () => {
    const parents = [{ id: 'token-parent', protection: 0, isPublished: true }, { id: 'internal', protection: 1, isPublished: true }];
    expect(mapPage(rawPage([], { parents }))).toMatchObject({ protection: 1, protectedBy: ['internal'] });
    expect(mapPage(rawPage([], { protection: 2, parents }))).toMatchObject({ protection: 2, protectedBy: ['page-1', 'internal'] });
    expect(mapPage(rawPage([]))).toMatchObject({ protection: 0, protectedBy: [] });
  });

  it('maps links inside modules to domain links', () => {
    const page = mapPage(rawPage([{ type: 'callToAction', title: 'Go', text: null, link: { page: { id: 'p', path: '/x', site: 's' } } }]));
    const cta = page.modules[0] as Extract<(typeof page.modules)[number], { type: 'callToAction' }>;
    expect(cta.link?.page).toEqual({ id: 'p', path: '/x', siteId: 's', title: null, countries: [] });
  });
});
