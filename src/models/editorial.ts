import {
  getMediaRelease, getMediaReleases, getStories, getStoriesByContact, getStory, getStoryCategories, getStoryContact, getStoryContacts,
  type MediaRelease, type MediaReleaseItem, type Story, type StoryCategory, type StoryContact, type StoryListItem,
} from '../lib/content/index.ts';
import type { RequestContext } from '../site/request.ts';
import { cacheKey } from '../server/data-cache.ts';
import { loadChrome, type ChromeModel, type ContentPageModel, type Loaders } from './content-page.ts';
import type { PageModelBase } from './page-model.ts';
import type { PrerenderLocals } from './prerender.ts';
import { MEDIA_RELEASE_PAGE_SIZE, pageCount, parseListQuery, skipFor, STORY_PAGE_SIZE, type ListQuery } from './editorial-paging.ts';

/** The models of the editorial routes; each is all its page renders (and its `_payload.json`). */

export interface StoryOverviewModel extends ChromeModel {
  kind: 'story-overview';
  categories: StoryCategory[];
  stories: StoryListItem[];
  total: number;
  query: ListQuery;
  pageSize: number;
}

export interface StoryDetailModel extends ChromeModel {
  kind: 'story-detail';
  story: Story;
}

export interface StoryContactsModel extends ChromeModel {
  kind: 'story-contacts';
  contacts: StoryContact[];
}

export interface StoryContactModel extends ChromeModel {
  kind: 'story-contact';
  contact: StoryContact;
  stories: StoryListItem[];
}

export interface MediaReleaseListModel extends ChromeModel {
  kind: 'media-release-list';
  releases: MediaReleaseItem[];
  total: number;
  query: ListQuery;
  pageSize: number;
}

export interface MediaReleaseDetailModel extends ChromeModel {
  kind: 'media-release-detail';
  release: MediaRelease;
}

export type EditorialModel = StoryOverviewModel | StoryDetailModel | StoryContactsModel | StoryContactModel | MediaReleaseListModel | MediaReleaseDetailModel;
/** What a route renders: its own model, or the 404 page (a content-page model without a page). */
export type EditorialResult<M extends EditorialModel> = M | ContentPageModel;

/** The model the prerender handed over for this route, when it is of the expected kind. */
export function presetModel<K extends EditorialModel['kind']>(prerender: PrerenderLocals | undefined, kind: K): Extract<EditorialModel, { kind: K }> | undefined {
  const model: PageModelBase | undefined = prerender?.model;
  return model?.kind === kind ? (model as Extract<EditorialModel, { kind: K }>) : undefined;
}

/** Stories and media releases exist on the main site only; elsewhere (and for unknown locales) they are a 404. */
export function editorialAvailable(req: Pick<RequestContext, 'site' | 'area'>, notFound: boolean | undefined): boolean {
  return !notFound && req.site.isMain && req.area === 'page';
}

const key = (l: Loaders, parts: (string | number | null)[]) => cacheKey(['editorial', ...parts, l.content.stage, l.content.locales.join('|')], l.nextRelease);
const cached = <T>(l: Loaders, parts: (string | number | null)[], load: () => Promise<T>) => l.cache.get(key(l, parts), load, l.cacheMode);

async function notFound(l: Loaders, req: RequestContext): Promise<ContentPageModel> {
  return { kind: 'content-page', ...(await loadChrome(l, req)), page: null };
}

/** The story overview for `?category=…&page=…`; an unknown category or a page past the end is a 404. */
export async function loadStoryOverview(l: Loaders, req: RequestContext, params: URLSearchParams): Promise<EditorialResult<StoryOverviewModel>> {
  const query = parseListQuery(params);
  if (!query) return notFound(l, req);
  const [chrome, categories, page] = await Promise.all([
    loadChrome(l, req),
    cached(l, ['storyCategories'], () => getStoryCategories(l.content)),
    cached(l, ['stories', query.category, query.page], () => getStories(l.content, { category: query.category, first: STORY_PAGE_SIZE, skip: skipFor(query.page, STORY_PAGE_SIZE) })),
  ]);
  if (query.category && !categories.some((c) => c.slug === query.category)) return { kind: 'content-page', ...chrome, page: null };
  if (query.page > pageCount(page.total, STORY_PAGE_SIZE)) return { kind: 'content-page', ...chrome, page: null };
  return { kind: 'story-overview', ...chrome, categories, stories: page.items, total: page.total, query, pageSize: STORY_PAGE_SIZE };
}

export async function loadStoryDetail(l: Loaders, req: RequestContext, slug: string): Promise<EditorialResult<StoryDetailModel>> {
  const [chrome, story] = await Promise.all([loadChrome(l, req), cached(l, ['story', slug], () => getStory(l.content, slug))]);
  return story ? { kind: 'story-detail', ...chrome, story } : { kind: 'content-page', ...chrome, page: null };
}

export async function loadStoryContacts(l: Loaders, req: RequestContext): Promise<StoryContactsModel> {
  const [chrome, contacts] = await Promise.all([loadChrome(l, req), cached(l, ['storyContacts'], () => getStoryContacts(l.content))]);
  return { kind: 'story-contacts', ...chrome, contacts };
}

export async function loadStoryContact(l: Loaders, req: RequestContext, slug: string): Promise<EditorialResult<StoryContactModel>> {
  const [chrome, contact, stories] = await Promise.all([
    loadChrome(l, req),
    cached(l, ['storyContact', slug], () => getStoryContact(l.content, slug)),
    cached(l, ['storiesByContact', slug], () => getStoriesByContact(l.content, slug)),
  ]);
  return contact ? { kind: 'story-contact', ...chrome, contact, stories } : { kind: 'content-page', ...chrome, page: null };
}

export async function loadMediaReleaseList(l: Loaders, req: RequestContext, params: URLSearchParams): Promise<EditorialResult<MediaReleaseListModel>> {
  // Media releases have no categories: a category parameter is ignored.
  const parsed = parseListQuery(params);
  if (!parsed) return notFound(l, req);
  const query: ListQuery = { category: null, page: parsed.page };
  const [chrome, page] = await Promise.all([
    loadChrome(l, req),
    cached(l, ['mediaReleases', query.page], () => getMediaReleases(l.content, { first: MEDIA_RELEASE_PAGE_SIZE, skip: skipFor(query.page, MEDIA_RELEASE_PAGE_SIZE) })),
  ]);
  if (query.page > pageCount(page.total, MEDIA_RELEASE_PAGE_SIZE)) return { kind: 'content-page', ...chrome, page: null };
  return { kind: 'media-release-list', ...chrome, releases: page.items, total: page.total, query, pageSize: MEDIA_RELEASE_PAGE_SIZE };
}

export async function loadMediaReleaseDetail(l: Loaders, req: RequestContext, slug: string): Promise<EditorialResult<MediaReleaseDetailModel>> {
  const [chrome, release] = await Promise.all([loadChrome(l, req), cached(l, ['mediaRelease', slug], () => getMediaRelease(l.content, slug))]);
  return release ? { kind: 'media-release-detail', ...chrome, release } : { kind: 'content-page', ...chrome, page: null };
}

/** The 404 model for a route that is not offered here (other site, unknown locale). */
export const loadNotFound = notFound;
