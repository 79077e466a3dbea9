import * as v from 'valibot';
import { AssetSchema, RawLinkSchema } from '../schema.ts';

/** valibot schemas for the raw editorial answers of the content hub (map.ts makes domain types). */

const str = v.string();
const nstr = v.nullish(v.string());
/** ISO 8601 date-time, checked so that a broken date never reaches Intl. */
const isoDate = v.pipe(str, v.check((s) => !Number.isNaN(Date.parse(s)), 'Invalid date'));

export const RawCategorySchema = v.object({ id: str, slug: str, name: str, storyCount: v.optional(v.number(), 0) });
export type RawCategory = v.InferOutput<typeof RawCategorySchema>;

export const RawContactSchema = v.object({
  id: str,
  slug: str,
  name: str,
  role: nstr,
  bio: nstr,
  email: nstr,
  image: v.nullish(AssetSchema),
});
export type RawContact = v.InferOutput<typeof RawContactSchema>;

export const RawStoryItemSchema = v.object({
  id: str,
  slug: str,
  publicationDate: isoDate,
  title: str,
  leadText: str,
  teaserImage: v.nullish(AssetSchema),
  category: RawCategorySchema,
  storyContacts: v.array(RawContactSchema),
  contentLanguage: nstr,
});
export type RawStoryItem = v.InferOutput<typeof RawStoryItemSchema>;

export const RawStorySchema = v.object({
  ...RawStoryItemSchema.entries,
  // Validated module by module in map.ts, so one broken module does not take the story down.
  modules: v.array(v.unknown()),
  productSlugs: v.array(str),
  languages: v.array(str),
  contentLanguage: str,
});
export type RawStory = v.InferOutput<typeof RawStorySchema>;

export const RawMediaReleaseItemSchema = v.object({
  id: str,
  slug: str,
  publicationDate: isoDate,
  title: str,
  leadText: str,
  adhoc: v.boolean(),
  contentLanguage: nstr,
});
export type RawMediaReleaseItem = v.InferOutput<typeof RawMediaReleaseItemSchema>;

export const RawMediaReleaseSchema = v.object({
  ...RawMediaReleaseItemSchema.entries,
  modules: v.array(v.unknown()),
  languages: v.array(str),
  contentLanguage: str,
});
export type RawMediaRelease = v.InferOutput<typeof RawMediaReleaseSchema>;

export const RawNewsItemSchema = v.object({
  id: str,
  title: str,
  text: str,
  publicationDate: isoDate,
  image: v.nullish(AssetSchema),
  link: v.nullish(RawLinkSchema),
});
export type RawNewsItem = v.InferOutput<typeof RawNewsItemSchema>;

export const StoriesSchema = v.object({ stories: v.object({ total: v.number(), items: v.array(RawStoryItemSchema) }) });
export const StorySchema = v.object({ story: v.nullable(RawStorySchema) });
export const StoryCategoriesSchema = v.object({ storyCategories: v.array(RawCategorySchema) });
export const StoryContactsSchema = v.object({ storyContacts: v.array(RawContactSchema) });
export const StoryContactSchema = v.object({ storyContact: v.nullable(RawContactSchema) });
export const StoriesByContactSchema = v.object({ storiesByContact: v.array(RawStoryItemSchema) });
export const RelatedStoriesSchema = v.object({ relatedStories: v.array(RawStoryItemSchema) });
export const RelatedStoriesByProductsSchema = v.object({
  relatedStoriesByProducts: v.array(v.object({ productSlug: v.string(), stories: v.array(RawStoryItemSchema) })),
});
export const MediaReleasesSchema = v.object({ mediaReleases: v.object({ total: v.number(), items: v.array(RawMediaReleaseItemSchema) }) });
export const MediaReleaseSchema = v.object({ mediaRelease: v.nullable(RawMediaReleaseSchema) });
export const NewsFeedSchema = v.object({
  newsFeed: v.object({
    edges: v.array(v.object({ cursor: str, node: RawNewsItemSchema })),
    pageInfo: v.object({ hasNextPage: v.boolean(), endCursor: nstr }),
  }),
});
export type RawNewsFeed = v.InferOutput<typeof NewsFeedSchema>['newsFeed'];
export const SubmitStoryFeedbackSchema = v.object({ submitStoryFeedback: v.object({ ok: v.boolean(), id: nstr }) });

/** `extensions` of a GraphQL error the content hub sends for bad input (code BAD_USER_INPUT, fields per argument). */
export const BadInputExtensionsSchema = v.object({
  code: v.literal('BAD_USER_INPUT'),
  fields: v.optional(v.record(str, str)),
});
