import * as v from 'valibot';
import type { FooterNavigation, HeaderNavigation, MarketingSection, NavItem } from '../../site/navigation-types.ts';
import { DEFAULT_MARKETING_BACKGROUND } from '../../site/navigation.ts';
import type { Site, SystemData } from '../../site/types.ts';
import { ModuleSchema, type RawMarketingSection, type RawModule, type RawNavItem, type RawPage, type RawSystemDataSchema, type RawHeaderSchema, type RawFooterSchema } from './schema.ts';
import type { ContentModule, Page, PageInjection } from './types.ts';
import { effectiveProtection, protectingPages } from './access.ts';

type RawSystem = v.InferOutput<typeof RawSystemDataSchema>['systemData'];

/** 'Komax Events North America' → 'komax_events_north_america'. */
export function technicalName(name: string): string {
  return name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}

/** System data as the site model needs it. Sites lacking a header or footer navigation are dropped. */
export function mapSystemData(raw: RawSystem): SystemData {
  const sites: Site[] = raw.sites
    .filter((s) => s.headerNavigation && s.footerNavigation)
    .map((s) => ({
      id: s.id,
      name: s.name,
      technicalName: technicalName(s.name),
      slug: s.slug,
      isMain: s.isMain,
      internationalOnly: s.internationalOnly,
      hideSideButtons: s.hideSideButtons,
      enableCutFont: s.enableCutFont,
      theme: s.theme,
      mainSiteOnly: s.mainSiteOnly,
      headerNavigationId: s.headerNavigation!,
      footerNavigationId: s.footerNavigation!,
      domains: s.domains.map((d) => ({ host: d.host.toLowerCase(), slug: d.slug || null })),
      addLanguages: s.addLanguages,
      dropLanguages: s.dropLanguages,
      defaultLanguage: s.defaultLanguage ?? null,
    }));
  return {
    contentLocales: raw.contentLocales,
    countries: [...raw.countries].sort((a, b) => a.sortIndex - b.sortIndex),
    languages: raw.languages,
    sites,
    brands: raw.brands.map((b) => ({
      ...b,
      image: b.image ? { url: b.image.url, mimeType: b.image.mimeType, alternativeText: b.image.alternativeText ?? b.name } : null,
    })),
  };
}

/** Which navigation a caller gets: the visitor's (default) or the editor's full tree. */
export interface NavigationOptions {
  /**
   * Keep hidden items and items without a link target (the editor's navigation). Default false:
   * public output (HTML, payloads, search) must only hold what a visitor may see.
   */
  includeHidden?: boolean;
}

/** A link that leads somewhere (a page reference to an unpublished page arrives as null). */
function hasTarget(item: RawNavItem): boolean {
  const l = item.link;
  return !!l && !!(l.page || l.path || l.url || l.productSlug || l.serviceSlug);
}

/** The language of a hub locale ("de-CH" → "de"); null when the hub did not say. */
function languageOf(locale: string | null | undefined): string | null {
  return locale ? locale.split('-')[0]!.toLowerCase() : null;
}

function mapMarketingSection(raw: RawMarketingSection): MarketingSection {
  return {
    logo: raw.logo ? { url: raw.logo.url, alternativeText: raw.logo.alternativeText ?? null } : null,
    backgroundColor: raw.backgroundColor || DEFAULT_MARKETING_BACKGROUND,
    link: raw.link ?? null,
  };
}

/**
 * Navigation items as a visitor may see them: a hidden item and one without a link target are
 * dropped with their sub items (spec §5: hidden items show only in editor mode; an item with no
 * link, or no target, is skipped), so their titles never reach a page, payload or search index.
 * `warn` hears about a link without any target (spec: a console warning for a missing URL).
 */
export function mapNavItems(raw: readonly RawNavItem[], opts: NavigationOptions = {}, warn: (message: string) => void = () => {}): NavItem[] {
  const out: NavItem[] = [];
  for (const item of raw) {
    if (!opts.includeHidden) {
      if (item.hidden) continue;
      if (!hasTarget(item)) {
        if (item.link) warn(`Navigation item "${item.title}" (${item.id}) has no URL`);
        continue;
      }
    }
    out.push({
      id: item.id,
      title: item.title,
      titleLanguage: languageOf(item.locale),
      link: item.link ?? null,
      countries: item.countries,
      hidden: item.hidden,
      hideSubItems: item.hideSubItems,
      breadcrumbOverride: item.breadcrumbOverride ?? null,
      items: mapNavItems(item.items ?? [], opts, warn),
      ...(item.marketingSection ? { marketingSection: mapMarketingSection(item.marketingSection) } : {}),
    });
  }
  return out;
}

export function mapHeader(raw: NonNullable<v.InferOutput<typeof RawHeaderSchema>['headerNavigation']>, opts: NavigationOptions = {}, warn?: (message: string) => void): HeaderNavigation {
  return {
    theme: raw.theme || 'Default',
    hidden: raw.hidden,
    homeItems: mapNavItems(raw.homeItems, opts, warn),
    topItems: mapNavItems(raw.topItems, opts, warn),
  };
}

export function mapFooter(raw: NonNullable<v.InferOutput<typeof RawFooterSchema>['footerNavigation']>, opts: NavigationOptions = {}, warn?: (message: string) => void): FooterNavigation {
  return {
    theme: raw.theme || 'Default',
    contactLink: raw.contactLink ?? null,
    navigationSections: raw.navigationSections.map((s) => ({ id: s.id, title: s.title, titleLanguage: languageOf(s.locale), items: mapNavItems(s.items, opts, warn) })),
  };
}

/** Catalogue slugs as the catalogue writes them (lowercase words joined by dashes, dots or underscores). */
const INJECTION_SLUG = /^[a-z0-9][a-z0-9._-]{0,149}$/;

/**
 * The catalogue entry a page shows (spec §3 `injection`, a product or service slug, and `type`
 * saying which of the two; a page without a type names a product). A slug the catalogue could not
 * have, or a type that is neither, is no injection: the page shows its modules only.
 * @example pageInjection('alpha-550', null) // { kind: 'product', slug: 'alpha-550' }
 * @example pageInjection('repair-service', 'Service') // { kind: 'service', slug: 'repair-service' }
 */
export function pageInjection(slug: string | null | undefined, type: string | null | undefined): PageInjection | null {
  const s = slug?.trim();
  if (!s || !INJECTION_SLUG.test(s)) return null;
  const t = type?.trim().toLowerCase() || 'product';
  return t === 'product' || t === 'service' ? { kind: t, slug: s } : null;
}

/**
 * A page with its modules validated one by one: a module that does not match its schema is
 * dropped and reported through `onInvalid`, so one broken module never takes a page down.
 */
export function mapPage(raw: RawPage, onInvalid: (message: string) => void = () => {}): Page {
  const modules: ContentModule[] = [];
  raw.modules.forEach((m, i) => {
    const parsed = v.safeParse(ModuleSchema, m);
    if (parsed.success) modules.push(contentModule(parsed.output));
    else onInvalid(`page ${raw.id}: module ${i} (${(m as { type?: string })?.type ?? 'unknown'}) skipped: ${parsed.issues[0].message}`);
  });
  return {
    id: raw.id,
    siteId: raw.site ?? null,
    mainSiteOnly: raw.mainSiteOnly,
    slug: raw.slug,
    path: raw.path,
    pageType: raw.pageType || 'Content',
    injection: pageInjection(raw.injection, raw.type),
    cmsType: raw.cmsType || 'Page',
    branch: raw.branch?.trim() || null,
    theme: raw.theme || 'Default',
    countries: raw.countries,
    protection: effectiveProtection(raw),
    protectedBy: protectingPages(raw),
    access: { id: raw.id, protection: raw.protection, isPublished: raw.isPublished, parents: raw.parents },
    languages: raw.languages,
    contentLanguage: raw.contentLanguage,
    title: raw.title,
    description: raw.description ?? null,
    modules,
    updatedAt: raw.updatedAt,
    isPublished: raw.isPublished,
  };
}

/** A validated raw module as a page module: the locations directory's entries are added later by the page loader. */
export function contentModule(m: RawModule): ContentModule {
  return m.type === 'locationsDirectory' ? { ...m, locations: null } : m;
}
