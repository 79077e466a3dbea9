import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentHub } from './server.ts';
import { FEEDBACK_MESSAGE_MAX, decodeCursor, encodeCursor } from './editorial.ts';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = join(here, '../data/content');
/** An entry of the editorial demo data files (each file has some of these fields). */
interface RawEntry { id: string; slug: string; category: string; contacts: string[]; productSlugs: string[]; content: Record<string, unknown>; publicationDate: string; adhoc: boolean }
const raw = (f: string) => JSON.parse(readFileSync(join(dataDir, 'editorial', f), 'utf8')) as RawEntry[];

/** The slugs the catalogue knows (its demo data): a story or link naming another is a broken link. */
const catalogueSlugs = (f: string) => new Set((JSON.parse(readFileSync(join(here, '../data/catalogue', f), 'utf8')) as { slug: string }[]).map((p) => p.slug));
const PRODUCT_SLUGS = catalogueSlugs('products.json');
const SERVICE_SLUGS = catalogueSlugs('services.json');

/** Every `productSlug` and `serviceSlug` of a link anywhere in a JSON value, as `kind:slug`. */
function linkedSlugs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) linkedSlugs(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if ((k === 'productSlug' || k === 'serviceSlug') && typeof v === 'string') out.push(`${k}:${v}`);
      else linkedSlugs(v, out);
    }
  }
  return out;
}

let server: Server;
let endpoint: string;

// The answers: every field the queries below can ask for (each query picks some of them).
interface Img { url: string; mimeType: string; alternativeText: string }
interface Category { id: string; slug: string; name: string; storyCount: number }
interface Contact { id: string; slug: string; name: string; role: string; bio: string; email: string; image: Img }
interface LinkAnswer { text: string | null; url: string | null; path: string | null; productSlug: string | null; openInNewTab: boolean; page: { id: string; path: string; site: string; title: string } | null }
interface Module { type: string; image?: Img; link?: LinkAnswer; blocks?: { text: string }[]; files?: { url: string }[] }
interface Story {
  id: string; slug: string; publicationDate: string; title: string; leadText: string; teaserImage: Img; category: Category; storyContacts: Contact[];
  modules: Module[]; productSlugs: string[]; languages: string[]; contentLanguage: string;
}
interface MediaRelease { id: string; slug: string; publicationDate: string; title: string; leadText: string; adhoc: boolean; languages: string[]; contentLanguage: string; modules: Module[] }
interface NewsNode { id: string; title: string; text: string; image: Img | null; link: LinkAnswer | null; publicationDate: string }
interface Feedback { id: string; storySlug: string; firstName: string; lastName: string; company: string; country: string; message: string; createdAt: string }
interface Answer {
  stories: { total: number; items: Story[] };
  story: Story;
  storyCategories: Category[];
  storyContacts: Contact[];
  storyContact: Contact;
  storiesByContact: Story[];
  relatedStories: Story[];
  mediaReleases: { total: number; items: MediaRelease[] };
  mediaRelease: MediaRelease;
  newsFeed: { edges: { cursor: string; node: NewsNode }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
  storyFeedback: Feedback[];
  submitStoryFeedback: { ok: boolean; id: string };
}

interface GqlAnswer<T = Answer> {
  data?: T;
  errors?: { message: string; extensions?: { code?: string; fields?: Record<string, string> } }[];
}

async function gql<T = Answer>(query: string, variables: Record<string, unknown> = {}, locales?: string): Promise<GqlAnswer<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (locales) headers['x-content-locales'] = locales;
  const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return (await res.json()) as GqlAnswer<T>;
}

/** Answers data, failing the test on GraphQL errors. */
async function data<T = Answer>(query: string, variables: Record<string, unknown> = {}, locales?: string): Promise<T> {
  const r = await gql<T>(query, variables, locales);
  expect(r.errors).toBeUndefined();
  return r.data!;
}

const isDesc = (dates: string[]) => dates.every((d, i) => i === 0 || Date.parse(dates[i - 1]!) >= Date.parse(d));

const LIST_ITEM = 'id slug publicationDate title leadText teaserImage { url mimeType alternativeText } category { id name slug } storyContacts { id name slug image { url } }';

beforeAll(async () => {
  const hub = await startContentHub({ port: 0, dataDir, quiet: true });
  server = hub.server;
  const { port } = server.address() as AddressInfo;
  endpoint = `http://127.0.0.1:${port}/graphql`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('demo data', () => {
  it('has the promised amount of editorial content', () => {
    const stories = raw('stories.json');
    const categories = raw('categories.json');
    expect(stories.length).toBeGreaterThanOrEqual(30);
    expect(categories.length).toBeGreaterThanOrEqual(4);
    for (const c of categories) expect(stories.some((s) => s.category === c.id)).toBe(true);
    expect(raw('contacts.json').length).toBeGreaterThanOrEqual(6);
    const releases = raw('media-releases.json');
    expect(releases).toHaveLength(25);
    expect(releases.filter((r) => r.adhoc).length).toBe(5);
    const news = raw('news-feed.json');
    expect(news).toHaveLength(25);
    for (const n of news) expect(n.publicationDate.slice(0, 4)).toMatch(/^202[56]$/);
  });

  it('uses only catalogue product slugs, English and German without ß', () => {
    for (const s of raw('stories.json')) {
      for (const p of s.productSlugs) expect(PRODUCT_SLUGS, `story ${s.slug}`).toContain(p);
      expect(Object.keys(s.content)).toContain('en');
    }
    // Links to a product or service of the catalogue (issue 29: a story linked /products/gamma-333-pc, a 404).
    const files = ['editorial/stories.json', 'editorial/media-releases.json', 'editorial/news-feed.json', 'pages.json', 'navigation.json'];
    for (const f of files) {
      for (const link of linkedSlugs(JSON.parse(readFileSync(join(dataDir, f), 'utf8')))) {
        const [kind, slug] = link.split(':') as [string, string];
        expect(kind === 'productSlug' ? PRODUCT_SLUGS : SERVICE_SLUGS, `${f}: ${link}`).toContain(slug);
      }
    }
    for (const f of ['stories.json', 'media-releases.json', 'news-feed.json', 'contacts.json', 'categories.json']) {
      expect(readFileSync(join(dataDir, 'editorial', f), 'utf8')).not.toContain('ß');
    }
  });
});

describe('stories', () => {
  it('lists 12 stories by default, newest first, with the total', async () => {
    const d = await data(`{ stories { total items { ${LIST_ITEM} } } }`);
    const total = raw('stories.json').length;
    expect(d.stories.total).toBe(total);
    expect(d.stories.items).toHaveLength(12);
    expect(isDesc(d.stories.items.map((s) => s.publicationDate))).toBe(true);
    const first = d.stories.items[0]!;
    expect(first.teaserImage.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/assets\/img\/story-[a-z0-9-]+\.svg$/);
    expect(first.teaserImage.mimeType).toBe('image/svg+xml');
    expect(first.teaserImage.alternativeText).toBeTruthy();
    expect(first.category.slug).toBeTruthy();
    expect(first.storyContacts.length).toBeGreaterThan(0);
    expect(first.storyContacts[0]?.image.url).toContain('/assets/img/contact-');
  });

  it('pages with first and skip without gaps or overlaps', async () => {
    const all = await data(`{ stories(first: 100) { total items { slug publicationDate } } }`);
    expect(all.stories.items).toHaveLength(all.stories.total);
    expect(isDesc(all.stories.items.map((s) => s.publicationDate))).toBe(true);
    const page2 = await data(`{ stories(first: 12, skip: 12) { total items { slug } } }`);
    expect(page2.stories.items.map((s) => s.slug)).toEqual(all.stories.items.slice(12, 24).map((s) => s.slug));
    const beyond = await data(`{ stories(skip: 1000) { total items { slug } } }`);
    expect(beyond.stories).toEqual({ total: all.stories.total, items: [] });
  });

  it('filters by category slug', async () => {
    const cats = await data(`{ storyCategories { slug storyCount } }`);
    for (const c of cats.storyCategories) {
      const d = await data(`query($c: String) { stories(category: $c, first: 100) { total items { category { slug } publicationDate } } }`, { c: c.slug });
      expect(d.stories.total).toBe(c.storyCount);
      expect(d.stories.items.every((s) => s.category.slug === c.slug)).toBe(true);
      expect(isDesc(d.stories.items.map((s) => s.publicationDate))).toBe(true);
    }
    const none = await data(`{ stories(category: "no-such-category") { total items { slug } } }`);
    expect(none.stories).toEqual({ total: 0, items: [] });
  });

  it('rejects out-of-range paging arguments', async () => {
    const r = await gql(`{ stories(first: -1) { total } }`);
    expect(r.errors?.[0]?.message).toMatch(/first must be an integer from 0 to 100/);
    const s = await gql(`{ stories(skip: -5) { total } }`);
    expect(s.errors?.[0]?.message).toMatch(/skip must be an integer/);
  });

  it('answers a story with modules, product slugs and languages', async () => {
    const d = await data(`{ story(slug: "carpatia-doubles-crimping-output") { ${LIST_ITEM} modules productSlugs languages contentLanguage } }`);
    const s = d.story;
    expect(s.title).toContain('Carpatia');
    expect(s.productSlugs).toEqual(['alpha-565', 'alpha-550']);
    expect(s.languages).toEqual(['en', 'de']);
    expect(s.contentLanguage).toBe('en');
    expect(s.category).toMatchObject({ slug: 'customer-stories', name: 'Customer stories' });
    expect(s.storyContacts.map((c) => c.slug)).toEqual(['jonas-baumann']);
    const types = s.modules.map((m) => m.type);
    expect(types).toEqual(expect.arrayContaining(['richText', 'quote', 'callToAction']));
    const quote = s.modules.find((m) => m.type === 'quote')!;
    expect(quote.image?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/assets\/img\//);
  });

  it('resolves page links in story modules to page references', async () => {
    const d = await data(`{ story(slug: "nordwerk-high-voltage-series-production") { modules } }`);
    const cta = d.story.modules.find((m) => m.type === 'callToAction')!;
    expect(cta.link?.page).toEqual({ id: 'cmuqay1ij7ounmu0nsoocxvuw', path: '/industries/e-mobility', site: 'site-main', title: 'E-mobility', countries: [] });
    const product = await data(`{ story(slug: "arneses-del-bajio-lead-sets-zeta") { modules } }`);
    expect(product.story.modules.find((m) => m.type === 'callToAction')?.link?.productSlug).toBe('zeta-640');
  });

  it('names stories, media releases and story contacts by id (the editorial page types of a lookup by id)', async () => {
    const d = await data<{ editorialEntriesById: { id: string; type: string; slug: string }[] }>(
      `{ editorialEntriesById(ids: ["c0gxt6zphx7muyzx2jgb1k8tf", "c1xrdka1mslyaz2zpt9zebg3e", "cw5up5iphlrslb0s9titcibhp", "cm5r53ew6rj1bhlq8eyuynngt"]) { id type slug } }`);
    expect(d.editorialEntriesById).toEqual([
      { id: 'c0gxt6zphx7muyzx2jgb1k8tf', type: 'Story', slug: 'carpatia-doubles-crimping-output' },
      { id: 'c1xrdka1mslyaz2zpt9zebg3e', type: 'MediaRelease', slug: 'annual-results-2025' },
      { id: 'cw5up5iphlrslb0s9titcibhp', type: 'StoryContact', slug: 'nadine-steiner' },
    ]);
  });

  it('answers null for an unknown story', async () => {
    expect((await data(`{ story(slug: "no-such-story") { id } }`)).story).toBeNull();
  });
});

describe('language fallback via x-content-locales', () => {
  it('resolves German for de-CH,de,en', async () => {
    const d = await data(`{ story(slug: "carpatia-doubles-crimping-output") { title contentLanguage category { name } teaserImage { alternativeText } storyContacts { role } modules } }`, {}, 'de-CH,de,en');
    expect(d.story.contentLanguage).toBe('de');
    expect(d.story.title).toMatch(/^Wie Carpatia Cable Systems/);
    expect(d.story.category.name).toBe('Kundengeschichten');
    expect(d.story.teaserImage.alternativeText).toMatch(/Crimpvollautomaten/);
    expect(d.story.storyContacts[0]?.role).toBe('Senior Application Engineer, Kabelverarbeitung');
    expect(d.story.modules.find((m) => m.type === 'callToAction')?.link).toMatchObject({ text: 'Alpha 565 entdecken', productSlug: 'alpha-565' });
  });

  it('falls back to English for languages without content', async () => {
    const fr = await data(`{ story(slug: "carpatia-doubles-crimping-output") { title contentLanguage languages category { name } } }`, {}, 'fr-CH,fr,en');
    expect(fr.story.contentLanguage).toBe('en');
    expect(fr.story.title).toMatch(/^How Carpatia/);
    expect(fr.story.category.name).toBe('Customer stories');
    expect(fr.story.languages).not.toContain('fr');
  });

  it('falls back to English for a story that exists only in English', async () => {
    const d = await data(`{ story(slug: "limmat-medical-fine-wire-processing") { contentLanguage languages category { name } } }`, {}, 'de-CH,de,en');
    expect(d.story.languages).toEqual(['en']);
    expect(d.story.contentLanguage).toBe('en');
    expect(d.story.category.name).toBe('Kundengeschichten');
  });

  it('localizes media releases and news feed items', async () => {
    const de = await data(`{ mediaRelease(slug: "annual-results-2025") { title contentLanguage } newsFeed(first: 1) { edges { node { title link { text page { title } } } } } }`, {}, 'de-CH,de,en');
    expect(de.mediaRelease.contentLanguage).toBe('de');
    expect(de.mediaRelease.title).toMatch(/^Komax Gruppe schliesst 2025/);
    expect(de.newsFeed.edges[0]?.node.title).toBe('Generalversammlung genehmigt alle Anträge');
    expect(de.newsFeed.edges[0]?.node.link?.text).toBe('Investor Relations');
    expect(de.newsFeed.edges[0]?.node.link?.page?.title).toBe('Investoren');
    const ja = await data(`{ mediaRelease(slug: "annual-results-2025") { contentLanguage } newsFeed(first: 1) { edges { node { title } } } }`, {}, 'ja-JP,ja,en');
    expect(ja.mediaRelease.contentLanguage).toBe('en');
    expect(ja.newsFeed.edges[0]?.node.title).toBe('Annual General Meeting approves all proposals');
  });
});

describe('categories and contacts', () => {
  it('lists categories with localized names and counts', async () => {
    const d = await data(`{ storyCategories { id slug name storyCount } }`, {}, 'de');
    expect(d.storyCategories.length).toBeGreaterThanOrEqual(4);
    expect(d.storyCategories.map((c) => c.slug)).toEqual(expect.arrayContaining(['customer-stories', 'technology', 'sustainability', 'company']));
    expect(d.storyCategories.find((c) => c.slug === 'technology')?.name).toBe('Technologie');
    expect(d.storyCategories.reduce((n: number, c) => n + c.storyCount, 0)).toBe(raw('stories.json').length);
  });

  it('lists contacts and answers one by slug', async () => {
    const d = await data(`{ storyContacts { id slug name role bio email image { url alternativeText } } }`);
    expect(d.storyContacts.length).toBeGreaterThanOrEqual(6);
    for (const c of d.storyContacts) {
      expect(c.role).toBeTruthy();
      expect(c.bio).toBeTruthy();
      expect(c.email).toMatch(/^[a-z.]+@komax\.example$/);
      expect(c.image.url).toContain(`/assets/img/contact-${c.slug}.svg`);
    }
    const one = await data(`{ storyContact(slug: "thomas-wyss") { name role email } }`, {}, 'de-CH,de,en');
    expect(one.storyContact).toEqual({ name: 'Thomas Wyss', role: 'Leiter Nachhaltigkeit', email: 'thomas.wyss@komax.example' });
    expect((await data(`{ storyContact(slug: "nobody") { id } }`)).storyContact).toBeNull();
  });

  it('answers the stories of a contact, newest first', async () => {
    const d = await data(`{ storiesByContact(slug: "thomas-wyss") { slug publicationDate storyContacts { slug } } }`);
    expect(d.storiesByContact.length).toBeGreaterThanOrEqual(3);
    expect(d.storiesByContact.every((s) => s.storyContacts.some((c) => c.slug === 'thomas-wyss'))).toBe(true);
    expect(isDesc(d.storiesByContact.map((s) => s.publicationDate))).toBe(true);
    const expected = raw('stories.json').filter((s) => s.contacts.includes(raw('contacts.json').find((c) => c.slug === 'thomas-wyss')!.id)).length;
    expect(d.storiesByContact).toHaveLength(expected);
    expect((await data(`{ storiesByContact(slug: "nobody") { slug } }`)).storiesByContact).toEqual([]);
  });
});

describe('relatedStories', () => {
  it('answers the 3 newest stories about a product by default', async () => {
    const all = raw('stories.json').filter((s) => s.productSlugs.includes('alpha-550'));
    expect(all.length).toBeGreaterThan(3);
    const d = await data(`{ relatedStories(productSlug: "alpha-550") { ${LIST_ITEM} } }`);
    expect(d.relatedStories).toHaveLength(3);
    expect(isDesc(d.relatedStories.map((s) => s.publicationDate))).toBe(true);
    const newest = [...all].sort((a, b) => Date.parse(b.publicationDate) - Date.parse(a.publicationDate)).slice(0, 3).map((s) => s.slug);
    expect(d.relatedStories.map((s) => s.slug)).toEqual(newest);
  });

  it('honours first and only answers stories that list the product', async () => {
    const d = await data(`{ relatedStories(productSlug: "zeta-640", first: 50) { slug } }`);
    const slugs = d.relatedStories.map((s) => s.slug);
    expect(slugs.length).toBe(raw('stories.json').filter((s) => s.productSlugs.includes('zeta-640')).length);
    for (const slug of slugs) {
      const s = await data(`query($s: String!) { story(slug: $s) { productSlugs } }`, { s: slug });
      expect(s.story.productSlugs).toContain('zeta-640');
    }
    expect((await data(`{ relatedStories(productSlug: "bt-752", first: 1) { slug } }`)).relatedStories).toHaveLength(1);
    expect((await data(`{ relatedStories(productSlug: "no-such-product") { slug } }`)).relatedStories).toEqual([]);
  });
});

describe('media releases', () => {
  it('lists 20 by default, newest first, with the total', async () => {
    const d = await data(`{ mediaReleases { total items { id slug publicationDate title leadText adhoc } } }`);
    expect(d.mediaReleases.total).toBe(25);
    expect(d.mediaReleases.items).toHaveLength(20);
    expect(isDesc(d.mediaReleases.items.map((m) => m.publicationDate))).toBe(true);
    const rest = await data(`{ mediaReleases(skip: 20) { total items { slug publicationDate } } }`);
    expect(rest.mediaReleases.items).toHaveLength(5);
    expect(Date.parse(rest.mediaReleases.items[0]!.publicationDate)).toBeLessThanOrEqual(Date.parse(d.mediaReleases.items[19]!.publicationDate));
  });

  it('flags ad hoc announcements', async () => {
    const d = await data(`{ mediaReleases(first: 100) { items { slug adhoc } } }`);
    const adhoc = d.mediaReleases.items.filter((m) => m.adhoc).map((m) => m.slug);
    expect(adhoc).toHaveLength(5);
    expect(adhoc).toEqual(expect.arrayContaining(['annual-results-2025', 'daniel-roth-appointed-cfo']));
    expect(d.mediaReleases.items.find((m) => m.slug === 'quadrel-4-launched')?.adhoc).toBe(false);
  });

  it('answers one release with modules, downloads and languages', async () => {
    const d = await data(`{ mediaRelease(slug: "annual-results-2025") { title leadText adhoc languages contentLanguage modules } }`);
    const m = d.mediaRelease;
    expect(m.adhoc).toBe(true);
    expect(m.languages).toEqual(['en', 'de']);
    expect(m.modules[0]?.blocks?.[0]?.text).toMatch(/^Ad hoc announcement/);
    const downloads = m.modules.find((x) => x.type === 'downloads');
    expect(downloads?.files?.[0]?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/assets\/files\/annual-report-2025\.pdf$/);
    const cta = m.modules.find((x) => x.type === 'callToAction');
    expect(cta?.link?.page?.path).toBe('/investors');
    expect((await data(`{ mediaRelease(slug: "nope") { id } }`)).mediaRelease).toBeNull();
  });
});

describe('newsFeed', () => {
  const Q = `query($first: Int, $after: String) { newsFeed(first: $first, after: $after) {
    edges { cursor node { id title text image { url alternativeText } link { text url path productSlug openInNewTab page { id path title } } publicationDate } }
    pageInfo { hasNextPage endCursor } } }`;

  it('pages 10, 10, then the rest, newest first', async () => {
    const p1 = (await data(Q, { first: 10 })).newsFeed;
    expect(p1.edges).toHaveLength(10);
    expect(p1.pageInfo.hasNextPage).toBe(true);
    expect(p1.pageInfo.endCursor).toBe(p1.edges[9]?.cursor);
    const p2 = (await data(Q, { first: 10, after: p1.pageInfo.endCursor })).newsFeed;
    expect(p2.edges).toHaveLength(10);
    expect(p2.pageInfo.hasNextPage).toBe(true);
    const p3 = (await data(Q, { first: 10, after: p2.pageInfo.endCursor })).newsFeed;
    expect(p3.edges).toHaveLength(5);
    expect(p3.pageInfo.hasNextPage).toBe(false);
    expect(p3.pageInfo.endCursor).toBe(p3.edges[4]?.cursor);
    const all = [...p1.edges, ...p2.edges, ...p3.edges].map((e) => e.node);
    expect(new Set(all.map((n) => n.id)).size).toBe(25);
    expect(isDesc(all.map((n) => n.publicationDate))).toBe(true);
    const after = (await data(Q, { first: 10, after: p3.pageInfo.endCursor })).newsFeed;
    expect(after).toEqual({ edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
  });

  it('uses a page size of 10 by default and base64 cursors of the item id', async () => {
    const d = (await data(Q)).newsFeed;
    expect(d.edges).toHaveLength(10);
    for (const e of d.edges) {
      expect(Buffer.from(e.cursor, 'base64').toString('utf8')).toBe(e.node.id);
      expect(decodeCursor(e.cursor)).toBe(e.node.id);
      expect(encodeCursor(e.node.id)).toBe(e.cursor);
    }
  });

  it('delivers texts with literal backslash-n sequences, images and links', async () => {
    const nodes = (await data(Q, { first: 100 })).newsFeed.edges.map((e) => e.node);
    expect(nodes.some((n) => n.text.includes('\\n'))).toBe(true);
    expect(nodes.some((n) => n.text.includes('\n'))).toBe(false);
    expect(nodes.some((n) => n.image === null)).toBe(true);
    const withImage = nodes.find((n) => n.image);
    expect(withImage?.image?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/assets\/img\/[a-z0-9-]+\.svg$/);
    const pageLinks = nodes.filter((n) => n.link && !n.link.url && !n.link.path && !n.link.productSlug);
    expect(pageLinks.length).toBeGreaterThan(5);
    for (const n of pageLinks) expect(n.link?.page).toMatchObject({ id: expect.any(String), path: expect.stringMatching(/^\//), title: expect.any(String) });
    const urlLink = nodes.find((n) => n.link?.url);
    expect(urlLink?.link?.url).toMatch(/^https:\/\//);
    expect(urlLink?.link?.openInNewTab).toBe(true);
    expect(nodes.some((n) => n.link?.productSlug === 'kappa-330')).toBe(true);
    expect(nodes.some((n) => n.link === null)).toBe(true);
  });

  it('answers a GraphQL error for a bad cursor', async () => {
    const garbage = await gql(Q, { first: 10, after: 'not a cursor!' });
    expect(garbage.data).toBeNull();
    expect(garbage.errors?.[0]?.message).toMatch(/^Invalid cursor "not a cursor!" for newsFeed\(after\)/);
    expect(garbage.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const unknown = await gql(Q, { first: 10, after: encodeCursor('no-such-item') });
    expect(unknown.errors?.[0]?.message).toMatch(/points to no news feed item/);
    const range = await gql(Q, { first: 1000 });
    expect(range.errors?.[0]?.message).toMatch(/first must be an integer from 0 to 100/);
  });
});

describe('story feedback', () => {
  const M = `mutation($storySlug: String!, $firstName: String!, $lastName: String!, $company: String!, $country: String!, $message: String!) {
    submitStoryFeedback(storySlug: $storySlug, firstName: $firstName, lastName: $lastName, company: $company, country: $country, message: $message) { ok id } }`;
  const valid = {
    storySlug: 'crimp-force-monitoring-explained',
    firstName: 'Anna',
    lastName: 'Meier',
    company: 'Alpina Kabeltechnik AG',
    country: 'CH',
    message: 'Very helpful article. Could you also cover crimp height measurement?',
  };
  const feedbackOf = async (slug: string) =>
    (await data(`query($s: String!) { storyFeedback(storySlug: $s) { id storySlug firstName lastName company country message createdAt } }`, { s: slug })).storyFeedback;

  it('rejects blank fields with a message per field', async () => {
    const r = await gql(M, { ...valid, firstName: '   ', company: '' });
    expect(r.data).toBeNull();
    const e = r.errors![0]!;
    expect(e.message).toMatch(/^Story feedback not accepted:/);
    expect(e.message).toContain('firstName must not be empty.');
    expect(e.message).toContain('company must not be empty.');
    expect(e.extensions?.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(e.extensions?.fields ?? {})).toEqual(['firstName', 'company']);
  });

  it('rejects a message longer than 2000 characters', async () => {
    const r = await gql(M, { ...valid, message: 'x'.repeat(FEEDBACK_MESSAGE_MAX + 1) });
    expect(r.errors?.[0]?.message).toContain('message must be at most 2000 characters, got 2001.');
    expect(r.errors?.[0]?.extensions?.fields).toHaveProperty('message');
  });

  it('rejects a country that is not a two-letter code', async () => {
    for (const country of ['CHE', 'C', '12', 'Switzerland']) {
      const r = await gql(M, { ...valid, country });
      expect(r.errors?.[0]?.extensions?.fields?.country).toMatch(/two-letter ISO 3166-1 code/);
    }
  });

  it('rejects feedback for an unknown story', async () => {
    const r = await gql(M, { ...valid, storySlug: 'no-such-story' });
    expect(r.errors?.[0]?.message).toContain('No story with slug "no-such-story".');
    expect(await feedbackOf('no-such-story')).toEqual([]);
  });

  it('rejects missing arguments at the GraphQL layer', async () => {
    const r = await gql(`mutation { submitStoryFeedback(storySlug: "x") { ok } }`);
    expect(r.errors?.length).toBeGreaterThan(0);
  });

  it('accepts valid feedback, trims it and exposes it per story', async () => {
    const before = await feedbackOf(valid.storySlug);
    const r = await data(M, { ...valid, firstName: '  Anna ', country: 'ch', message: `  ${'y'.repeat(FEEDBACK_MESSAGE_MAX)}  ` });
    expect(r.submitStoryFeedback.ok).toBe(true);
    expect(r.submitStoryFeedback.id).toMatch(/^[0-9a-f-]{36}$/);
    const after = await feedbackOf(valid.storySlug);
    expect(after).toHaveLength(before.length + 1);
    const stored = after[after.length - 1]!;
    expect(stored).toMatchObject({ id: r.submitStoryFeedback.id, storySlug: valid.storySlug, firstName: 'Anna', lastName: 'Meier', company: valid.company, country: 'CH' });
    expect(stored.message).toHaveLength(FEEDBACK_MESSAGE_MAX);
    expect(Number.isNaN(Date.parse(stored.createdAt))).toBe(false);
    const second = await data(M, valid);
    expect(second.submitStoryFeedback.id).not.toBe(r.submitStoryFeedback.id);
    expect(await feedbackOf(valid.storySlug)).toHaveLength(before.length + 2);
    expect(await feedbackOf('carpatia-doubles-crimping-output')).toEqual([]);
  });
});
