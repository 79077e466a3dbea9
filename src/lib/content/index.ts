import { contentQuery, type ContentContext } from './content-service.ts';
import { mapFooter, mapHeader, mapPage, mapSystemData, type NavigationOptions } from './map.ts';
import * as q from './queries.ts';
import * as s from './schema.ts';
import { getLogger } from '../log/index.ts';
import { describeFetchFailure, resolveTimeouts, timedStreamFetch, type UpstreamTimeouts } from '../http/timeouts.ts';
import { ContentError } from './errors.ts';
import { pickSystemRedirect, redirectVariants } from '../../site/redirects.ts';
import { mediaReleasePath, storyContactPath, storyPath } from '../../site/paths.ts';
import type { FooterNavigation, HeaderNavigation } from '../../site/navigation-types.ts';
import type { Site, SystemData } from '../../site/types.ts';
import type { Page, SystemRedirect } from './types.ts';
import { fileAccess, type Grants } from './access.ts';

export type { ContentConfig, ContentContext, Stage } from './content-service.ts';
export type { ContentModule, Page, PageInjection, SystemRedirect } from './types.ts';
export type { InvestorModule, InvestorModuleOf } from './types.ts';
export type { NavigationOptions } from './map.ts';
export { ContentError };
export { NO_GRANTS, checkAccess, ancestorPath, type Grants, type AccessCheck, type EntryAccess, type Protector } from './access.ts';
export * from './editorial/index.ts';
export { getCustomerAreaSettings, type CustomerAreaContent } from './customer-area/index.ts';

const log = getLogger('content');
const warn = (msg: string) => log.warn(msg);

/** Countries, languages, sites (those with both navigations) and brands. */
export async function getSystemData(ctx: ContentContext): Promise<SystemData> {
  const raw = await contentQuery(ctx, 'systemData', q.SYSTEM_DATA, {}, s.RawSystemDataSchema);
  return mapSystemData(raw.systemData);
}

/**
 * The site's header navigation as a visitor may see it: hidden items and items without a link
 * target are left out. `{ includeHidden: true }` gives the editor's full tree (cache it apart).
 */
export async function getHeaderNavigation(ctx: ContentContext, site: Site, opts: NavigationOptions = {}): Promise<HeaderNavigation | null> {
  const raw = await contentQuery(ctx, 'headerNavigation', q.HEADER_NAVIGATION, { id: site.headerNavigationId, stage: ctx.stage }, s.RawHeaderSchema);
  return raw.headerNavigation ? mapHeader(raw.headerNavigation, opts, warn) : null;
}

/** The site's footer navigation, filtered like {@link getHeaderNavigation}. */
export async function getFooterNavigation(ctx: ContentContext, site: Site, opts: NavigationOptions = {}): Promise<FooterNavigation | null> {
  const raw = await contentQuery(ctx, 'footerNavigation', q.FOOTER_NAVIGATION, { id: site.footerNavigationId, stage: ctx.stage }, s.RawFooterSchema);
  return raw.footerNavigation ? mapFooter(raw.footerNavigation, opts, warn) : null;
}

/** A page of the site (or a global page) by its site-relative path ('' for home); null if none. */
export async function getPageByPath(ctx: ContentContext, site: Site, path: string): Promise<Page | null> {
  const raw = await contentQuery(ctx, 'pageByPath', q.PAGE_BY_PATH, { site: site.id, path, stage: ctx.stage }, s.PageByPathSchema);
  return raw.pageByPath ? mapPage(raw.pageByPath, warn) : null;
}

/** Pages by id across all sites and page types. */
export async function getPagesById(ctx: ContentContext, ids: string[]): Promise<Page[]> {
  if (ids.length === 0) return [];
  const raw = await contentQuery(ctx, 'pagesById', q.PAGES_BY_ID, { ids, stage: ctx.stage }, s.PagesByIdSchema);
  return raw.pagesById.map((p) => mapPage(p, warn));
}

/** The four page types of a lookup by id (spec §7): content pages and the editorial pages. */
export type PageType = 'Content' | 'Story' | 'MediaRelease' | 'StoryContact';

/** Where a page of any type lives: its site (null: a global page, or an editorial one) and its site-relative path. */
export interface PageLocation {
  id: string;
  pageType: PageType;
  siteId: string | null;
  path: string;
  /** The countries the page is offered in (empty: every country; editorial pages are offered everywhere). */
  countries: readonly string[];
}

const EDITORIAL_PATH: Record<Exclude<PageType, 'Content'>, (slug: string) => string> = {
  Story: storyPath,
  MediaRelease: mediaReleasePath,
  StoryContact: storyContactPath,
};

/**
 * Pages by id across the four page types, in one request: a content page on its site, a story,
 * media release or story contact at its route of the editorial pages (on the main site).
 */
export async function getPageLocationsById(ctx: ContentContext, ids: string[]): Promise<PageLocation[]> {
  if (ids.length === 0) return [];
  const raw = await contentQuery(ctx, 'pageLocationsById', q.PAGE_LOCATIONS_BY_ID, { ids, stage: ctx.stage }, s.PageLocationsByIdSchema);
  return [
    ...raw.pagesById.map((p) => ({ id: p.id, pageType: 'Content' as const, siteId: p.site, path: p.path, countries: p.countries })),
    ...raw.editorialEntriesById.map((e) => ({ id: e.id, pageType: e.type, siteId: null, path: EDITORIAL_PATH[e.type](e.slug), countries: [] })),
  ];
}

/** Every page of a site including global pages (all sites when `site` is omitted). */
export async function listPages(ctx: ContentContext, site?: Site): Promise<Page[]> {
  const raw = await contentQuery(ctx, 'pages', q.PAGES, { site: site?.id ?? null, stage: ctx.stage }, s.PagesSchema);
  return raw.pages.map((p) => mapPage(p, warn));
}

/** The system redirect for a request path (with and without query); the longest previousUrl wins. */
export async function findSystemRedirect(ctx: ContentContext, pathname: string, search: string): Promise<SystemRedirect | null> {
  const raw = await contentQuery(ctx, 'systemRedirects', q.SYSTEM_REDIRECTS, { previousUrls: redirectVariants(pathname, search) }, s.SystemRedirectsSchema);
  return pickSystemRedirect(raw.systemRedirects);
}

export async function listSystemRedirects(ctx: ContentContext): Promise<SystemRedirect[]> {
  const raw = await contentQuery(ctx, 'allSystemRedirects', q.ALL_SYSTEM_REDIRECTS, {}, s.AllSystemRedirectsSchema);
  return raw.allSystemRedirects;
}

/** The secret half of a page's protection: what the server checks a password or a role against. */
export interface PageProtection {
  id: string;
  protection: 0 | 1 | 2;
  /** scrypt hash of the page's password (protection 1); null when none is set (then no password opens it). */
  passwordHash: string | null;
  /** The customer-area role a user needs (protection 2); null when none is set (then nobody gets in). */
  requiredRole: string | null;
}

/**
 * The password hash or required role of a page (by id, in the context's stage), or null when the
 * hub has no such page. Server only and never cached in the data cache: the hash must not reach a
 * model, payload or log; only the protected-pages feature calls this.
 */
export async function getPageProtection(ctx: ContentContext, id: string): Promise<PageProtection | null> {
  const raw = await contentQuery(ctx, 'pageProtection', q.PAGE_PROTECTION, { id, stage: ctx.stage }, s.PageProtectionSchema);
  const p = raw.pageProtection;
  return p ? { id: p.id, protection: p.protection, passwordHash: p.passwordHash ?? null, requiredRole: p.requiredRole ?? null } : null;
}

export interface FileAsset {
  slug: string;
  url: string;
  fileName: string;
  size: number;
  locale: string;
  /**
   * 'public': linked from a page every visitor may see, so the download may be cached publicly;
   * 'granted': only the caller's grants open it, so the answer must stay private.
   */
  access: 'public' | 'granted';
}

/**
 * A downloadable file by slug, in the wanted locale when it exists in several; null when there is
 * none or the caller may not have it. A file is as private as the pages linking it: it is served
 * when at least one visitor-visible entry (published, neither it nor an ancestor protected) links
 * it, or a published page the caller holds grants for (`grants`: page ids; {@link NO_GRANTS} for an
 * anonymous visitor). Every way to a file's URL goes through here, so none can skip the rule.
 */
export async function getFile(ctx: ContentContext, slug: string, locale: string, grants: Grants): Promise<FileAsset | null> {
  const raw = await contentQuery(ctx, 'file', q.FILE, { slug, locale }, s.FileSchema);
  if (!raw.file) return null;
  const { usedBy, ...file } = raw.file;
  const access = fileAccess(usedBy, grants);
  return access ? { ...file, access } : null;
}

/**
 * Streams a file from the content hub's asset store. Only URLs the content hub itself returned
 * are fetched, so this cannot be turned into an open proxy. A store that does not answer in time
 * is a ContentError (unavailable); the body then streams as long as it keeps flowing.
 */
export async function fetchFileBody(file: FileAsset, timeouts?: UpstreamTimeouts): Promise<Response> {
  try {
    return await timedStreamFetch(file.url, timeouts);
  } catch (err) {
    const failure = describeFetchFailure(err, resolveTimeouts(timeouts));
    throw new ContentError(`Content hub unreachable: ${failure.message}`, { operation: 'fileBody', cause: err, failure: failure.kind });
  }
}
export { submitForm, getFormSubmissions, type FormSubmissionInput, type FormSubmitResult, type StoredFormSubmission } from './forms.ts';
export { getLocations, LOCATION_TYPES, WEEKDAYS, type LocationEntry, type LocationType, type OpeningHours, type Weekday, type LocationContactPerson, type LocationAddress } from './locations/index.ts';
