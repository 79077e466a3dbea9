import type { DataSource, KeyPart } from '../cache/data-cache.ts';
import type { ContentContext } from './content-service.ts';
import {
  getAllStories, getMediaRelease, getMediaReleases, getNewsFeedPage, getRelatedStories, getRelatedStoriesByProducts, getStories, getStoriesByContact, getStory,
  getStoryCategories, getStoryContact, getStoryContacts, EDITORIAL_MAX_PAGE_SIZE,
} from './editorial/index.ts';
import type { MediaReleaseItem, StoryListItem } from './editorial/types.ts';
import { getFooterNavigation, getHeaderNavigation, getPageByPath, getSystemData, listPages } from './index.ts';
import type { Site } from '../../site/types.ts';
import { getCustomerAreaSettings } from './customer-area/index.ts';
import { getLocations } from './locations/index.ts';

/**
 * The content hub's records through a {@link DataSource}: each getter owns its cache key (stage
 * and locale chain included), so the on-demand cache and the prerender's memo share one key space
 * and callers never build keys. Keys start with `content`.
 */
const key = (ctx: ContentContext, name: string, ...parts: KeyPart[]): KeyPart[] => ['content', name, ctx.stage, ctx.locales.join('|'), ...parts];

export const systemData = (data: DataSource, ctx: ContentContext) => data.get(['content', 'systemData', ctx.stage], () => getSystemData(ctx));
export const headerNavigation = (data: DataSource, ctx: ContentContext, site: Site) => data.get(key(ctx, 'header', site.id), () => getHeaderNavigation(ctx, site));
export const footerNavigation = (data: DataSource, ctx: ContentContext, site: Site) => data.get(key(ctx, 'footer', site.id), () => getFooterNavigation(ctx, site));
/** The header and footer with hidden items (the draft preview's chrome: an editor's only), under keys of their own. */
export const headerNavigationWithHidden = (data: DataSource, ctx: ContentContext, site: Site) =>
  data.get(key(ctx, 'headerWithHidden', site.id), () => getHeaderNavigation(ctx, site, { includeHidden: true }));
export const footerNavigationWithHidden = (data: DataSource, ctx: ContentContext, site: Site) =>
  data.get(key(ctx, 'footerWithHidden', site.id), () => getFooterNavigation(ctx, site, { includeHidden: true }));

/** The key of a page by path; the prerender seeds it from its bulk list. */
export const pageByPathKey = (ctx: ContentContext, site: Site, path: string) => key(ctx, 'page', site.id, path);
export const pageByPath = (data: DataSource, ctx: ContentContext, site: Site, path: string) => data.get(pageByPathKey(ctx, site, path), () => getPageByPath(ctx, site, path));
export const sitePages = (data: DataSource, ctx: ContentContext, site: Site) => data.get(key(ctx, 'pages', site.id), () => listPages(ctx, site));

export const storyCategories = (data: DataSource, ctx: ContentContext) => data.get(key(ctx, 'storyCategories'), () => getStoryCategories(ctx));
export const storyPage = (data: DataSource, ctx: ContentContext, category: string | null, first: number, skip: number) =>
  data.get(key(ctx, 'stories', category, first, skip), () => getStories(ctx, { category, first, skip }));
export const allStories = (data: DataSource, ctx: ContentContext): Promise<StoryListItem[]> => data.get(key(ctx, 'allStories'), () => getAllStories(ctx));
export const story = (data: DataSource, ctx: ContentContext, slug: string) => data.get(key(ctx, 'story', slug), () => getStory(ctx, slug));
export const storyContacts = (data: DataSource, ctx: ContentContext) => data.get(key(ctx, 'storyContacts'), () => getStoryContacts(ctx));
export const storyContact = (data: DataSource, ctx: ContentContext, slug: string) => data.get(key(ctx, 'storyContact', slug), () => getStoryContact(ctx, slug));
export const storiesByContact = (data: DataSource, ctx: ContentContext, slug: string) => data.get(key(ctx, 'storiesByContact', slug), () => getStoriesByContact(ctx, slug));

/** The key of a product's related stories; the prerender seeds it from one bulk query per language. */
export const relatedStoriesKey = (ctx: ContentContext, productSlug: string, first: number) => key(ctx, 'relatedStories', productSlug, first);
export const relatedStories = (data: DataSource, ctx: ContentContext, productSlug: string, first: number) =>
  data.get(relatedStoriesKey(ctx, productSlug, first), () => getRelatedStories(ctx, productSlug, first));
/** The related stories of many products in one query, by product slug (the prerender's bulk load). */
export const relatedStoriesOfMany = (data: DataSource, ctx: ContentContext, productSlugs: string[], first: number) =>
  data.get(key(ctx, 'relatedStoriesOfMany', first, productSlugs.join(',')), () => getRelatedStoriesByProducts(ctx, productSlugs, first));

export const mediaReleasePage = (data: DataSource, ctx: ContentContext, first: number, skip: number) =>
  data.get(key(ctx, 'mediaReleases', first, skip), () => getMediaReleases(ctx, { first, skip }));
export const mediaRelease = (data: DataSource, ctx: ContentContext, slug: string) => data.get(key(ctx, 'mediaRelease', slug), () => getMediaRelease(ctx, slug));

/** Every media release, newest first (paged through at the content hub's maximum page size). */
export const allMediaReleases = (data: DataSource, ctx: ContentContext): Promise<MediaReleaseItem[]> => data.get(key(ctx, 'allMediaReleases'), async () => {
  const all: MediaReleaseItem[] = [];
  for (let skip = 0; ; skip += EDITORIAL_MAX_PAGE_SIZE) {
    const page = await getMediaReleases(ctx, { first: EDITORIAL_MAX_PAGE_SIZE, skip });
    all.push(...page.items);
    if (page.items.length === 0 || all.length >= page.total) return all;
  }
});

export const newsFeedPage = (data: DataSource, ctx: ContentContext, first: number, after: string | null) =>
  data.get(key(ctx, 'newsFeed', first, after), () => getNewsFeedPage(ctx, first, after));

/** The customer area's settings record (one per stage; not localized). */
export const customerAreaSettings = (data: DataSource, ctx: ContentContext) => data.get(['content', 'customerArea', ctx.stage], () => getCustomerAreaSettings(ctx));

/** The contacts and locations directory (contact roles follow the locale chain). */
export const locationsDirectory = (data: DataSource, ctx: ContentContext) => data.get(key(ctx, 'locations'), () => getLocations(ctx));
