import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentHub } from '../../../emulators/content-hub/server.ts';
import { getSystemData, type ContentContext, type Story, type StoryListItem } from '../../lib/content/index.ts';
import { makeLocale } from '../../site/locale.ts';
import type { SystemData } from '../../site/types.ts';
import { editorialSource } from './editorial-source.ts';
import { hashOf } from './fingerprint.ts';
import type { RouteSourceContext, SourcedRoute } from './sources.ts';

const dataDir = join(dirname(fileURLToPath(import.meta.url)), '../../../emulators/data/content');
let server: Server;
let content: ContentContext;
let system: SystemData;

beforeAll(async () => {
  const hub = await startContentHub({ port: 0, dataDir, quiet: true });
  server = hub.server;
  content = { config: { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql` }, locales: ['en'], stage: 'PUBLISHED' };
  system = await getSystemData(content);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A source context like collect() builds; `edit` may change what a memoised load returns. */
function context(edit: (key: string, value: unknown) => unknown = (_, v) => v): RouteSourceContext {
  const site = system.sites.find((s) => s.isMain)!;
  const memos = new Map<string, Promise<unknown>>();
  return {
    system, site, locale: makeLocale('en', null), country: system.countries[0]!, content, chrome: { header: null, footer: null },
    memo<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (!memos.has(key)) memos.set(key, load().then((v) => edit(key, v)));
      return memos.get(key) as Promise<T>;
    },
    hash: hashOf,
  };
}

const byPath = (routes: SourcedRoute[]) => new Map(routes.map((r) => [r.pagePath, r]));

describe('editorialSource', () => {
  it('applies to the main site only', () => {
    expect(system.sites.filter((s) => editorialSource.appliesTo(s)).map((s) => s.isMain)).toEqual([true]);
  });

  it('lists the list pages, every story, every contact and every media release', async () => {
    const routes = byPath(await editorialSource.routes(context()));
    expect(routes.get('/stories')?.model.kind).toBe('story-overview');
    expect(routes.get('/stories/contacts')?.model.kind).toBe('story-contacts');
    expect(routes.get('/media-releases')?.model.kind).toBe('media-release-list');
    const kinds = [...routes.values()].map((r) => r.model.kind);
    expect(kinds.filter((k) => k === 'story-detail').length).toBeGreaterThanOrEqual(30);
    expect(kinds.filter((k) => k === 'media-release-detail').length).toBeGreaterThanOrEqual(20);
    expect(kinds.filter((k) => k === 'story-contact').length).toBeGreaterThan(3);
    // Query-string variants are not static files.
    expect([...routes.keys()].some((p) => p.includes('?'))).toBe(false);
  });

  it('makes details searchable with title, lead text and module text', async () => {
    const story = byPath(await editorialSource.routes(context())).get('/stories/carpatia-doubles-crimping-output')!;
    expect(story.search?.title).toMatch(/^How Carpatia/);
    expect(story.search?.description).toMatch(/^A Romanian harness supplier/);
    expect(story.search?.body).toContain('Fewer machines, more output');
    expect(story.keys).toContain('carpatia-doubles-crimping-output');
  });

  it('re-renders only the routes built from an edited story', async () => {
    const before = byPath(await editorialSource.routes(context()));
    const slug = 'carpatia-doubles-crimping-output';
    const retitle = <T extends StoryListItem>(s: T): T => (s.slug === slug ? { ...s, title: `${s.title} (updated)` } : s);
    const after = byPath(await editorialSource.routes(context((key, value) => {
      if (key.startsWith('editorial:stories:')) return (value as StoryListItem[]).map(retitle);
      if (key.startsWith(`editorial:story:${slug}:`)) return retitle(value as Story);
      return value;
    })));
    const changed = [...after.keys()].filter((p) => after.get(p)!.recordHashes.join() !== before.get(p)!.recordHashes.join()).sort();
    const story = (before.get(`/stories/${slug}`)!.model as unknown as { story: Story }).story;
    const onFirstPage = (before.get('/stories')!.model as unknown as { stories: StoryListItem[] }).stories.some((s) => s.slug === slug);
    expect(changed).toEqual([
      `/stories/${slug}`,
      ...story.storyContacts.map((c) => `/stories/contacts/${c.slug}`),
      ...(onFirstPage ? ['/stories'] : []),
    ].sort());
  });
});
