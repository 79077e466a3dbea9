import * as v from 'valibot';
import type { ImageAsset } from '../../../site/types.ts';
import { AssetSchema, ModuleSchema } from '../schema.ts';
import type { RawCategory, RawContact, RawMediaRelease, RawMediaReleaseItem, RawNewsFeed, RawNewsItem, RawStory, RawStoryItem } from './schema.ts';
import type { MediaRelease, MediaReleaseItem, NewsFeedItem, NewsFeedPage, Story, StoryCategory, StoryContact, StoryListItem } from './types.ts';
import type { ContentModule } from '../types.ts';
import { contentModule } from '../map.ts';

type RawAsset = v.InferOutput<typeof AssetSchema>;

/**
 * Removes the literal backslash-n sequences the news feed text may carry (spec §5); the words on
 * both sides stay apart by one space.
 * @example stripLiteralNewlines('Dierikon.\\nRegister now') // 'Dierikon. Register now'
 */
export function stripLiteralNewlines(text: string): string {
  return text.replace(/[ \t]*(?:\\n)+[ \t]*/g, ' ').replace(/ {2,}/g, ' ').trim();
}

function image(raw: RawAsset | null | undefined, fallbackAlt: string): ImageAsset | null {
  if (!raw?.url || raw.url === 'null') return null;
  return { url: raw.url, mimeType: raw.mimeType, alternativeText: raw.alternativeText ?? fallbackAlt };
}

/** Content modules validated one by one; an invalid one is dropped and reported. */
export function mapModules(raw: unknown[], owner: string, onInvalid: (message: string) => void = () => {}): ContentModule[] {
  const modules: ContentModule[] = [];
  raw.forEach((m, i) => {
    const parsed = v.safeParse(ModuleSchema, m);
    if (parsed.success) modules.push(contentModule(parsed.output));
    else onInvalid(`${owner}: module ${i} (${(m as { type?: string } | null)?.type ?? 'unknown'}) skipped: ${parsed.issues[0].message}`);
  });
  return modules;
}

export function mapCategory(raw: RawCategory): StoryCategory {
  return { id: raw.id, slug: raw.slug, name: raw.name, storyCount: raw.storyCount };
}

export function mapContact(raw: RawContact): StoryContact {
  return {
    id: raw.id,
    slug: raw.slug,
    name: raw.name,
    role: raw.role || null,
    bio: raw.bio || null,
    email: raw.email || null,
    image: image(raw.image, raw.name),
  };
}

export function mapStoryItem(raw: RawStoryItem): StoryListItem {
  return {
    id: raw.id,
    slug: raw.slug,
    publicationDate: raw.publicationDate,
    title: raw.title,
    leadText: raw.leadText,
    teaserImage: image(raw.teaserImage, ''),
    category: mapCategory(raw.category),
    storyContacts: raw.storyContacts.map(mapContact),
    contentLanguage: raw.contentLanguage ?? null,
  };
}

export function mapStory(raw: RawStory, onInvalid?: (message: string) => void): Story {
  return {
    ...mapStoryItem(raw),
    modules: mapModules(raw.modules, `story ${raw.slug}`, onInvalid),
    productSlugs: raw.productSlugs,
    languages: raw.languages,
    contentLanguage: raw.contentLanguage,
  };
}

export function mapMediaReleaseItem(raw: RawMediaReleaseItem): MediaReleaseItem {
  return { id: raw.id, slug: raw.slug, publicationDate: raw.publicationDate, title: raw.title, leadText: raw.leadText, adhoc: raw.adhoc, contentLanguage: raw.contentLanguage ?? null };
}

export function mapMediaRelease(raw: RawMediaRelease, onInvalid?: (message: string) => void): MediaRelease {
  return {
    ...mapMediaReleaseItem(raw),
    modules: mapModules(raw.modules, `media release ${raw.slug}`, onInvalid),
    languages: raw.languages,
    contentLanguage: raw.contentLanguage,
  };
}

export function mapNewsItem(raw: RawNewsItem): NewsFeedItem {
  return {
    id: raw.id,
    title: stripLiteralNewlines(raw.title),
    text: stripLiteralNewlines(raw.text),
    image: image(raw.image, ''),
    link: raw.link ?? null,
    publicationDate: raw.publicationDate,
  };
}

/** A page of the news feed connection, edges flattened. */
export function mapNewsFeed(raw: RawNewsFeed): NewsFeedPage {
  return {
    items: raw.edges.map((e) => mapNewsItem(e.node)),
    hasNextPage: raw.pageInfo.hasNextPage,
    endCursor: raw.pageInfo.endCursor ?? raw.edges.at(-1)?.cursor ?? null,
  };
}
