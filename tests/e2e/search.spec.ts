import { test, expect, raw, expectNoAxeViolations } from './fixtures/index.ts';

test.describe('site search', () => {
  test('a German word under /de finds German pages with the word highlighted, and pages through them', async ({ page, consoleErrors }) => {
    await page.goto('/de/search?q=Maschinen');
    const results = page.getByRole('list').filter({ has: page.locator('.search-result') });
    await expect(results.getByRole('listitem').first()).toBeVisible();
    await expect(results.locator('mark').first()).toHaveText(/maschine/i);
    await expect(results.getByRole('link').first()).toHaveAttribute('href', /^\/de\//);
    const firstPage = await results.getByRole('link').allTextContents();
    await page.getByRole('button', { name: 'Nächste Seite' }).click();
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

  test('when the search backend fails, the results page shows the error state', async ({ page }) => {
    await page.route('**/api/search-proxy/search', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'Search is not available right now' }) }));
    await page.goto('/en/search?q=machine');
    await expect(page.getByRole('alert')).toContainText('The search is not available right now');
    await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
  });

  test('a malformed search body gets a 400 with a clear message', async () => {
    const notJson = await raw('/api/search-proxy/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.text).error).toMatch(/not valid JSON/);
    const badField = await raw('/api/search-proxy/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ localeCode: 'de', siteSlug: '', query: 42 }) });
    expect(badField.status).toBe(400);
    expect(JSON.parse(badField.text).error).toMatch(/query/);
    const suggest = await raw('/api/search-proxy/suggest', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ localeCode: 'xx-yy-zz', query: 'ab' }) });
    expect(suggest.status).toBe(400);
  });

  test('axe finds no violations on the results page', async ({ page }) => {
    await page.goto('/en/search?q=harness');
    await expect(page.locator('.search-result').first()).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
