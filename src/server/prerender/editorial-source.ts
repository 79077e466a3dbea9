import {
  EDITORIAL_MAX_PAGE_SIZE, getAllStories, getMediaRelease, getMediaReleases, getStory, getStoryCategories, getStoryContacts,
  type MediaReleaseItem,
} from '../../lib/content/index.ts';
import type {
  MediaReleaseDetailModel, MediaReleaseListModel, StoryContactModel, StoryContactsModel, StoryDetailModel, StoryOverviewModel,
} from '../../models/editorial.ts';
import { MEDIA_RELEASE_PAGE_SIZE, STORY_PAGE_SIZE } from '../../models/editorial-paging.ts';
import { MEDIA_RELEASES_PATH, mediaReleasePath, STORIES_PATH, STORY_CONTACTS_PATH, storyContactPath, storyPath } from '../../models/editorial-paths.ts';
import type { PageModelBase } from '../../models/page-model.ts';
import { modulesText } from '../../models/search-text.ts';
import { siteLanguages } from '../../site/locale.ts';
import type { RouteSource, RouteSourceContext, SourcedRoute } from './sources.ts';

const FIRST_PAGE = { category: null, page: 1 };
/** Checks a model against its own type (routes carry it as the base type). */
const typed = <M extends PageModelBase>(model: M): M => model;
const newest = (items: { publicationDate: string }[], fallback: string) => items[0]?.publicationDate ?? fallback;

async function allMediaReleases(ctx: RouteSourceContext): Promise<MediaReleaseItem[]> {
  const all: MediaReleaseItem[] = [];
  for (let skip = 0; ; skip += EDITORIAL_MAX_PAGE_SIZE) {
    const page = await getMediaReleases(ctx.content, { first: EDITORIAL_MAX_PAGE_SIZE, skip });
    all.push(...page.items);
    if (page.items.length === 0 || all.length >= page.total) return all;
  }
}

/**
 * Stories and media releases of the main site, in every locale: the unfiltered first page of the
 * story overview and of the media release list (filtered and later pages are query strings and
 * render on demand), every story and media release, the contacts page and one page per contact.
 * Each route hashes only the records it shows, so editing one story re-renders its detail page,
 * the lists it appears on and the pages of its contacts.
 */
export const editorialSource: RouteSource = {
  name: 'editorial',
  appliesTo: (site) => site.isMain,
  async routes(ctx) {
    const chain = ctx.content.locales.join(',');
    const memo = <T>(name: string, load: () => Promise<T>) => ctx.memo(`editorial:${name}:${chain}`, load);
    const [stories, categories, contacts, releases] = await Promise.all([
      memo('stories', () => getAllStories(ctx.content)),
      memo('categories', () => getStoryCategories(ctx.content)),
      memo('contacts', () => getStoryContacts(ctx.content)),
      memo('mediaReleases', () => allMediaReleases(ctx)),
    ]);
    const [details, releaseDetails] = await Promise.all([
      Promise.all(stories.map((s) => memo(`story:${s.slug}`, () => getStory(ctx.content, s.slug)))),
      Promise.all(releases.map((r) => memo(`mediaRelease:${r.slug}`, () => getMediaRelease(ctx.content, r.slug)))),
    ]);
    const languages = siteLanguages(ctx.site, ctx.system.languages);
    const routes: SourcedRoute[] = [];

    const firstStories = stories.slice(0, STORY_PAGE_SIZE);
    routes.push({
      pagePath: STORIES_PATH,
      model: typed<StoryOverviewModel>({ kind: 'story-overview', ...ctx.chrome, categories, stories: firstStories, total: stories.length, query: FIRST_PAGE, pageSize: STORY_PAGE_SIZE }),
      recordHashes: [ctx.hash(categories), ...firstStories.map(ctx.hash), `total:${stories.length}`],
      languages,
      updatedAt: newest(stories, new Date(0).toISOString()),
      keys: ['stories', ...firstStories.map((s) => s.id)],
    });

    for (const story of details) {
      if (!story) continue;
      routes.push({
        pagePath: storyPath(story.slug),
        model: typed<StoryDetailModel>({ kind: 'story-detail', ...ctx.chrome, story }),
        recordHashes: [ctx.hash(story)],
        languages: story.languages,
        updatedAt: story.publicationDate,
        keys: [story.id, story.slug],
        search: { title: story.title, description: story.leadText, body: modulesText(story.modules) },
      });
    }

    routes.push({
      pagePath: STORY_CONTACTS_PATH,
      model: typed<StoryContactsModel>({ kind: 'story-contacts', ...ctx.chrome, contacts }),
      recordHashes: [ctx.hash(contacts)],
      languages,
      updatedAt: newest(stories, new Date(0).toISOString()),
      keys: ['story-contacts', ...contacts.map((c) => c.id)],
    });

    for (const contact of contacts) {
      // storiesByContact is the story list filtered by contact: derived here instead of one query per contact.
      const theirs = stories.filter((s) => s.storyContacts.some((c) => c.id === contact.id));
      routes.push({
        pagePath: storyContactPath(contact.slug),
        model: typed<StoryContactModel>({ kind: 'story-contact', ...ctx.chrome, contact, stories: theirs }),
        recordHashes: [ctx.hash(contact), ...theirs.map(ctx.hash)],
        languages,
        updatedAt: newest(theirs, newest(stories, new Date(0).toISOString())),
        keys: [contact.id, contact.slug, ...theirs.map((s) => s.id)],
        search: { title: contact.name, description: contact.role ?? '', body: contact.bio ?? '' },
      });
    }

    const firstReleases = releases.slice(0, MEDIA_RELEASE_PAGE_SIZE);
    routes.push({
      pagePath: MEDIA_RELEASES_PATH,
      model: typed<MediaReleaseListModel>({ kind: 'media-release-list', ...ctx.chrome, releases: firstReleases, total: releases.length, query: FIRST_PAGE, pageSize: MEDIA_RELEASE_PAGE_SIZE }),
      recordHashes: [...firstReleases.map(ctx.hash), `total:${releases.length}`],
      languages,
      updatedAt: newest(releases, new Date(0).toISOString()),
      keys: ['media-releases', ...firstReleases.map((r) => r.id)],
    });

    for (const release of releaseDetails) {
      if (!release) continue;
      routes.push({
        pagePath: mediaReleasePath(release.slug),
        model: typed<MediaReleaseDetailModel>({ kind: 'media-release-detail', ...ctx.chrome, release }),
        recordHashes: [ctx.hash(release)],
        languages: release.languages,
        updatedAt: release.publicationDate,
        keys: [release.id, release.slug],
        search: { title: release.title, description: release.leadText, body: modulesText(release.modules) },
      });
    }
    return routes;
  },
};
