import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentHub } from '../../../../emulators/content-hub/server.ts';
import type { ContentContext } from '../content-service.ts';
import {
  ContentInputError, getAllStories, getMediaRelease, getMediaReleases, getNewsFeedPage, getRelatedStories, getStories, getStoriesByContact,
  getStory, getStoryCategories, getStoryContact, getStoryContacts, submitStoryFeedback,
} from './index.ts';

// The editorial getters against the content-hub emulator: the queries must match its schema and
// every answer must pass our valibot schemas.
const dataDir = join(dirname(fileURLToPath(import.meta.url)), '../../../../emulators/data/content');
let server: Server;
let en: ContentContext;
let de: ContentContext;

beforeAll(async () => {
  const hub = await startContentHub({ port: 0, dataDir, quiet: true });
  server = hub.server;
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  en = { config: { endpoint }, locales: ['en'], stage: 'PUBLISHED' };
  de = { ...en, locales: ['de-CH', 'de', 'en'] };
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('stories', () => {
  it('pages through the stories newest first, with the total', async () => {
    const first = await getStories(en, { first: 12 });
    const second = await getStories(en, { first: 12, skip: 12 });
    expect(first.items).toHaveLength(12);
    expect(first.total).toBeGreaterThan(24);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    const dates = [...first.items, ...second.items].map((s) => Date.parse(s.publicationDate));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });

  it('filters by category slug', async () => {
    const page = await getStories(en, { category: 'technology', first: 50 });
    expect(page.total).toBe(page.items.length);
    expect(page.items.every((s) => s.category.slug === 'technology')).toBe(true);
    expect((await getStories(en, { category: 'no-such-category', first: 5 })).total).toBe(0);
  });

  it('lists every story across pages', async () => {
    const all = await getAllStories(en);
    expect(all.length).toBe((await getStories(en, { first: 1 })).total);
  });

  it('reads a story with modules in the requested language', async () => {
    const [item] = (await getStories(en, { first: 1 })).items;
    const story = await getStory(de, item!.slug);
    expect(story?.contentLanguage).toBe('de');
    expect(story?.modules.length).toBeGreaterThan(0);
    expect(story?.languages).toContain('en');
    expect(await getStory(en, 'no-such-story')).toBeNull();
  });

  it('keeps every module of the demo stories (none fails the module schema)', async () => {
    const raw = JSON.parse(readFileSync(join(dataDir, 'editorial/stories.json'), 'utf8')) as { slug: string; content: { en: { modules: unknown[] } } }[];
    for (const r of raw) expect((await getStory(en, r.slug))?.modules.length, r.slug).toBe(r.content.en.modules.length);
  });

  it('has categories, contacts and stories by contact', async () => {
    const categories = await getStoryCategories(de);
    expect(categories.find((c) => c.slug === 'technology')?.name).toBe('Technologie');
    const contacts = await getStoryContacts(en);
    expect(contacts.length).toBeGreaterThan(3);
    const contact = await getStoryContact(en, contacts[1]!.slug);
    expect(contact?.name).toBe(contacts[1]!.name);
    expect(await getStoryContact(en, 'nobody')).toBeNull();
    const stories = await getStoriesByContact(en, contacts[1]!.slug);
    expect(stories.every((s) => s.storyContacts.some((c) => c.slug === contacts[1]!.slug))).toBe(true);
  });

  it('finds related stories by product slug', async () => {
    const related = await getRelatedStories(en, 'alpha-565');
    expect(related.length).toBeGreaterThan(0);
    expect(related.length).toBeLessThanOrEqual(3);
    expect(await getRelatedStories(en, 'no-such-product')).toEqual([]);
  });
});

describe('media releases', () => {
  it('lists releases with the ad hoc flag and reads one', async () => {
    const page = await getMediaReleases(en, { first: 100 });
    expect(page.items.some((m) => m.adhoc)).toBe(true);
    expect(page.items.some((m) => !m.adhoc)).toBe(true);
    const release = await getMediaRelease(de, page.items[0]!.slug);
    expect(release?.contentLanguage).toBe('de');
    expect(release?.modules.length).toBeGreaterThan(0);
    expect(await getMediaRelease(en, 'nothing')).toBeNull();
  });
});

describe('news feed', () => {
  it('pages with the cursor and strips literal \\n', async () => {
    const first = await getNewsFeedPage(en, 10);
    expect(first.items).toHaveLength(10);
    expect(first.hasNextPage).toBe(true);
    const second = await getNewsFeedPage(en, 10, first.endCursor);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    const all = [...first.items, ...second.items];
    expect(new Set(all.map((i) => i.id)).size).toBe(all.length);
    expect(all.some((i) => i.text.includes('\\n'))).toBe(false);
  });

  it('refuses an unknown cursor with a ContentInputError', async () => {
    await expect(getNewsFeedPage(en, 10, 'bm90LWFuLWlk')).rejects.toBeInstanceOf(ContentInputError);
    await expect(getNewsFeedPage(en, 10, '***')).rejects.toBeInstanceOf(ContentInputError);
  });
});

describe('story feedback', () => {
  it('is stored, or refused per field', async () => {
    const [item] = (await getStories(en, { first: 1 })).items;
    const ok = await submitStoryFeedback(en, { storySlug: item!.slug, firstName: 'Ada', lastName: 'Muster', company: 'ACME', country: 'CH', message: 'Great story.' });
    expect(ok.ok).toBe(true);
    const refused = await submitStoryFeedback(en, { storySlug: item!.slug, firstName: ' ', lastName: 'Muster', company: 'ACME', country: 'Switzerland', message: 'x' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(Object.keys(refused.fields).sort()).toEqual(['country', 'firstName']);
  });
});

describe('stages', () => {
  it('answers a story\'s and a media release\'s draft overlay in DRAFT only, in lists too', async () => {
    const draft: ContentContext = { ...en, stage: 'DRAFT' };
    const slug = 'carpatia-doubles-crimping-output';
    const draftTitle = 'Carpatia Cable Systems doubles its crimping output: the 2026 follow-up';
    expect((await getStory(en, slug))!.title).not.toBe(draftTitle);
    expect((await getStory(draft, slug))!.title).toBe(draftTitle);
    expect((await getAllStories(draft)).find((s) => s.slug === slug)!.title).toBe(draftTitle);
    expect((await getAllStories(en)).some((s) => s.title === draftTitle)).toBe(false);
    expect((await getRelatedStories(draft, 'alpha-565', 100)).find((s) => s.slug === slug)!.title).toBe(draftTitle);
    // The German story has no draft: DRAFT shows its published content.
    expect((await getStory({ ...de, stage: 'DRAFT' }, slug))!.title).toBe((await getStory(de, slug))!.title);

    const release = 'annual-results-2025';
    const releaseDraft = 'Komax group closes 2025 with record sales and proposes a higher dividend';
    expect((await getMediaRelease(en, release))!.title).not.toBe(releaseDraft);
    expect((await getMediaRelease(draft, release))!.title).toBe(releaseDraft);
    expect((await getMediaReleases(draft, { first: 100 })).items.find((m) => m.slug === release)!.title).toBe(releaseDraft);
  });
});
