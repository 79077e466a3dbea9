import * as v from 'valibot';
import type { FooterNavigation, HeaderNavigation, NavItem } from '../../site/navigation-types.ts';
import type { Site, SystemData } from '../../site/types.ts';
import { ModuleSchema, type RawNavItem, type RawPage, type RawSystemDataSchema, type RawHeaderSchema, type RawFooterSchema } from './schema.ts';
import type { ContentModule, Page } from './types.ts';

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

function mapNavItem(raw: RawNavItem): NavItem {
  return {
    id: raw.id,
    title: raw.title,
    link: raw.link ?? null,
    countries: raw.countries,
    hidden: raw.hidden,
    hideSubItems: raw.hideSubItems,
    breadcrumbOverride: raw.breadcrumbOverride ?? null,
    items: (raw.items ?? []).map(mapNavItem),
  };
}

export function mapHeader(raw: NonNullable<v.InferOutput<typeof RawHeaderSchema>['headerNavigation']>): HeaderNavigation {
  return {
    theme: raw.theme || 'Default',
    hidden: raw.hidden,
    homeItems: raw.homeItems.map(mapNavItem),
    topItems: raw.topItems.map(mapNavItem),
  };
}

export function mapFooter(raw: NonNullable<v.InferOutput<typeof RawFooterSchema>['footerNavigation']>): FooterNavigation {
  return {
    theme: raw.theme || 'Default',
    contactLink: raw.contactLink ?? null,
    navigationSections: raw.navigationSections.map((s) => ({ id: s.id, title: s.title, items: s.items.map(mapNavItem) })),
  };
}

/**
 * A page with its modules validated one by one: a module that does not match its schema is
 * dropped and reported through `onInvalid`, so one broken module never takes a page down.
 */
export function mapPage(raw: RawPage, onInvalid: (message: string) => void = () => {}): Page {
  const modules: ContentModule[] = [];
  raw.modules.forEach((m, i) => {
    const parsed = v.safeParse(ModuleSchema, m);
    if (parsed.success) modules.push(parsed.output);
    else onInvalid(`page ${raw.id}: module ${i} (${(m as { type?: string })?.type ?? 'unknown'}) skipped: ${parsed.issues[0].message}`);
  });
  return {
    id: raw.id,
    siteId: raw.site ?? null,
    mainSiteOnly: raw.mainSiteOnly,
    slug: raw.slug,
    path: raw.path,
    pageType: raw.pageType || 'Content',
    theme: raw.theme || 'Default',
    countries: raw.countries,
    protection: raw.protection,
    languages: raw.languages,
    contentLanguage: raw.contentLanguage,
    title: raw.title,
    description: raw.description ?? null,
    modules,
    updatedAt: raw.updatedAt,
    isPublished: raw.isPublished,
  };
}
