import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test, expect, raw, hub, REVALIDATE_SECRET, DATA, ORIGIN } from './fixtures/index.ts';

const OUTPUT = join(process.cwd(), process.env.DIST_DIR ?? 'dist', 'static');
/** The live release, through its pointer (see src/server/release/release.ts). */
const STATIC = join(OUTPUT, 'live');

function latest(host: string): { id: string; timestamp: string } {
  return JSON.parse(readFileSync(join(STATIC, host, 'builds/latest.json'), 'utf8'));
}

async function revalidate(body: unknown, secret = REVALIDATE_SECRET) {
  const res = await raw('/api/revalidate', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-revalidate-secret': secret },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: JSON.parse(res.text) as Record<string, unknown> };
}

test.describe.configure({ mode: 'serial' });

test('pages are prerendered into one tree per host with payloads and agreeing manifests', async () => {
  const res = await raw('/en');
  expect(res.status).toBe(200);
  expect(res.headers['x-render']).toBe('prerendered');
  expect(res.headers['cache-control']).toContain('must-revalidate');
  expect(readdirSync(STATIC).sort()).toEqual(expect.arrayContaining(['events.localhost', 'hosts.json', 'localhost', 'partner.localhost']));
  expect(JSON.parse(readFileSync(join(STATIC, 'hosts.json'), 'utf8'))).toEqual({
    main: 'localhost',
    hosts: { localhost: ORIGIN, 'events.localhost': ORIGIN.replace('localhost', 'events.localhost'), 'partner.localhost': ORIGIN.replace('localhost', 'partner.localhost') },
    // The bytes of each host's latest.json and meta, to find a damaged one at start (release-check.ts).
    sizes: expect.any(Object),
  });
  for (const host of ['localhost', 'events.localhost', 'partner.localhost']) {
    const { id } = latest(host);
    const meta = JSON.parse(readFileSync(join(STATIC, host, 'builds/meta', `${id}.json`), 'utf8')) as { id: string; routes: Record<string, unknown> };
    expect(meta.id).toBe(id);
    const routes = Object.keys(meta.routes);
    expect(routes.length).toBeGreaterThan(5);
    // One expect for all routes: thousands of expect calls cost seconds on a busy machine.
    const missing = routes.flatMap((route) => ['index.html', '_payload.json'].filter((f) => !existsSync(join(STATIC, host, route, f))).map((f) => `${route}/${f}`));
    expect(missing).toEqual([]);
  }
  const sitemap = await raw('/sitemap.xml');
  expect(sitemap.text).toContain('hreflang="de-CH"');
  expect((await raw('/robots.txt')).text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  // The events host has a tree of its own; its /en is not the main site's.
  const events = await raw('/en', { host: 'events.localhost' });
  expect(events.headers['x-render']).toBe('prerendered');
  expect(events.text).toContain('theme-light-blue');
});

test('payloads hold the page model and nothing protected', async () => {
  const payload = JSON.parse((await raw(`/en${DATA.aboutUs}/_payload.json`)).text) as { page: { title: string; protection: number } };
  expect(payload.page.protection).toBe(0);
  // The protected pages (spec 2.4) live on the main site: none of them, nor a child, is a static route.
  const main = latest('localhost');
  const meta = JSON.parse(readFileSync(join(STATIC, 'localhost/builds/meta', `${main.id}.json`), 'utf8')) as { routes: Record<string, unknown> };
  expect(Object.keys(meta.routes).filter((r) => /internal|brand-portal-protected|service-bulletins/.test(r))).toEqual([]);
  expect(Object.keys(meta.routes)).toContain('/en/events');
});

test('revalidation needs the secret and a well-formed body', async () => {
  expect((await revalidate({}, 'wrong-secret-wrong-secret')).status).toBe(401);
  const malformed = await revalidate('{"ids": [');
  expect(malformed.status).toBe(400);
  expect(String(malformed.body.message)).toBe('The body is not valid JSON.');
  const invalid = await revalidate({ ids: 'not-a-list' });
  expect(invalid.status).toBe(400);
  expect(String(invalid.body.message)).toMatch(/ids/);
});

test('editing one page re-renders only the routes built from it and publishes a new release', async () => {
  const before = latest('localhost').id;
  const title = `Trade fair 2026 - updated ${Date.now()}`;
  await hub('mutation($id: ID!, $t: String!) { updatePageTitle(id: $id, language: "en", title: $t) { id } }', { id: DATA.englishOnlyPage.id, t: title });
  const { status, body } = await revalidate({ ids: [DATA.englishOnlyPage.id] });
  expect(status).toBe(200);
  const rendered = body.rendered as number;
  const total = body.total as number;
  expect(rendered).toBeGreaterThan(0);
  // The page exists in English only: it is shown under every locale of the main site, nothing else changed.
  expect(rendered).toBeLessThan(total / 10);
  expect(body.unchanged).toBe(total - rendered);
  expect(body.releaseId).toBeTruthy();
  expect(latest('localhost').id).toBe(body.releaseId);
  expect(latest('localhost').id).not.toBe(before);
  // Published as a new release folder behind the live pointer; the one before stays for readers in flight.
  expect(readlinkSync(STATIC)).toBe(`releases/${body.releaseId}`);
  expect(readlinkSync(join(OUTPUT, 'previous'))).toMatch(/^releases\/[0-9a-z]+$/);
  // Beside them at most one more folder: the next run's link copy of the live release, staged
  // right after the answer (marked `.staged` with the live id once complete).
  const releases = readdirSync(join(OUTPUT, 'releases'));
  const previous = basename(readlinkSync(join(OUTPUT, 'previous')));
  expect(releases).toEqual(expect.arrayContaining([previous, String(body.releaseId)]));
  const others = releases.filter((id) => id !== previous && id !== body.releaseId);
  expect(others.length).toBeLessThanOrEqual(1);
  for (const id of others) {
    const marker = join(OUTPUT, 'releases', id, '.staged');
    if (existsSync(marker)) expect(readFileSync(marker, 'utf8')).toBe(body.releaseId);
  }
  const page = await raw(`/en${DATA.englishOnlyPage.path}`);
  expect(page.headers['x-render']).toBe('prerendered');
  expect(page.text).toContain(title);

  // That a run with nothing changed renders nothing and keeps the release is proven by the crash
  // test's last restart (release-crash.spec.ts) on a small dataset, without a full run here.
});

test('a webhook naming the changed record rebuilds only what it affects; the page is live at the answer and the search follows', async () => {
  const word = `webhookcheck${Date.now()}`;
  const title = `Trade fair 2026 ${word}`;
  await hub('mutation($id: ID!, $t: String!) { updatePageTitle(id: $id, language: "en", title: $t) { id } }', { id: DATA.englishOnlyPage.id, t: title });
  const { status, body } = await revalidate({ records: [{ model: 'page', id: DATA.englishOnlyPage.id, stage: 'PUBLISHED' }] });
  expect(status).toBe(200);
  expect(body).toMatchObject({ scope: 'targeted', searchAfterPublish: true });
  expect(body.rendered as number).toBeLessThan((body.total as number) / 10);
  // Live when the answer comes: the page is served from the new release.
  const page = await raw(`/en${DATA.englishOnlyPage.path}`);
  expect(page.headers['x-render']).toBe('prerendered');
  expect(page.text).toContain(title);
  // The search index is written after the swap; the server reloads it when the thread says so.
  const found = async () => {
    const res = await raw('/api/search-proxy/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ localeCode: 'en', siteSlug: '', query: word }) });
    return res.text.includes(word);
  };
  await expect.poll(found).toBe(true);
  // The sitemap written after the swap still lists the page.
  const sitemap = await raw('/sitemap.xml');
  expect(sitemap.text).toContain(`${ORIGIN}/en${DATA.englishOnlyPage.path}</loc>`);
});

test('a page created after the build is rendered on demand', async ({ page }) => {
  const slug = `launch-${Date.now()}`;
  await hub('mutation($slug: String!) { createPage(site: "site-main", slug: $slug, language: "en", title: "Product launch", text: "A new machine generation.") { id } }', { slug });
  const res = await page.goto(`/en/${slug}`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['x-render']).toBe('on-demand');
  await expect(page.getByRole('heading', { name: 'Product launch', level: 1 })).toBeVisible();
});

test('a new release makes the next navigation a fresh load', async ({ page }) => {
  await page.goto(`/en${DATA.aboutUs}`);
  const pageRelease = await page.locator('meta[name="release-id"]').getAttribute('content');
  expect(pageRelease).toBeTruthy();
  // Publish a new release while the page is open.
  await hub('mutation($id: ID!, $t: String!) { updatePageTitle(id: $id, language: "en", title: $t) { id } }', { id: DATA.englishOnlyPage.id, t: `Trade fair 2026 (${Date.now()})` });
  // A webhook naming the record: the quickest way to a new release (targeted, not a full run).
  const { body } = await revalidate({ records: [{ model: 'page', id: DATA.englishOnlyPage.id, stage: 'PUBLISHED' }] });
  expect(body.releaseId).toBeTruthy();
  expect(body.releaseId).not.toBe(pageRelease);
  // The tab becomes visible again: the page checks builds/latest.json.
  const checked = page.waitForResponse((r) => r.url().includes('/builds/latest.json'));
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await checked;
  await expect(page.locator('html')).toHaveAttribute('data-release', 'stale');
  const navigation = page.waitForRequest((r) => r.isNavigationRequest() && r.url().includes(`_release=${body.releaseId}`));
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Home' }).click();
  await navigation;
  // The cache-busting parameter is gone from the address bar once the fresh page has loaded.
  await expect(page).toHaveURL(/\/en$/);
});
