import { join } from 'node:path';
import { test, expect, expectNoAxeViolations, findInPublicOutput, raw } from './fixtures/index.ts';
import { editorCookieHeader, signInAsEditor } from './fixtures/editor.ts';
import { HEADER_NAVIGATION, PAGE_BY_PATH, PAGES } from '../../src/lib/content/queries.ts';

// Draft preview (issue 13 §3): an editor sees any page in the content hub's DRAFT stage; visitors,
// the static output and the search indexes never do. The demo data's stage differences:
// emulators/data/content/pages.json (a changed title, a draft-only page) and editorial/*.json (a
// story and a media release with a draft overlay).
const DIST = join(process.cwd(), process.env.DIST_DIR ?? 'dist');

const SUSTAINABILITY = '/en/about-us/sustainability';
const DRAFT_TITLE = 'Sustainability and climate targets 2030';
const PUBLISHED_TITLE = 'Sustainability';
const UPCOMING = '/en/upcoming-launch';
const UPCOMING_TITLE = 'Introducing the next Lumeca generation';
const UPCOMING_NAV = 'Preview: next Lumeca generation';
const STORY = '/en/stories/carpatia-doubles-crimping-output';
const STORY_DRAFT_TITLE = 'Carpatia Cable Systems doubles its crimping output: the 2026 follow-up';
const STORY_TITLE = 'How Carpatia Cable Systems doubled its crimping output without adding floor space';
const RELEASE = '/en/media-releases/annual-results-2025';
const RELEASE_DRAFT_TITLE = 'Komax group closes 2025 with record sales and proposes a higher dividend';
const RELEASE_TITLE = 'Komax group closes 2025 with higher sales and improved profitability';
// The draft-only page's and the changed titles, in English and German.
const DRAFT_ONLY = [DRAFT_TITLE, 'Nachhaltigkeit und Klimaziele 2030', UPCOMING_TITLE, STORY_DRAFT_TITLE, RELEASE_DRAFT_TITLE];

const PREVIEW_COOKIE = 'kmx_preview=DRAFT';
const asEditorInPreview = () => ({ cookie: `${editorCookieHeader()}; ${PREVIEW_COOKIE}` });

test.describe('as an editor', () => {
  test.beforeEach(async ({ context }) => {
    await signInAsEditor(context);
  });

  test('?preview=DRAFT shows the draft with a banner; the draft-only page opens and is in the header; exit goes back', async ({ page }) => {
    await page.goto(`${SUSTAINABILITY}?preview=DRAFT`);
    // The parameter set the preview cookie and went to the clean address.
    await expect(page).toHaveURL(SUSTAINABILITY);
    const banner = page.getByRole('region', { name: 'Draft preview' });
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('DRAFT');
    await expect(page).toHaveTitle(new RegExp(`^${DRAFT_TITLE} \\|`));
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');

    // The draft-only page, linked from a hidden navigation item that the preview shows, marked.
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const item = nav.getByRole('link', { name: new RegExp(UPCOMING_NAV), includeHidden: true });
    await expect(item).toHaveAttribute('href', UPCOMING);
    await expect(item).toContainText('Hidden');
    await page.goto(UPCOMING);
    await expect(page).toHaveTitle(new RegExp(`^${UPCOMING_TITLE} \\|`));
    await expect(page.getByRole('region', { name: 'Draft preview' })).toBeVisible();

    // Exit on the same page: the published version, no banner, and the preview stays off.
    await page.goto(SUSTAINABILITY);
    await page.getByRole('link', { name: 'Exit preview' }).click();
    await expect(page).toHaveURL(SUSTAINABILITY);
    await expect(page).toHaveTitle(new RegExp(`^${PUBLISHED_TITLE} \\|`));
    await expect(page.getByRole('region', { name: 'Draft preview' })).toHaveCount(0);
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    const res = await page.goto(UPCOMING);
    expect(res?.status()).toBe(404);
  });

  test('stories and media releases show their drafts in the preview', async ({ page }) => {
    await page.goto(`${STORY}?preview=DRAFT`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(STORY_DRAFT_TITLE);
    await page.goto(RELEASE);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(RELEASE_DRAFT_TITLE);
    await page.goto(`${RELEASE}?preview=off`);
    await expect(page).toHaveURL(RELEASE);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(RELEASE_TITLE);
    await page.goto(STORY);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(STORY_TITLE);
  });

  test('a preview page passes axe', async ({ page }) => {
    await page.goto(`${SUSTAINABILITY}?preview=DRAFT`);
    await expect(page.getByRole('region', { name: 'Draft preview' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test('a product page keeps its catalogue data; its related stories follow the stage', async () => {
  const product = '/en/products/wire-processing/crimping/alpha-550';
  const preview = await raw(product, { headers: asEditorInPreview() });
  expect(preview.status).toBe(200);
  expect(preview.text).toContain('data-draft-preview');
  expect(preview.text).toContain(STORY_DRAFT_TITLE);
  expect(preview.text).not.toContain(STORY_TITLE);
  const visitor = await raw(product);
  expect(visitor.text).toContain(STORY_TITLE);
  expect(visitor.text).not.toContain(STORY_DRAFT_TITLE);
});

test('?preview=DRAFT sets a session cookie and redirects to the clean address, keeping other parameters', async () => {
  const res = await raw(`/en/stories?category=technology&preview=DRAFT`, { headers: { cookie: editorCookieHeader() } });
  expect(res.status).toBe(302);
  expect(res.headers.location).toBe('/en/stories?category=technology');
  const cookie = String(res.headers['set-cookie']);
  expect(cookie).toContain('kmx_preview=DRAFT');
  expect(cookie).toContain('HttpOnly');
  expect(cookie).toContain('SameSite=Lax');
  expect(cookie).not.toContain('Max-Age');
  const exit = await raw(`${SUSTAINABILITY}?preview=PUBLISHED`, { headers: asEditorInPreview() });
  expect(exit.status).toBe(302);
  expect(exit.headers.location).toBe(SUSTAINABILITY);
  expect(String(exit.headers['set-cookie'])).toMatch(/kmx_preview=; Max-Age=0/);
});

test('preview renders are private, never stored, never indexed; prerendered pages are bypassed', async () => {
  for (const path of [SUSTAINABILITY, UPCOMING, STORY, RELEASE, '/en/products']) {
    const res = await raw(path, { headers: asEditorInPreview() });
    expect(res.status, path).toBe(200);
    expect(res.headers['x-render'], path).toBe('on-demand');
    expect(res.headers['cache-control'], path).toBe('private, no-store');
    expect(res.headers['x-robots-tag'], path).toBe('noindex');
    expect(res.text, path).toContain('<meta name="robots" content="noindex">');
    expect(res.text, path).toContain('data-draft-preview');
  }
  // The prerendered page of a visitor is still the static file, without the banner.
  const visitor = await raw(SUSTAINABILITY);
  expect(visitor.headers['x-render']).toBe('prerendered');
  expect(visitor.text).not.toContain('data-draft-preview');
  expect(visitor.text).not.toContain(DRAFT_TITLE);
});

test('a visitor never sees a draft: ?preview=DRAFT is ignored, a preview cookie alone is cleared, the draft-only page is 404', async () => {
  const asked = await raw(`${SUSTAINABILITY}?preview=DRAFT`);
  expect(asked.status).toBe(200);
  expect(asked.headers['set-cookie']).toBeUndefined();
  expect(asked.text).toContain(`<title>${PUBLISHED_TITLE} |`);
  expect(asked.text).not.toContain(DRAFT_TITLE);
  expect(asked.text).not.toContain('data-draft-preview');

  // A preview cookie without a valid editor cookie (signed out, or the password changed).
  for (const cookie of [PREVIEW_COOKIE, `${PREVIEW_COOKIE}; kmx_editor=forged`]) {
    const stale = await raw(SUSTAINABILITY, { headers: { cookie } });
    expect(stale.status).toBe(200);
    expect(stale.text).not.toContain(DRAFT_TITLE);
    expect(stale.text).not.toContain('data-draft-preview');
    expect(String(stale.headers['set-cookie'])).toMatch(/kmx_preview=; Max-Age=0/);
  }

  for (const cookie of [undefined, PREVIEW_COOKIE]) {
    const hidden = await raw(UPCOMING, cookie ? { headers: { cookie } } : {});
    expect(hidden.status).toBe(404);
    expect(hidden.text).not.toContain(UPCOMING_TITLE);
  }
  const story = await raw(`${STORY}?preview=DRAFT`);
  expect(story.text).toContain(STORY_TITLE);
  expect(story.text).not.toContain(STORY_DRAFT_TITLE);
});

const proxy = (body: unknown, headers: Record<string, string> = {}) =>
  raw('/api/draft-proxy/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const asEditor = () => ({ cookie: editorCookieHeader() });

test('the draft proxy answers only editors, in DRAFT, and only the site\'s own operations', async () => {
  const pageByPath = { query: PAGE_BY_PATH, variables: { site: 'site-main', path: '/about-us/sustainability', stage: 'PUBLISHED' } };
  const anonymous = await proxy(pageByPath);
  expect(anonymous.status).toBe(401);
  expect(anonymous.text).not.toContain(DRAFT_TITLE);
  expect((await proxy(pageByPath, { cookie: 'kmx_editor=forged' })).status).toBe(401);

  const ok = await proxy(pageByPath, asEditor());
  expect(ok.status).toBe(200);
  expect(ok.headers['cache-control']).toBe('no-store');
  // The stage is DRAFT whatever the client asked for.
  expect((JSON.parse(ok.text) as { data: { pageByPath: { title: string } } }).data.pageByPath.title).toBe(DRAFT_TITLE);

  const nav = await proxy({ query: HEADER_NAVIGATION, operationName: 'HeaderNavigation', variables: { id: 'nav-main-header' } }, asEditor());
  expect(nav.status).toBe(200);
  expect(nav.text).toContain(UPCOMING_NAV);

  const arbitrary = await proxy({ query: '{ file(slug: "x") { url usedBy { id } } }' }, asEditor());
  expect(arbitrary.status).toBe(400);
  expect(JSON.parse(arbitrary.text).message).toMatch(/own content operations/);
  expect((await proxy({ query: PAGE_BY_PATH.replace('title', 'title updatedAt'), variables: {} }, asEditor())).status).toBe(400);
  expect((await proxy({ variables: {} }, asEditor())).status).toBe(400);
  expect((await proxy({ query: PAGE_BY_PATH, variables: [] }, asEditor())).status).toBe(400);
  expect((await proxy('{not json', asEditor())).status).toBe(400);
  // (A form-like type such as text/plain from another origin is refused by Astro's origin check first.)
  expect((await raw('/api/draft-proxy/graphql', { method: 'POST', headers: { 'content-type': 'application/xml', ...asEditor() }, body: '<x/>' })).status).toBe(415);
  expect((await proxy({ query: PAGE_BY_PATH, variables: { pad: 'x'.repeat(40_000) } }, asEditor())).status).toBe(413);
});

test('the draft proxy never answers a protected page or a page below one', async () => {
  const protectedPage = await proxy({ query: PAGE_BY_PATH, variables: { site: 'site-brand-portal', path: '/lumeca-brand-portal-protected' } }, asEditor());
  expect(protectedPage.status).toBe(200);
  expect(JSON.parse(protectedPage.text)).toEqual({ data: { pageByPath: null } });
  const child = await proxy({ query: PAGE_BY_PATH, variables: { site: 'site-events-na', path: '/internal-2025/x4m9q2tz' } }, asEditor());
  expect(JSON.parse(child.text)).toEqual({ data: { pageByPath: null } });

  const all = await proxy({ query: PAGES, variables: { site: 'site-events-na' } }, asEditor());
  const list = (JSON.parse(all.text) as { data: { pages: { id: string; path: string }[] } }).data.pages;
  expect(list.length).toBeGreaterThan(0);
  expect(list.map((p) => p.path)).not.toContain('/internal-2025');
  expect(list.map((p) => p.path)).not.toContain('/internal-2025/x4m9q2tz');
});

test('no static file, payload, sitemap or search index holds draft-only text', () => {
  const { files, found } = findInPublicOutput(DIST, DRAFT_ONLY);
  expect(files).toBeGreaterThan(100);
  expect(found).toEqual([]);
});
