import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { mapContact, mapMediaReleaseItem, mapNewsFeed, mapNewsItem, mapStory, mapStoryItem, stripLiteralNewlines } from './map.ts';
import { MediaReleasesSchema, NewsFeedSchema, RawStorySchema, StoriesSchema } from './schema.ts';

const category = { id: 'cat-1', slug: 'technology', name: 'Technology', storyCount: 8 };
const contact = {
  id: 'c-1', slug: 'jonas-baumann', name: 'Jonas Baumann', role: 'Application Engineer', bio: '', email: null,
  image: { url: 'http://hub/assets/img/jonas.svg', mimeType: 'image/svg+xml', alternativeText: null },
};
const storyItem = {
  id: 's-1', slug: 'carpatia', publicationDate: '2025-11-18T08:00:00.000Z', title: 'Carpatia', leadText: 'Lead',
  teaserImage: { url: 'http://hub/assets/img/carpatia.svg', mimeType: 'image/svg+xml', alternativeText: null },
  category, storyContacts: [contact],
};

describe('stripLiteralNewlines', () => {
  it('removes literal backslash-n sequences and keeps the words apart', () => {
    expect(stripLiteralNewlines('From 21 to 23 April in Dierikon.\\nRegister now.')).toBe('From 21 to 23 April in Dierikon. Register now.');
  });

  it('removes repeated sequences and the spaces around them', () => {
    expect(stripLiteralNewlines('One \\n\\n two')).toBe('One two');
    expect(stripLiteralNewlines('\\nLeading and trailing\\n')).toBe('Leading and trailing');
  });

  it('leaves real line breaks, backslashes and other escapes alone', () => {
    expect(stripLiteralNewlines('C:\\temp and \\t stay')).toBe('C:\\temp and \\t stay');
    expect(stripLiteralNewlines('plain text')).toBe('plain text');
  });
});

describe('story mapping', () => {
  it('validates a story list answer and maps it to the domain shape', () => {
    const raw = v.parse(StoriesSchema, { stories: { total: 1, items: [storyItem] } });
    const item = mapStoryItem(raw.stories.items[0]!);
    expect(item.category).toEqual(category);
    expect(item.teaserImage).toEqual({ url: 'http://hub/assets/img/carpatia.svg', mimeType: 'image/svg+xml', alternativeText: '' });
    expect(item.storyContacts[0]!.image?.alternativeText).toBe('Jonas Baumann');
  });

  it('keeps the language a list item was resolved to (null when the hub does not say), for story and media release teasers', () => {
    const raw = v.parse(StoriesSchema, { stories: { total: 2, items: [{ ...storyItem, contentLanguage: 'en' }, storyItem] } });
    expect(raw.stories.items.map((i) => mapStoryItem(i).contentLanguage)).toEqual(['en', null]);
    const release = { id: 'r', slug: 'agm', publicationDate: '2026-04-15T08:00:00.000Z', title: 'AGM', leadText: 'Lead', adhoc: false };
    const releases = v.parse(MediaReleasesSchema, { mediaReleases: { total: 2, items: [{ ...release, contentLanguage: 'de' }, release] } });
    expect(releases.mediaReleases.items.map((i) => mapMediaReleaseItem(i).contentLanguage)).toEqual(['de', null]);
  });

  it('turns empty contact fields into null', () => {
    const c = mapContact({ ...contact, bio: '', role: null, email: '' });
    expect(c).toMatchObject({ bio: null, role: null, email: null });
  });

  it("treats an image URL 'null' as no image", () => {
    const item = mapStoryItem({ ...storyItem, teaserImage: { url: 'null', mimeType: 'image/png', alternativeText: null } });
    expect(item.teaserImage).toBeNull();
  });

  it('rejects a story with an invalid publication date', () => {
    expect(v.safeParse(StoriesSchema, { stories: { total: 1, items: [{ ...storyItem, publicationDate: 'yesterday' }] } }).success).toBe(false);
  });

  it('drops an invalid module and reports it, keeping the others', () => {
    const warn = vi.fn();
    const raw = v.parse(RawStorySchema, {
      ...storyItem, productSlugs: ['alpha-550'], languages: ['en', 'de'], contentLanguage: 'en',
      modules: [{ type: 'richText', title: null, blocks: [{ kind: 'paragraph', text: 'Hello' }] }, { type: 'mystery' }],
    });
    const story = mapStory(raw, warn);
    expect(story.modules).toHaveLength(1);
    expect(story.modules[0]!.type).toBe('richText');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('story carpatia: module 1 (mystery) skipped'));
    expect(story.productSlugs).toEqual(['alpha-550']);
  });
});

describe('news feed mapping', () => {
  const edge = (id: string, text = 'Text') => ({
    cursor: `cur-${id}`,
    node: { id, title: `Title ${id}`, text, publicationDate: '2026-04-08T07:00:00.000Z', image: null, link: null },
  });

  it('flattens edges and keeps the paging info', () => {
    const raw = v.parse(NewsFeedSchema, { newsFeed: { edges: [edge('a'), edge('b')], pageInfo: { hasNextPage: true, endCursor: 'cur-b' } } });
    const page = mapNewsFeed(raw.newsFeed);
    expect(page.items.map((i) => i.id)).toEqual(['a', 'b']);
    expect(page).toMatchObject({ hasNextPage: true, endCursor: 'cur-b' });
  });

  it('takes the last edge cursor when endCursor is missing, null for an empty page', () => {
    expect(mapNewsFeed({ edges: [edge('a')], pageInfo: { hasNextPage: false, endCursor: null } }).endCursor).toBe('cur-a');
    expect(mapNewsFeed({ edges: [], pageInfo: { hasNextPage: false, endCursor: null } }).endCursor).toBeNull();
  });

  it('strips literal \\n from the item text', () => {
    expect(mapNewsItem(edge('a', 'Line one.\\nLine two.').node).text).toBe('Line one. Line two.');
  });

  it('maps a link with a page reference to a domain link', () => {
    const raw = v.parse(NewsFeedSchema, {
      newsFeed: {
        edges: [{ cursor: 'c', node: { ...edge('a').node, link: { text: 'Investor relations', page: { id: 'p1', path: '/investors', site: 'site-main', title: 'Investors' }, openInNewTab: false } } }],
        pageInfo: { hasNextPage: false, endCursor: 'c' },
      },
    });
    expect(mapNewsFeed(raw.newsFeed).items[0]!.link).toMatchObject({ text: 'Investor relations', page: { id: 'p1', path: '/investors', siteId: 'site-main' } });
  });
});
