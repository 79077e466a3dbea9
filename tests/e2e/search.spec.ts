import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, raw, expectNoAxeViolations, HUB, PORT, REVALIDATE_SECRET } from './fixtures/index.ts';

test.describe('site search', () => {
  test('a German word under /de finds German pages with the word highlighted, and pages through them', async ({ page, consoleErrors }) => {
    await page.goto('/de/search?q=Maschinen');
    const results = page.getByRole('list').filter({ has: page.locator('.search-result') });
    await expect(results.getByRole('listitem').first()).toBeVisible();
    await expect(results.locator('mark').first()).toHaveText(/maschine/i);
    await expect(results.getByRole('link').first()).toHaveAttribute('href', /^\/de\//);
    const firstPage = await results.getByRole('link').allTextContents();
    await page.getByRole('navigation', { name: 'Ergebnisseiten' }).getByRole('link', { name: 'Nächste Seite' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(results.getByRole('link').first()).not.toHaveText(firstPage[0]!);
    await page.goBack();
    await expect(results.getByRole('link').first()).toHaveText(firstPage[0]!);
    void consoleErrors;
  });

  test('a one-letter typo still finds the word', async ({ page }) => {
    await page.goto('/de/search?q=Maschnen');
    await expect(page.locator('.search-result mark').first()).toHaveText(/maschine/i);
  });

  test('suggestions appear from the second character and can be chosen with the keyboard', async ({ page, consoleErrors }) => {
    await page.goto('/de');
    const box = page.getByRole('combobox', { name: /./ });
    await box.click();
    await box.pressSequentially('K');
    await expect(page.getByRole('listbox')).toBeHidden();
    await box.pressSequentially('abel');
    const options = page.getByRole('option');
    await expect(options.first()).toBeVisible();
    await expect(box).toHaveAttribute('aria-expanded', 'true');
    await box.press('ArrowDown');
    await expect(options.first()).toHaveAttribute('aria-selected', 'true');
    await box.press('Enter');
    // The chosen suggestion opens its page (a German page, not the search results).
    await page.waitForURL(/\/de\/(?!search)[a-z]/);
    void consoleErrors;
  });

  test('the header form searches without suggestions', async ({ page }) => {
    await page.goto('/en');
    const box = page.getByRole('combobox', { name: /./ });
    await box.fill('harness');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/en\/search\?q=harness/);
    await expect(page.locator('.search-result').first()).toBeVisible();
  });

  test('an empty result shows the empty state', async ({ page }) => {
    await page.goto('/en/search?q=zzqxwv');
    await expect(page.getByText(/Nothing found for “zzqxwv”/)).toBeVisible();
  });

  test('a malformed search body gets a 400 with a clear message', async () => {
    const notJson = await raw('/api/search-proxy/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.text).message).toMatch(/not valid JSON/);
    const badField = await raw('/api/search-proxy/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ localeCode: 'de', siteSlug: '', query: 42 }) });
    expect(badField.status).toBe(400);
    expect(JSON.parse(badField.text).message).toMatch(/query/);
    const suggest = await raw('/api/search-proxy/suggest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ localeCode: 'xx-yy-zz', query: 'ab' }) });
    expect(suggest.status).toBe(400);
  });

  test('axe finds no violations on the results page', async ({ page }) => {
    await page.goto('/en/search?q=harness');
    await expect(page.locator('.search-result').first()).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe('search results rendered on the server', () => {
  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the results, their highlighted terms and the paging links work', async ({ page }) => {
      const res = await page.goto('/de/search?q=Maschinen');
      expect(res?.status()).toBe(200);
      const results = page.getByRole('region', { name: /Ergebnisse für «Maschinen»: \d+/ });
      await expect(results.getByRole('heading', { level: 2 })).toHaveText(/^Ergebnisse für «Maschinen»: \d+$/);
      const list = results.getByRole('list');
      await expect(list.getByRole('listitem')).toHaveCount(10);
      await expect(list.locator('mark').first()).toHaveText(/maschine/i);
      await expect(page.getByRole('searchbox', { name: 'Website durchsuchen' })).toHaveValue('Maschinen');
      const first = await list.getByRole('link').first().textContent();
      const pages = page.getByRole('navigation', { name: 'Ergebnisseiten' });
      await expect(pages.getByRole('link', { name: 'Vorherige Seite' })).toHaveCount(0);
      await pages.getByRole('link', { name: 'Nächste Seite' }).click();
      await expect(page).toHaveURL(/\/de\/search\?q=Maschinen&page=2$/);
      await expect(list).toHaveAttribute('start', '11');
      await expect(list.getByRole('link').first()).not.toHaveText(first!);
      await expect(pages).toContainText(/Seite 2 von \d+/);
      await pages.getByRole('link', { name: 'Vorherige Seite' }).click();
      await expect(page).toHaveURL(/\/de\/search\?q=Maschinen$/);
      await expect(list.getByRole('link').first()).toHaveText(first!);
    });

    test('a new query from the page form is answered by the server', async ({ page }) => {
      await page.goto('/en/search');
      await expect(page.getByText('Enter a search term to find pages, stories and products.')).toBeVisible();
      await page.getByRole('searchbox', { name: 'Search the site' }).fill('harness');
      await page.getByRole('searchbox', { name: 'Search the site' }).press('Enter');
      await expect(page).toHaveURL(/\/en\/search\?q=harness$/);
      await expect(page.getByRole('heading', { level: 2, name: /^Results for “harness”: \d+$/ })).toBeVisible();
    });
  });

  test('the query is reflected escaped, never as markup', async ({ page }) => {
    const q = '<script>window.pwned=1</script>"><img src=x onerror="window.pwned=2">';
    const res = await raw(`/en/search?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    // Outside quoted attribute values (where `<` is text) no part of the query is markup.
    const markup = res.text.replace(/="[^"]*"/g, '=""');
    expect(markup).not.toContain('window.pwned=1</script>');
    expect(markup).not.toContain('<img src=x');
    expect(res.text).toContain('&lt;script&gt;window.pwned=1&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=&quot;window.pwned=2&quot;&gt;');
    let dialogs = 0;
    page.on('dialog', (d) => { dialogs++; void d.dismiss(); });
    await page.goto(`/en/search?q=${encodeURIComponent(q)}`);
    await expect(page.getByRole('heading', { level: 2, name: /^Results for/ })).toContainText(q);
    await expect(page.getByRole('searchbox', { name: 'Search the site' })).toHaveValue(q);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(dialogs).toBe(0);
  });

  test('statuses and caching: results and the empty state 200 with a short shared cache and noindex, a malformed page 400', async () => {
    const found = await raw('/en/search?q=harness');
    expect(found.status).toBe(200);
    expect(found.headers['x-render']).toBe('on-demand');
    expect(found.headers['cache-control']).toBe('public, max-age=60');
    expect(found.text).toContain('<meta name="robots" content="noindex">');
    expect(found.text).toMatch(/<h2 id="search-results-heading">Results for “harness”: \d+<\/h2>/);

    const empty = await raw('/en/search?q=zzqxwv');
    expect(empty.status).toBe(200);
    expect(empty.headers['cache-control']).toBe('public, max-age=60');
    expect(empty.text).toContain('Nothing found for “zzqxwv”');
    expect(empty.text).not.toContain('class="search-result__title"');

    const bad = await raw('/en/search?q=harness&page=abc');
    expect(bad.status).toBe(400);
    expect(bad.headers['cache-control']).toBe('no-store');
    expect(bad.text).toContain('This search address is not valid');
    expect(bad.text).toContain('<meta name="robots" content="noindex">');

    // Without a query the page stays the prerendered shell.
    expect((await raw('/en/search')).headers['x-render']).toBe('prerendered');
  });

  test('on a phone the page keeps the side padding and nothing shifts', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript(() => {
      const w = window as unknown as { cls: number };
      w.cls = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!e.hadRecentInput) w.cls += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/en/search?q=harness');
    const heading = page.getByRole('heading', { level: 1, name: 'Search' });
    const results = page.getByRole('region', { name: /Results for “harness”/ });
    await expect(results.getByRole('listitem').first()).toBeVisible();
    await page.waitForLoadState('load');
    const padding = 16;
    for (const box of [await heading.boundingBox(), await page.getByRole('search').last().boundingBox(), await results.boundingBox()]) {
      expect(box!.x).toBeGreaterThanOrEqual(padding);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390 - padding);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => (window as unknown as { cls: number }).cls)).toBe(0);
  });
});

test.describe('search results when the search backend fails', () => {
  // Second servers on the same built and prerendered dist/: one without an index (503), one whose
  // OpenSearch is down (502).
  const NO_INDEX = PORT - 7;
  const BROKEN_ENGINE = PORT - 8;
  const CLOSED = PORT - 9;
  const children: ChildProcess[] = [];
  let emptyDir = '';

  async function startServer(port: number, env: Record<string, string>): Promise<void> {
    const child = spawn(process.execPath, ['src/server/main.ts'], {
      env: { ...process.env, CI: '1', PORT: String(port), CONTENT_ENDPOINT: HUB, CATALOGUE_ENDPOINT: `http://127.0.0.1:${PORT - 201}/graphql`, REVALIDATE_SECRET, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const on = (c: Buffer) => { output += c.toString(); if (/Serving on/.test(output)) resolve(); };
      child.stdout!.on('data', on);
      child.stderr!.on('data', on);
      child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
    });
  }

  test.beforeAll(async () => {
    emptyDir = await mkdtemp(join(tmpdir(), 'no-search-index-'));
    await Promise.all([
      startServer(NO_INDEX, { SEARCH_INDEX_DIR: emptyDir }),
      startServer(BROKEN_ENGINE, { SEARCH_ENGINE: 'opensearch', OPENSEARCH_URL: `http://127.0.0.1:${CLOSED}`, UPSTREAM_CONNECT_TIMEOUT_MS: '500', UPSTREAM_TIMEOUT_MS: '1000' }),
    ]);
  });
  test.afterAll(async () => {
    for (const c of children) c.kill();
    await rm(emptyDir, { recursive: true, force: true });
  });

  for (const [name, port, status] of [['no index', NO_INDEX, 503], ['a failing engine', BROKEN_ENGINE, 502]] as const) {
    test(`${name}: the server renders the error state with ${status}, not cached`, async ({ page }) => {
      const res = await page.goto(`http://localhost:${port}/en/search?q=machine`);
      expect(res?.status()).toBe(status);
      expect(res?.headers()['cache-control']).toBe('no-store');
      if (status === 503) expect(res?.headers()['retry-after']).toBe('60');
      await expect(page.getByRole('alert')).toContainText('The search is not available right now');
      await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/en/search?q=machine');
      await expect(page.getByRole('searchbox', { name: 'Search the site' })).toHaveValue('machine');
      await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
      // The API answers with the same status (the backend's errors keep their status across the server's and the app's copies of the search module).
      const api = await fetch(`http://127.0.0.1:${port}/api/search-proxy/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ localeCode: 'en', siteSlug: '', query: 'machine' }) });
      expect(api.status).toBe(status);
    });
  }
});
