import * as v from 'valibot';
import { contentQuery, type ContentContext } from '../content-service.ts';
import { ContentError } from '../errors.ts';
import { getLogger } from '../../log/index.ts';
import * as q from './queries.ts';
import * as s from './schema.ts';
import { mapCategory, mapContact, mapMediaRelease, mapMediaReleaseItem, mapNewsFeed, mapStory, mapStoryItem } from './map.ts';
import type {
  MediaRelease, MediaReleasePage, NewsFeedPage, Story, StoryCategory, StoryContact, StoryFeedbackInput, StoryFeedbackResult, StoryListItem, StoryPage,
} from './types.ts';

export type * from './types.ts';
export { stripLiteralNewlines } from './map.ts';

/** The content hub's largest page size for editorial lists. */
export const EDITORIAL_MAX_PAGE_SIZE = 100;
/** News feed page size (spec §9). */
export const NEWS_FEED_PAGE_SIZE = 10;

/** Input the content hub refused (GraphQL error code BAD_USER_INPUT), with its reason per field when it gave one. */
export class ContentInputError extends ContentError {
  override name = 'ContentInputError';
  readonly fields: Record<string, string>;
  constructor(message: string, opts: { operation: string; fields: Record<string, string>; cause?: unknown }) {
    super(message, { operation: opts.operation, cause: opts.cause });
    this.fields = opts.fields;
  }
}

const log = getLogger('content');
const warn = (msg: string) => log.warn(msg);

/** Runs a query, turning a BAD_USER_INPUT answer into a ContentInputError. */
async function editorialQuery<S extends v.GenericSchema>(ctx: ContentContext, operation: string, query: string, variables: Record<string, unknown>, schema: S): Promise<v.InferOutput<S>> {
  try {
    return await contentQuery(ctx, operation, query, variables, schema);
  } catch (err) {
    if (err instanceof ContentError && err.graphQLErrors) {
      const first = err.graphQLErrors[0];
      const ext = v.safeParse(s.BadInputExtensionsSchema, first?.extensions);
      if (ext.success) throw new ContentInputError(err.message, { operation, fields: ext.output.fields ?? {}, cause: err });
    }
    throw err;
  }
}

const pageSize = (n: number) => Math.max(0, Math.min(EDITORIAL_MAX_PAGE_SIZE, Math.trunc(n)));

/** Stories, newest first; `category` is a category slug (an unknown one gives an empty page). */
export async function getStories(ctx: ContentContext, opts: { category?: string | null; first: number; skip?: number }): Promise<StoryPage> {
  const raw = await editorialQuery(ctx, 'stories', q.STORIES, { category: opts.category ?? null, first: pageSize(opts.first), skip: Math.max(0, opts.skip ?? 0), stage: ctx.stage }, s.StoriesSchema);
  return { total: raw.stories.total, items: raw.stories.items.map(mapStoryItem) };
}

/** Every story (list fields), newest first, fetched page by page. */
export async function getAllStories(ctx: ContentContext): Promise<StoryListItem[]> {
  const all: StoryListItem[] = [];
  for (let skip = 0; ; skip += EDITORIAL_MAX_PAGE_SIZE) {
    const page = await getStories(ctx, { first: EDITORIAL_MAX_PAGE_SIZE, skip });
    all.push(...page.items);
    if (page.items.length === 0 || all.length >= page.total) return all;
  }
}

/** A story with its modules; null when there is none with this slug. */
export async function getStory(ctx: ContentContext, slug: string): Promise<Story | null> {
  const raw = await editorialQuery(ctx, 'story', q.STORY, { slug, stage: ctx.stage }, s.StorySchema);
  return raw.story ? mapStory(raw.story, warn) : null;
}

export async function getStoryCategories(ctx: ContentContext): Promise<StoryCategory[]> {
  const raw = await editorialQuery(ctx, 'storyCategories', q.STORY_CATEGORIES, {}, s.StoryCategoriesSchema);
  return raw.storyCategories.map(mapCategory);
}

export async function getStoryContacts(ctx: ContentContext): Promise<StoryContact[]> {
  const raw = await editorialQuery(ctx, 'storyContacts', q.STORY_CONTACTS, {}, s.StoryContactsSchema);
  return raw.storyContacts.map(mapContact);
}

export async function getStoryContact(ctx: ContentContext, slug: string): Promise<StoryContact | null> {
  const raw = await editorialQuery(ctx, 'storyContact', q.STORY_CONTACT, { slug }, s.StoryContactSchema);
  return raw.storyContact ? mapContact(raw.storyContact) : null;
}

/** Stories a contact is named on, newest first. */
export async function getStoriesByContact(ctx: ContentContext, slug: string): Promise<StoryListItem[]> {
  const raw = await editorialQuery(ctx, 'storiesByContact', q.STORIES_BY_CONTACT, { slug, stage: ctx.stage }, s.StoriesByContactSchema);
  return raw.storiesByContact.map(mapStoryItem);
}

/** The newest stories about a catalogue product (by product slug), for product pages. */
export async function getRelatedStories(ctx: ContentContext, productSlug: string, first = 3): Promise<StoryListItem[]> {
  const raw = await editorialQuery(ctx, 'relatedStories', q.RELATED_STORIES, { productSlug, first: pageSize(first), stage: ctx.stage }, s.RelatedStoriesSchema);
  return raw.relatedStories.map(mapStoryItem);
}

/** Related stories of many products in one call: product slug → stories (products without any are absent). */
export async function getRelatedStoriesByProducts(ctx: ContentContext, productSlugs: string[], first = 3): Promise<Map<string, StoryListItem[]>> {
  if (productSlugs.length === 0) return new Map();
  const raw = await editorialQuery(ctx, 'relatedStoriesByProducts', q.RELATED_STORIES_BY_PRODUCTS, { productSlugs, first: pageSize(first), stage: ctx.stage }, s.RelatedStoriesByProductsSchema);
  return new Map(raw.relatedStoriesByProducts.map((p) => [p.productSlug, p.stories.map(mapStoryItem)]));
}

/** Media releases (list fields), newest first. */
export async function getMediaReleases(ctx: ContentContext, opts: { first: number; skip?: number }): Promise<MediaReleasePage> {
  const raw = await editorialQuery(ctx, 'mediaReleases', q.MEDIA_RELEASES, { first: pageSize(opts.first), skip: Math.max(0, opts.skip ?? 0), stage: ctx.stage }, s.MediaReleasesSchema);
  return { total: raw.mediaReleases.total, items: raw.mediaReleases.items.map(mapMediaReleaseItem) };
}

export async function getMediaRelease(ctx: ContentContext, slug: string): Promise<MediaRelease | null> {
  const raw = await editorialQuery(ctx, 'mediaRelease', q.MEDIA_RELEASE, { slug, stage: ctx.stage }, s.MediaReleaseSchema);
  return raw.mediaRelease ? mapMediaRelease(raw.mediaRelease, warn) : null;
}

/**
 * One page of the news feed, newest first. `after` is the endCursor of the previous page; a
 * cursor the content hub does not know raises a ContentInputError.
 */
export async function getNewsFeedPage(ctx: ContentContext, first: number = NEWS_FEED_PAGE_SIZE, after: string | null = null): Promise<NewsFeedPage> {
  const raw = await editorialQuery(ctx, 'newsFeed', q.NEWS_FEED, { first: pageSize(first), after }, s.NewsFeedSchema);
  return mapNewsFeed(raw.newsFeed);
}

/** Stores a reader's feedback on a story; input the content hub refuses comes back per field. */
export async function submitStoryFeedback(ctx: ContentContext, input: StoryFeedbackInput): Promise<StoryFeedbackResult> {
  try {
    const raw = await editorialQuery(ctx, 'submitStoryFeedback', q.SUBMIT_STORY_FEEDBACK, { ...input }, s.SubmitStoryFeedbackSchema);
    return raw.submitStoryFeedback.ok ? { ok: true, id: raw.submitStoryFeedback.id ?? null } : { ok: false, fields: {} };
  } catch (err) {
    if (err instanceof ContentInputError) return { ok: false, fields: err.fields };
    throw err;
  }
}
