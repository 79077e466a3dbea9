import type { Page, Response } from '@playwright/test';
import { test, expect } from './fixtures/index.ts';

/**
 * No React on first load (issue 9): the header search, the news bell and panel, the basket and
 * the product page's islands render as working HTML and hydrate on the first interaction
 * (`client:interaction`, integrations/interaction/), losing nothing of it.
 */

const PRODUCT = '/en/products/wire-processing/cut-strip/kappa-310';

/** Records every script the page fetches, and whether it is React (React DOM's production build names its error page). */
function recordScripts(page: Page): { urls: string[]; react: string[]; settled: () => Promise<void> } {
  const urls: string[] = [];
  const react: string[] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (res: Response) => {
    if (res.request().resourceType() !== 'script') return;
    urls.push(res.url());
    pending.push(res.text().then((body) => {
      if (body.includes('react.dev/errors') || body.includes('react.transitional.element')) react.push(res.url());
    }, () => undefined));
  });
  return { urls, react, settled: async () => { await Promise.all(pending); } };
}

test.describe('no React before an interaction', () => {
  for (const path of ['/en', '/en/about-us', PRODUCT]) {
    test(`${path} requests no React file until the visitor interacts`, async ({ page, consoleErrors }) => {
      const scripts = recordScripts(page);
      await page.goto(path, { waitUntil: 'networkidle' });
      await scripts.settled();
      const islandFiles = await page.locator('astro-island').evaluateAll((els) => els.flatMap((el) => [el.getAttribute('component-url'), el.getAttribute('renderer-url')]));
      expect(scripts.urls.length).toBeGreaterThan(0);
      expect(scripts.react).toEqual([]);
      // Nor Astro's island runtime: the page inlines only a small bootstrap (integrations/interaction/).
      expect(scripts.urls.filter((u) => /\/_astro\/island-runtime\.[\w-]+\.js$/.test(u))).toEqual([]);
      expect(await page.evaluate(() => customElements.get('astro-island'))).toBeUndefined();
      for (const file of islandFiles) if (file) expect(scripts.urls.some((u) => u.endsWith(file))).toBe(false);

      // The first interaction brings it.
      await page.getByRole('combobox', { name: 'Search the site' }).focus();
      await expect.poll(async () => { await scripts.settled(); return scripts.react.length; }).toBeGreaterThan(0);
      expect(scripts.urls.filter((u) => /\/_astro\/island-runtime\.[\w-]+\.js$/.test(u))).toHaveLength(1);
      void consoleErrors;
    });
  }
});

test.describe('first interaction', () => {
  test('typing into the search box before hydration keeps every character and shows suggestions once live', async ({ page, consoleErrors }) => {
    await page.goto('/en');
    const box = page.getByRole('combobox', { name: 'Search the site' });
    // Still the server's HTML: nothing has hydrated it.
    await expect(page.locator('astro-island[ssr]').filter({ has: box })).toHaveCount(1);
    await box.pressSequentially('crimping machine');
    await expect(box).toHaveValue('crimping machine');
    await expect(page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').first()).toBeVisible();
    await expect(box).toHaveValue('crimping machine');
    void consoleErrors;
  });

  test('without JavaScript the search box is a form that opens the results page', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/en');
    const search = page.getByRole('search', { name: 'Search the site' });
    await search.getByRole('combobox', { name: 'Search the site' }).fill('crimp');
    await search.getByRole('combobox', { name: 'Search the site' }).press('Enter');
    await expect(page).toHaveURL(/\/en\/search\?q=crimp$/);
    await context.close();
  });

  test('the news bell opens the panel at the first click', async ({ page, consoleErrors }) => {
    await page.goto('/en');
    const bell = page.getByRole('button', { name: /^News/, expanded: false });
    await bell.click();
    const dialog = page.getByRole('dialog', { name: 'News' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('listitem')).toHaveCount(10);
    await expect(page.getByRole('button', { name: 'News', expanded: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'News', expanded: false })).toBeFocused();
    void consoleErrors;
  });

  test('add to comparison works at the first click, then the basket badge and drawer', async ({ page, consoleErrors }) => {
    await page.goto(PRODUCT);
    await expect(page.getByRole('button', { name: /^Compare \(/ })).toBeHidden();
    await page.getByRole('button', { name: 'Add to comparison' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Kappa 310 was added to the comparison.' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove from comparison' })).toBeVisible();
    const badge = page.getByRole('button', { name: 'Compare (1)' });
    await badge.click();
    const drawer = page.getByRole('dialog', { name: 'Comparison', exact: true });
    await expect(drawer.getByRole('link', { name: 'Kappa 310' })).toBeVisible();
    await page.keyboard.press('Escape');

    // Another page: the badge comes from storage, the drawer opens at the first click.
    await page.goto('/en/about-us');
    await page.getByRole('button', { name: 'Compare (1)' }).click();
    await expect(drawer.getByRole('link', { name: 'Kappa 310' })).toBeVisible();
    await drawer.getByRole('button', { name: 'Remove Kappa 310 from the comparison' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('button', { name: /^Compare \(/ })).toBeHidden();
    void consoleErrors;
  });

  test('the technical data switch works at the first click', async ({ page, consoleErrors }) => {
    await page.goto(PRODUCT);
    const imperial = page.getByRole('radio', { name: 'Imperial' });
    await imperial.click();
    await expect(imperial).toBeChecked();
    await expect(page.getByRole('row', { name: /^Weight/ }).first()).toContainText('lb');
    void consoleErrors;
  });
});
