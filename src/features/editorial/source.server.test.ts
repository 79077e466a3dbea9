import { testServices } from '../../../tests/support/services.ts';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoServices, type DemoServices } from '../../../emulators/testing.ts';
import { getSystemData, type Story, type StoryListItem } from '../../lib/content/index.ts';
import { makeLocale } from '../../site/locale.ts';
import type { SystemData } from '../../site/types.ts';
import type { Services } from '../platform/context.ts';
import { createRunData, routeSourceContext, type RunDataStore } from '../platform/run-data.server.ts';
import type { SourcedRoute } from '../platform/route-source.ts';
import { editorialSource } from './source.server.ts';
import { mainSite } from '../../site/main-site.ts';

let demo: DemoServices;
let services: Services;
let system: SystemData;

const hash = (r: unknown) => createHash('sha256').update(JSON.stringify(r ?? null)).digest('base64url');
const main = () => mainSite(system)!;
const context = (data: RunDataStore = createRunData()) =>
  routeSourceContext({ system, site: main(), locale: makeLocale('en', null), host: 'localhost', services, data, hash });
const byPath = (routes: SourcedRoute[]) => new Map(routes.map((r) => [r.pagePath, r]));

beforeAll(async () => {
  demo = await startDemoServices();
  services = testServices(demo);
  system = await getSystemData({ config: services.content, locales: ['en'], stage: 'PUBLISHED' });
});

afterAll(() => demo.close());

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
    const edited = (value: unknown) => {
      if (Array.isArray(value)) return value.map((s) => retitle(s as StoryListItem));
      if (value && typeof value === 'object' && 'items' in value) return { ...value, items: (value as { items: StoryListItem[] }).items.map(retitle) };
      return value && typeof value === 'object' && 'slug' in value ? retitle(value as Story) : value;
    };
    const storyKeys = ['["content","story"', '["content","stories"', '["content","allStories"', '["content","storiesByContact"'];
    const after = byPath(await editorialSource.routes(context(createRunData({
      transform: (key, value) => (storyKeys.some((k) => key.startsWith(k)) ? edited(value) : value),
    }))));
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
