import {
  mediaRelease, mediaReleasePage, story, storiesByContact, storyCategories, storyContact, storyContacts, storyPage,
} from '../../lib/content/cached.ts';
import type { RequestContext } from '../../site/request.ts';
import { loadChrome } from '../platform/chrome.server.ts';
import type { LoadContext } from '../platform/context.ts';
import { notFoundModel, type NotFoundModel } from '../platform/page-model.ts';
import type { MediaReleaseDetailModel, MediaReleaseListModel, StoryContactModel, StoryContactsModel, StoryDetailModel, StoryOverviewModel } from './model.ts';
import { MEDIA_RELEASE_PAGE_SIZE, pageCount, parseListQuery, skipFor, STORY_PAGE_SIZE, type ListQuery } from './paging.ts';

/**
 * The editorial page builders. Route files call them on demand and the editorial prerender
 * source builds its routes with the very same functions, so both paths read the same records.
 */

/** The story overview for `?category=…&page=…`; an unknown category or a page past the end is a 404. */
export async function loadStoryOverview(lc: LoadContext, req: RequestContext, params: URLSearchParams): Promise<StoryOverviewModel | NotFoundModel> {
  const query = parseListQuery(params);
  const chrome = await loadChrome(lc, req.site);
  if (!query) return notFoundModel(chrome);
  const [categories, page] = await Promise.all([
    storyCategories(lc.data, lc.content),
    storyPage(lc.data, lc.content, query.category, STORY_PAGE_SIZE, skipFor(query.page, STORY_PAGE_SIZE)),
  ]);
  if (query.category && !categories.some((c) => c.slug === query.category)) return notFoundModel(chrome);
  if (query.page > pageCount(page.total, STORY_PAGE_SIZE)) return notFoundModel(chrome);
  return { kind: 'story-overview', ...chrome, categories, stories: page.items, total: page.total, query, pageSize: STORY_PAGE_SIZE };
}

export async function loadStoryDetail(lc: LoadContext, req: RequestContext, slug: string): Promise<StoryDetailModel | NotFoundModel> {
  const [chrome, found] = await Promise.all([loadChrome(lc, req.site), story(lc.data, lc.content, slug)]);
  return found ? { kind: 'story-detail', ...chrome, story: found } : notFoundModel(chrome);
}

export async function loadStoryContacts(lc: LoadContext, req: RequestContext): Promise<StoryContactsModel> {
  const [chrome, contacts] = await Promise.all([loadChrome(lc, req.site), storyContacts(lc.data, lc.content)]);
  return { kind: 'story-contacts', ...chrome, contacts };
}

export async function loadStoryContact(lc: LoadContext, req: RequestContext, slug: string): Promise<StoryContactModel | NotFoundModel> {
  const [chrome, contact, stories] = await Promise.all([
    loadChrome(lc, req.site),
    storyContact(lc.data, lc.content, slug),
    storiesByContact(lc.data, lc.content, slug),
  ]);
  return contact ? { kind: 'story-contact', ...chrome, contact, stories } : notFoundModel(chrome);
}

/** The media release list for `?page=…` (media releases have no categories: a category parameter is ignored). */
export async function loadMediaReleaseList(lc: LoadContext, req: RequestContext, params: URLSearchParams): Promise<MediaReleaseListModel | NotFoundModel> {
  const parsed = parseListQuery(params);
  const chrome = await loadChrome(lc, req.site);
  if (!parsed) return notFoundModel(chrome);
  const query: ListQuery = { category: null, page: parsed.page };
  const page = await mediaReleasePage(lc.data, lc.content, MEDIA_RELEASE_PAGE_SIZE, skipFor(query.page, MEDIA_RELEASE_PAGE_SIZE));
  if (query.page > pageCount(page.total, MEDIA_RELEASE_PAGE_SIZE)) return notFoundModel(chrome);
  return { kind: 'media-release-list', ...chrome, releases: page.items, total: page.total, query, pageSize: MEDIA_RELEASE_PAGE_SIZE };
}

export async function loadMediaReleaseDetail(lc: LoadContext, req: RequestContext, slug: string): Promise<MediaReleaseDetailModel | NotFoundModel> {
  const [chrome, release] = await Promise.all([loadChrome(lc, req.site), mediaRelease(lc.data, lc.content, slug)]);
  return release ? { kind: 'media-release-detail', ...chrome, release } : notFoundModel(chrome);
}
