import type { Link } from '../../../site/navigation-types.ts';
import type { ImageAsset } from '../../../site/types.ts';
import type { ContentModule } from '../types.ts';

/** Editorial domain types (spec §3: story list item, media release item, news feed item). */

export interface StoryCategory {
  id: string;
  slug: string;
  name: string;
  /** Stories in the category (all pages). */
  storyCount: number;
}

export interface StoryContact {
  id: string;
  slug: string;
  name: string;
  role: string | null;
  bio: string | null;
  email: string | null;
  /** Alternative text falls back to the contact's name. */
  image: ImageAsset | null;
}

export interface StoryListItem {
  id: string;
  slug: string;
  /** ISO 8601 date-time. */
  publicationDate: string;
  title: string;
  leadText: string;
  /** Alternative text '' when the content hub has none (the title next to it says it all). */
  teaserImage: ImageAsset | null;
  category: StoryCategory;
  storyContacts: StoryContact[];
  /** The language title and lead text are written in (a fallback may differ from the page's); null when unknown. */
  contentLanguage: string | null;
}

export interface Story extends StoryListItem {
  modules: ContentModule[];
  /** Catalogue slugs of the products the story is about. */
  productSlugs: string[];
  /** Languages the story exists in. */
  languages: string[];
  /** The language the text was resolved to. */
  contentLanguage: string;
}

export interface StoryPage {
  items: StoryListItem[];
  /** Stories matching the filter, all pages. */
  total: number;
}

export interface MediaReleaseItem {
  id: string;
  slug: string;
  publicationDate: string;
  title: string;
  leadText: string;
  /** Ad hoc announcement (price-sensitive, listing rules). */
  adhoc: boolean;
  /** The language title and lead text are written in; null when unknown. */
  contentLanguage: string | null;
}

export interface MediaRelease extends MediaReleaseItem {
  modules: ContentModule[];
  languages: string[];
  contentLanguage: string;
}

export interface MediaReleasePage {
  items: MediaReleaseItem[];
  total: number;
}

export interface NewsFeedItem {
  id: string;
  title: string;
  /** Plain text with literal `\n` sequences removed. */
  text: string;
  image: ImageAsset | null;
  link: Link | null;
  publicationDate: string;
}

/** One page of the news feed connection (newest first). */
export interface NewsFeedPage {
  items: NewsFeedItem[];
  hasNextPage: boolean;
  /** Cursor for the next page; null when the page was empty. */
  endCursor: string | null;
}

export interface StoryFeedbackInput {
  storySlug: string;
  firstName: string;
  lastName: string;
  company: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  message: string;
}

/** The content hub's answer to feedback: stored, or refused with a reason per field. */
export type StoryFeedbackResult =
  | { ok: true; id: string | null }
  | { ok: false; fields: Record<string, string> };
