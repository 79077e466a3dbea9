import { readFileSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGraphQLError } from 'graphql-yoga';
import { filesIn, pickLocale, type Localized, type RawLink } from './store.ts';
import type { Ctx, FileLink, HubExtension, HubHelpers } from './server.ts';

/**
 * Editorial content of the content hub: stories (with categories and contacts), media releases,
 * the news feed and story feedback. Data lives in `emulators/data/content/editorial/*.json`.
 */

const here = dirname(fileURLToPath(import.meta.url));
export const EDITORIAL_DATA_DIR = join(here, '../data/content/editorial');

export const editorialTypeDefs = /* GraphQL */ `
"A category of stories (customer stories, technology, …)."
type StoryCategory {
  id: ID!
  slug: String!
  name: String!
  "Number of stories in the category."
  storyCount: Int!
}

"A person who answers questions about stories (author or expert contact)."
type StoryContact {
  id: ID!
  slug: String!
  name: String!
  role: String
  bio: String
  email: String
  image: Asset
}

"A story as shown in lists and teasers."
type StoryListItem {
  id: ID!
  slug: String!
  "ISO 8601 date-time."
  publicationDate: String!
  title: String!
  leadText: String!
  teaserImage: Asset
  category: StoryCategory!
  storyContacts: [StoryContact!]!
  "The language the localized fields were resolved to."
  contentLanguage: String!
}

"A story with its content."
type Story {
  id: ID!
  slug: String!
  "ISO 8601 date-time."
  publicationDate: String!
  title: String!
  leadText: String!
  teaserImage: Asset
  category: StoryCategory!
  storyContacts: [StoryContact!]!
  "Content modules (same shapes as page modules); links to pages carry a PageRef."
  modules: JSON!
  "Catalogue slugs of the products the story is about."
  productSlugs: [String!]!
  "Languages the story exists in."
  languages: [String!]!
  "The language the localized fields were resolved to."
  contentLanguage: String!
}

type ProductStories {
  productSlug: String!
  stories: [StoryListItem!]!
}

type StoryConnection {
  items: [StoryListItem!]!
  "Number of stories matching the filter (all pages)."
  total: Int!
}

type MediaRelease {
  id: ID!
  slug: String!
  "ISO 8601 date-time."
  publicationDate: String!
  title: String!
  leadText: String!
  "Ad hoc announcement under the listing rules (price-sensitive information)."
  adhoc: Boolean!
  modules: JSON!
  languages: [String!]!
  contentLanguage: String!
}

type MediaReleaseConnection {
  items: [MediaRelease!]!
  total: Int!
}

type NewsFeedItem {
  id: ID!
  title: String!
  "Plain text; may contain literal backslash-n sequences that clients strip."
  text: String!
  image: Asset
  link: Link
  "ISO 8601 date-time."
  publicationDate: String!
}

type NewsFeedEdge {
  "Opaque cursor of this item, for the after argument."
  cursor: String!
  node: NewsFeedItem!
}

type NewsFeedPageInfo {
  hasNextPage: Boolean!
  "Cursor of the last edge returned; null when no edge was returned."
  endCursor: String
}

type NewsFeedConnection {
  edges: [NewsFeedEdge!]!
  pageInfo: NewsFeedPageInfo!
}

type FeedbackResult {
  ok: Boolean!
  id: ID
}

"Feedback a reader sent about a story."
type Feedback {
  id: ID!
  storySlug: String!
  firstName: String!
  lastName: String!
  company: String!
  "ISO 3166-1 alpha-2, upper case."
  country: String!
  message: String!
  createdAt: String!
}

# Stories and media releases exist in stages like pages: DRAFT shows an entry's draft overlay
# (changed title, lead text or modules) and entries not yet published.
extend type Query {
  "Stories, newest first; optionally of one category (by category slug)."
  stories(category: String, first: Int = 12, skip: Int = 0, stage: Stage = PUBLISHED): StoryConnection!
  story(slug: String!, stage: Stage = PUBLISHED): Story
  storyCategories: [StoryCategory!]!
  storyContacts: [StoryContact!]!
  storyContact(slug: String!): StoryContact
  "Stories a contact is named on, newest first."
  storiesByContact(slug: String!, stage: Stage = PUBLISHED): [StoryListItem!]!
  "Newest stories about a product (by catalogue product slug)."
  relatedStories(productSlug: String!, first: Int = 3, stage: Stage = PUBLISHED): [StoryListItem!]!
  "Newest stories about each of many products at once (for bulk builds); products without stories are left out."
  relatedStoriesByProducts(productSlugs: [String!]!, first: Int = 3, stage: Stage = PUBLISHED): [ProductStories!]!
  "Media releases, newest first."
  mediaReleases(first: Int = 20, skip: Int = 0, stage: Stage = PUBLISHED): MediaReleaseConnection!
  mediaRelease(slug: String!, stage: Stage = PUBLISHED): MediaRelease
  "News feed, newest first; after takes an endCursor or edge cursor of a previous answer."
  newsFeed(first: Int = 10, after: String): NewsFeedConnection!
  "Feedback stored for a story since the emulator started (for tests and demos)."
  storyFeedback(storySlug: String!): [Feedback!]!
  "Stories, media releases and story contacts by id: the editorial page types a lookup by id spans besides pages (spec §7)."
  editorialEntriesById(ids: [ID!]!, stage: Stage = PUBLISHED): [EditorialEntryRef!]!
}

"What a lookup by id needs of an editorial entry to name its URL."
type EditorialEntryRef {
  id: ID!
  "Story, MediaRelease or StoryContact."
  type: String!
  slug: String!
}

extend type Mutation {
  "Sends feedback about a story. Invalid input is answered with a GraphQL error (code BAD_USER_INPUT, extensions.fields per field)."
  submitStoryFeedback(storySlug: String!, firstName: String!, lastName: String!, company: String!, country: String!, message: String!): FeedbackResult!
}
`;

type Text = string | Localized<string>;

interface RawAsset {
  url: string;
  mimeType: string;
  alternativeText?: Text | null;
}


interface RawCategory {
  id: string;
  slug: string;
  name: Localized<string>;
}

interface RawContact {
  id: string;
  slug: string;
  name: string;
  role?: Text | null;
  bio?: Text | null;
  email?: string | null;
  image?: RawAsset | null;
}

interface EditorialContent {
  title: string;
  leadText: string;
  modules: unknown[];
}

type Stage = 'DRAFT' | 'PUBLISHED';

/** What stories and media releases share for stages: the published content, a draft overlay, the stages the entry is in. */
interface Staged {
  content: Localized<EditorialContent>;
  /** Per language, the draft's content (what DRAFT shows instead of `content`). */
  draft?: Localized<EditorialContent>;
  /** Default: both. An entry only in DRAFT is not published yet. */
  stages?: Stage[];
}

const inStage = (e: Staged, stage: Stage) => (e.stages ?? ['PUBLISHED', 'DRAFT']).includes(stage);
/** The content of an entry in a stage: in DRAFT, each language's draft replaces its published content. */
const contentIn = (e: Staged, stage: Stage): Localized<EditorialContent> => (stage === 'DRAFT' && e.draft ? { ...e.content, ...e.draft } : e.content);

interface RawStory extends Staged {
  id: string;
  slug: string;
  publicationDate: string;
  /** Category id. */
  category: string;
  /** Contact ids. */
  contacts?: string[];
  productSlugs?: string[];
  teaserImage?: RawAsset | null;
}

interface RawMediaRelease extends Staged {
  id: string;
  slug: string;
  publicationDate: string;
  adhoc?: boolean;
}

interface RawNewsItem {
  id: string;
  publicationDate: string;
  title: Text;
  text: Text;
  image?: RawAsset | null;
  link?: RawLink | null;
}

export interface EditorialData {
  categories: RawCategory[];
  contacts: RawContact[];
  /** Newest first. */
  stories: RawStory[];
  /** Newest first. */
  mediaReleases: RawMediaRelease[];
  /** Newest first. */
  newsFeed: RawNewsItem[];
}

interface StoredFeedback {
  id: string;
  storySlug: string;
  firstName: string;
  lastName: string;
  company: string;
  country: string;
  message: string;
  createdAt: string;
}

const FILES = {
  categories: 'categories.json',
  contacts: 'contacts.json',
  stories: 'stories.json',
  mediaReleases: 'media-releases.json',
  newsFeed: 'news-feed.json',
} as const;

export const FEEDBACK_MESSAGE_MAX = 2000;
const MAX_PAGE_SIZE = 100;

/** Newest first; ties broken by id so that paging is stable. */
function byDateDesc(a: { publicationDate: string; id: string }, b: { publicationDate: string; id: string }): number {
  const d = Date.parse(b.publicationDate) - Date.parse(a.publicationDate);
  return d !== 0 ? d : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Reads and checks the editorial dataset; throws with the offending record on broken references. */
export function loadEditorialData(dir: string): EditorialData {
  const read = <T>(f: string): T[] => {
    const v = JSON.parse(readFileSync(join(dir, f), 'utf8'));
    if (!Array.isArray(v)) throw new Error(`${f}: expected an array`);
    return v as T[];
  };
  const data: EditorialData = {
    categories: read<RawCategory>(FILES.categories),
    contacts: read<RawContact>(FILES.contacts),
    stories: read<RawStory>(FILES.stories),
    mediaReleases: read<RawMediaRelease>(FILES.mediaReleases),
    newsFeed: read<RawNewsItem>(FILES.newsFeed),
  };
  const categoryIds = new Set(data.categories.map((c) => c.id));
  const contactIds = new Set(data.contacts.map((c) => c.id));
  const unique = (f: string, list: { id: string; slug?: string }[]) => {
    const ids = new Set<string>();
    const slugs = new Set<string>();
    for (const r of list) {
      if (ids.has(r.id)) throw new Error(`${f}: duplicate id ${r.id}`);
      ids.add(r.id);
      if (r.slug !== undefined) {
        if (slugs.has(r.slug)) throw new Error(`${f}: duplicate slug ${r.slug}`);
        slugs.add(r.slug);
      }
    }
  };
  const dated = (f: string, list: { id: string; publicationDate: string }[]) => {
    for (const r of list) if (Number.isNaN(Date.parse(r.publicationDate))) throw new Error(`${f}: ${r.id} has an invalid publicationDate`);
  };
  unique(FILES.categories, data.categories);
  unique(FILES.contacts, data.contacts);
  unique(FILES.stories, data.stories);
  unique(FILES.mediaReleases, data.mediaReleases);
  unique(FILES.newsFeed, data.newsFeed);
  dated(FILES.stories, data.stories);
  dated(FILES.mediaReleases, data.mediaReleases);
  dated(FILES.newsFeed, data.newsFeed);
  for (const s of data.stories) {
    if (!categoryIds.has(s.category)) throw new Error(`${FILES.stories}: story ${s.slug} has unknown category ${s.category}`);
    for (const c of s.contacts ?? []) if (!contactIds.has(c)) throw new Error(`${FILES.stories}: story ${s.slug} has unknown contact ${c}`);
    if (!Object.keys(s.content).length) throw new Error(`${FILES.stories}: story ${s.slug} has no content`);
  }
  data.stories.sort(byDateDesc);
  data.mediaReleases.sort(byDateDesc);
  data.newsFeed.sort(byDateDesc);
  return data;
}

/** Loads the dataset and reloads it when one of the files changes (checked on access). */
function dataSource(dir: string): () => EditorialData {
  let stamp = '';
  let data: EditorialData | undefined;
  const stampOf = () => Object.values(FILES).map((f) => statSync(join(dir, f)).mtimeMs).join(',');
  return () => {
    let now: string;
    try {
      now = stampOf();
    } catch (err) {
      if (data) return data;
      throw err;
    }
    if (now !== stamp || !data) {
      try {
        data = loadEditorialData(dir);
        stamp = now;
      } catch (err) {
        if (!data) throw err;
        console.error('[content-hub] could not reload editorial data:', (err as Error).message);
        stamp = now;
      }
    }
    return data;
  };
}

/**
 * A client error that yoga passes through unmasked. Made with yoga's own helper: under vitest a
 * `GraphQLError` imported here may come from another copy of graphql (index.mjs vs index.js), and
 * yoga would mask it as "Unexpected error.".
 */
function badInput(message: string, extensions: Record<string, unknown> = {}): Error {
  return createGraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', ...extensions } });
}

function checkRange(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) throw badInput(`Argument ${name} must be an integer from ${min} to ${max}, got ${value}.`);
}

export function encodeCursor(id: string): string {
  return Buffer.from(id, 'utf8').toString('base64');
}

/** The item id of a cursor, or null when the string is not a cursor of this connection. */
export function decodeCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(cursor)) return null;
  const id = Buffer.from(cursor, 'base64').toString('utf8');
  return id && encodeCursor(id) === cursor ? id : null;
}

const clip = (s: string, n = 50) => (s.length > n ? `${s.slice(0, n)}…` : s);

export interface EditorialOptions {
  /** Folder with categories.json, contacts.json, stories.json, media-releases.json, news-feed.json. */
  dataDir?: string;
}

/** Builds the editorial extension of the content hub. */
export function createEditorialExtension(opts: EditorialOptions = {}): HubExtension {
  const dir = opts.dataDir ?? EDITORIAL_DATA_DIR;
  return {
    typeDefs: editorialTypeDefs,
    resolvers(h: HubHelpers) {
      const data = dataSource(dir);
      data(); // fail fast on a broken dataset
      // Stories and media releases are public entries: the files they link are public downloads.
      h.addFileLinks(function* editorialFiles(): Iterable<FileLink> {
        const d = data();
        const entries = [...d.stories.map((e) => ({ e, type: 'Story' as const })), ...d.mediaReleases.map((e) => ({ e, type: 'MediaRelease' as const }))];
        for (const { e, type } of entries) {
          // A draft overlay is not published: only the published content links files.
          const usage = { id: e.id, type, protection: 0, isPublished: inStage(e, 'PUBLISHED'), parents: [] };
          for (const c of Object.values(e.content)) for (const file of filesIn(c.modules)) yield { file, usage };
        }
      });
      // Feedback lives as long as this hub instance.
      const feedback: StoredFeedback[] = [];

      const text = (v: Text | null | undefined, locales: string[]): string | null => {
        if (v === null || v === undefined) return null;
        if (typeof v === 'string') return v;
        return pickLocale(v, locales)?.value ?? null;
      };

      const asset = (a: RawAsset | null | undefined, locales: string[]) =>
        a ? { url: h.abs(a.url), mimeType: a.mimeType, alternativeText: text(a.alternativeText, locales) } : null;

      const link = (l: RawLink | null | undefined, locales: string[]) => {
        if (!l) return null;
        const page = typeof l.page === 'string' ? (h.resolveJson({ page: l.page }, locales) as { page: unknown }).page : null;
        return {
          text: text(l.text, locales),
          page,
          path: l.path ?? null,
          url: l.url ?? null,
          productSlug: l.productSlug ?? null,
          serviceSlug: l.serviceSlug ?? null,
          pageParameters: l.pageParameters ?? null,
          openInNewTab: !!l.openInNewTab,
        };
      };

      const category = (c: RawCategory, locales: string[]) => ({
        id: c.id,
        slug: c.slug,
        name: text(c.name, locales) ?? c.slug,
        storyCount: () => data().stories.filter((s) => s.category === c.id && inStage(s, 'PUBLISHED')).length,
      });

      const contact = (c: RawContact, locales: string[]) => ({
        id: c.id,
        slug: c.slug,
        name: c.name,
        role: text(c.role, locales),
        bio: text(c.bio, locales),
        email: c.email ?? null,
        image: asset(c.image, locales),
      });

      const storyItem = (s: RawStory, locales: string[], stage: Stage) => {
        const d = data();
        const picked = pickLocale(contentIn(s, stage), locales)!;
        const cat = d.categories.find((c) => c.id === s.category)!;
        return {
          id: s.id,
          slug: s.slug,
          publicationDate: s.publicationDate,
          title: picked.value.title,
          leadText: picked.value.leadText,
          teaserImage: asset(s.teaserImage, locales),
          category: category(cat, locales),
          storyContacts: (s.contacts ?? []).map((id) => d.contacts.find((c) => c.id === id)!).map((c) => contact(c, locales)),
          contentLanguage: picked.lang,
        };
      };

      const storyDetail = (s: RawStory, locales: string[], stage: Stage) => {
        const picked = pickLocale(contentIn(s, stage), locales)!;
        return {
          ...storyItem(s, locales, stage),
          modules: () => h.resolveJson(picked.value.modules ?? [], locales, stage),
          productSlugs: s.productSlugs ?? [],
          languages: Object.keys(s.content),
          contentLanguage: picked.lang,
        };
      };

      const mediaRelease = (m: RawMediaRelease, locales: string[], stage: Stage) => {
        const picked = pickLocale(contentIn(m, stage), locales)!;
        return {
          id: m.id,
          slug: m.slug,
          publicationDate: m.publicationDate,
          title: picked.value.title,
          leadText: picked.value.leadText,
          adhoc: !!m.adhoc,
          modules: () => h.resolveJson(picked.value.modules ?? [], locales, stage),
          languages: Object.keys(m.content),
          contentLanguage: picked.lang,
        };
      };

      const newsItem = (n: RawNewsItem, locales: string[]) => ({
        id: n.id,
        title: text(n.title, locales) ?? '',
        text: text(n.text, locales) ?? '',
        image: asset(n.image, locales),
        link: link(n.link, locales),
        publicationDate: n.publicationDate,
      });

      return {
        Query: {
          stories: (_: unknown, a: { category?: string | null; first: number; skip: number; stage: Stage }, ctx: Ctx) => {
            checkRange('first', a.first, 0, MAX_PAGE_SIZE);
            checkRange('skip', a.skip, 0, Number.MAX_SAFE_INTEGER);
            const d = data();
            let list = d.stories.filter((s) => inStage(s, a.stage));
            if (a.category != null) {
              const cat = d.categories.find((c) => c.slug === a.category);
              list = cat ? list.filter((s) => s.category === cat.id) : [];
            }
            return { items: list.slice(a.skip, a.skip + a.first).map((s) => storyItem(s, ctx.locales, a.stage)), total: list.length };
          },
          story: (_: unknown, a: { slug: string; stage: Stage }, ctx: Ctx) => {
            const s = data().stories.find((x) => x.slug === a.slug && inStage(x, a.stage));
            return s ? storyDetail(s, ctx.locales, a.stage) : null;
          },
          editorialEntriesById: (_: unknown, a: { ids: string[]; stage: Stage }) => {
            const d = data();
            const wanted = new Set(a.ids);
            return [
              ...d.stories.filter((e) => wanted.has(e.id) && inStage(e, a.stage)).map((e) => ({ id: e.id, type: 'Story', slug: e.slug })),
              ...d.mediaReleases.filter((e) => wanted.has(e.id) && inStage(e, a.stage)).map((e) => ({ id: e.id, type: 'MediaRelease', slug: e.slug })),
              ...d.contacts.filter((e) => wanted.has(e.id)).map((e) => ({ id: e.id, type: 'StoryContact', slug: e.slug })),
            ];
          },
          storyCategories: (_: unknown, __: unknown, ctx: Ctx) => data().categories.map((c) => category(c, ctx.locales)),
          storyContacts: (_: unknown, __: unknown, ctx: Ctx) => data().contacts.map((c) => contact(c, ctx.locales)),
          storyContact: (_: unknown, a: { slug: string }, ctx: Ctx) => {
            const c = data().contacts.find((x) => x.slug === a.slug);
            return c ? contact(c, ctx.locales) : null;
          },
          storiesByContact: (_: unknown, a: { slug: string; stage: Stage }, ctx: Ctx) => {
            const d = data();
            const c = d.contacts.find((x) => x.slug === a.slug);
            if (!c) return [];
            return d.stories.filter((s) => inStage(s, a.stage) && (s.contacts ?? []).includes(c.id)).map((s) => storyItem(s, ctx.locales, a.stage));
          },
          relatedStoriesByProducts: (_: unknown, a: { productSlugs: string[]; first: number; stage: Stage }, ctx: Ctx) => {
            checkRange('first', a.first, 0, MAX_PAGE_SIZE);
            const stories = data().stories.filter((s) => inStage(s, a.stage));
            return [...new Set(a.productSlugs)].map((productSlug) => ({
              productSlug,
              stories: stories.filter((s) => (s.productSlugs ?? []).includes(productSlug)).slice(0, a.first).map((s) => storyItem(s, ctx.locales, a.stage)),
            })).filter((p) => p.stories.length > 0);
          },
          relatedStories: (_: unknown, a: { productSlug: string; first: number; stage: Stage }, ctx: Ctx) => {
            checkRange('first', a.first, 0, MAX_PAGE_SIZE);
            return data().stories
              .filter((s) => inStage(s, a.stage) && (s.productSlugs ?? []).includes(a.productSlug))
              .slice(0, a.first)
              .map((s) => storyItem(s, ctx.locales, a.stage));
          },
          mediaReleases: (_: unknown, a: { first: number; skip: number; stage: Stage }, ctx: Ctx) => {
            checkRange('first', a.first, 0, MAX_PAGE_SIZE);
            checkRange('skip', a.skip, 0, Number.MAX_SAFE_INTEGER);
            const list = data().mediaReleases.filter((m) => inStage(m, a.stage));
            return { items: list.slice(a.skip, a.skip + a.first).map((m) => mediaRelease(m, ctx.locales, a.stage)), total: list.length };
          },
          mediaRelease: (_: unknown, a: { slug: string; stage: Stage }, ctx: Ctx) => {
            const m = data().mediaReleases.find((x) => x.slug === a.slug && inStage(x, a.stage));
            return m ? mediaRelease(m, ctx.locales, a.stage) : null;
          },
          newsFeed: (_: unknown, a: { first: number; after?: string | null }, ctx: Ctx) => {
            checkRange('first', a.first, 0, MAX_PAGE_SIZE);
            const list = data().newsFeed;
            let start = 0;
            if (a.after != null) {
              const id = decodeCursor(a.after);
              if (id === null) throw badInput(`Invalid cursor "${clip(a.after)}" for newsFeed(after): pass an endCursor or edge cursor returned by newsFeed.`, { argument: 'after' });
              const idx = list.findIndex((n) => n.id === id);
              if (idx < 0) throw badInput(`Cursor "${clip(a.after)}" for newsFeed(after) points to no news feed item (it may have been removed); restart from the first page.`, { argument: 'after' });
              start = idx + 1;
            }
            const edges = list.slice(start, start + a.first).map((n) => ({ cursor: encodeCursor(n.id), node: newsItem(n, ctx.locales) }));
            return {
              edges,
              pageInfo: { hasNextPage: start + a.first < list.length, endCursor: edges.length ? edges[edges.length - 1]!.cursor : null },
            };
          },
          storyFeedback: (_: unknown, a: { storySlug: string }) => feedback.filter((f) => f.storySlug === a.storySlug),
        },
        Mutation: {
          submitStoryFeedback: (_: unknown, a: Record<'storySlug' | 'firstName' | 'lastName' | 'company' | 'country' | 'message', string>) => {
            const v = {
              storySlug: a.storySlug.trim(),
              firstName: a.firstName.trim(),
              lastName: a.lastName.trim(),
              company: a.company.trim(),
              country: a.country.trim(),
              message: a.message.trim(),
            };
            const fields: Record<string, string> = {};
            for (const [k, val] of Object.entries(v)) if (!val) fields[k] = `${k} must not be empty.`;
            const length = [...v.message].length;
            if (length > FEEDBACK_MESSAGE_MAX) fields.message = `message must be at most ${FEEDBACK_MESSAGE_MAX} characters, got ${length}.`;
            if (v.country && !/^[A-Za-z]{2}$/.test(v.country)) fields.country = `country must be a two-letter ISO 3166-1 code such as "CH", got "${clip(v.country, 20)}".`;
            if (v.storySlug && !data().stories.some((s) => s.slug === v.storySlug)) fields.storySlug = `No story with slug "${clip(v.storySlug)}".`;
            const problems = Object.values(fields);
            if (problems.length) throw badInput(`Story feedback not accepted: ${problems.join(' ')}`, { fields });
            const entry: StoredFeedback = { id: randomUUID(), ...v, country: v.country.toUpperCase(), createdAt: new Date().toISOString() };
            feedback.push(entry);
            return { ok: true, id: entry.id };
          },
        },
      };
    },
  };
}

/** The editorial extension over the demo dataset. */
export const editorial: HubExtension = createEditorialExtension();
