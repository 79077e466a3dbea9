import type { Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations, hub, raw } from './fixtures/index.ts';

/** The directory as the content hub has it (emulators/data/content/locations.json). */
interface HubLocation {
  id: string;
  name: string;
  type: string;
  address: { city: string; countryCode: string };
}
const directory = async (): Promise<HubLocation[]> => (await hub<{ locations: HubLocation[] }>('{ locations { id name type address { city countryCode } } }')).locations;
const ids = (list: HubLocation[]) => list.map((l) => l.id).sort();

/** The directory's section (named by the module's title). */
const directoryRegion = (page: Page) => page.getByRole('region', { name: /location|Standort/i });
/** The entries the page shows (hidden cards are not in the accessibility tree). */
const cards = (page: Page) => directoryRegion(page).getByRole('article');
const status = (page: Page) => directoryRegion(page).getByRole('status');
const field = (page: Page, label: string) => directoryRegion(page).getByLabel(label, { exact: true });
const map = (page: Page) => page.getByRole('img', { name: /^(World map|Weltkarte)/ });
/** The ids of the markers the map shows. */
async function visibleMarkers(page: Page): Promise<string[]> {
  const markers = map(page).locator('circle[data-marker]');
  const shown: string[] = [];
  for (const m of await markers.all()) if (await m.isVisible()) shown.push((await m.getAttribute('data-marker'))!);
  return shown.sort();
}
async function shownIds(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const card of await cards(page).all()) out.push((await card.locator('xpath=..').getAttribute('data-location'))!);
  return out.sort();
}

test.describe('contacts and locations', () => {
  test('the directory has at least 40 entries in at least 20 countries', async () => {
    const all = await directory();
    expect(all.length).toBeGreaterThanOrEqual(40);
    expect(new Set(all.map((l) => l.address.countryCode)).size).toBeGreaterThanOrEqual(20);
  });

  test('with JavaScript, Germany + service filters the list and the map in place and puts the filter in the address', async ({ page, consoleErrors }) => {
    const all = await directory();
    const germanService = all.filter((l) => l.address.countryCode === 'DE' && l.type === 'service');
    expect(germanService.map((l) => l.name).sort()).toEqual(['Komax Service Center Wuppertal', 'Komax Service Point München']);

    await page.goto('/en/locations');
    await expect(page.getByRole('heading', { level: 1, name: 'Locations' })).toBeVisible();
    await expect(cards(page)).toHaveCount(all.length);
    expect(await visibleMarkers(page)).toEqual(ids(all));
    await page.evaluate(() => { (window as unknown as { stillHere: boolean }).stillHere = true; });

    await field(page, 'Country').selectOption('DE');
    await field(page, 'Type').selectOption('service');
    await expect(page).toHaveURL(/\/en\/locations\?country=DE&type=service$/);
    await expect(cards(page)).toHaveCount(2);
    await expect(status(page)).toHaveText('Locations found: 2');
    await expect(map(page)).toHaveAccessibleName(/World map with 2 marked locations/);
    expect(await shownIds(page)).toEqual(ids(germanService));
    expect(await visibleMarkers(page)).toEqual(ids(germanService));
    // In place: the same document.
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

    // The search matches name or city regardless of case and accents.
    await field(page, 'Name or city').fill('MUNCHEN');
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toHaveAccessibleName('Komax Service Point München');
    await expect(page).toHaveURL(/\?country=DE&type=service&q=MUNCHEN$/);

    // The address renders the same result on the server.
    await page.reload();
    await expect(cards(page)).toHaveCount(1);
    await expect(field(page, 'Name or city')).toHaveValue('MUNCHEN');

    // Reset: every entry again, a plain address.
    await directoryRegion(page).getByRole('link', { name: 'Reset filters' }).click();
    await expect(cards(page)).toHaveCount(all.length);
    await expect(page).toHaveURL(/\/en\/locations$/);
    expect(await visibleMarkers(page)).toEqual(ids(all));
    void consoleErrors;
  });

  test('a filter chosen before the page script ran (a slow connection) is shown once it runs', async ({ page, consoleErrors }) => {
    const all = await directory();
    const germanService = all.filter((l) => l.address.countryCode === 'DE' && l.type === 'service');
    // The directory's script is held until the filters are chosen, as on a slow connection.
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    await page.route(/\/_astro\/LocationsDirectory\.[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/en/locations', { waitUntil: 'commit' });
    await field(page, 'Country').selectOption('DE');
    await field(page, 'Type').selectOption('service');
    await expect(cards(page)).toHaveCount(all.length);
    release();
    await expect(page).toHaveURL(/\/en\/locations\?country=DE&type=service$/);
    await expect(cards(page)).toHaveCount(2);
    await expect(status(page)).toHaveText('Locations found: 2');
    expect(await shownIds(page)).toEqual(ids(germanService));
    void consoleErrors;
  });

  test('without JavaScript, the GET form filters to Germany + service on the server', async ({ browser }) => {
    const all = await directory();
    const germanService = all.filter((l) => l.address.countryCode === 'DE' && l.type === 'service');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/en/locations');
    await expect(cards(page)).toHaveCount(all.length);
    await field(page, 'Country').selectOption('DE');
    await field(page, 'Type').selectOption('service');
    const answer = page.waitForResponse((r) => r.url().includes('/en/locations?'));
    await directoryRegion(page).getByRole('button', { name: 'Show locations' }).click();
    const res = await answer;
    expect(res.headers()['x-render']).toBe('on-demand');
    expect(res.headers()['cache-control']).toBe('public, max-age=60');
    await expect(page).toHaveURL(/\/en\/locations\?country=DE&type=service&brand=&q=$/);
    await expect(cards(page)).toHaveCount(2);
    await expect(status(page)).toHaveText('Locations found: 2');
    expect(await shownIds(page)).toEqual(ids(germanService));
    expect(await visibleMarkers(page)).toEqual(ids(germanService));
    await expect(field(page, 'Country')).toHaveValue('DE');
    await expect(field(page, 'Type')).toHaveValue('service');
    await context.close();
  });

  test('the unfiltered directory is static; filter parameters render on demand', async () => {
    const page = await raw('/en/locations');
    expect(page.headers['x-render']).toBe('prerendered');
    for (const query of ['country=DE', 'type=service', 'brand=brand-lumeca', 'q=zurich']) {
      const filtered = await raw(`/en/locations?${query}`);
      expect(filtered.status, query).toBe(200);
      expect(filtered.headers['x-render'], query).toBe('on-demand');
    }
  });

  test('/de-ch preselects Switzerland, /en-us the United States, /en shows every country', async ({ page }) => {
    const all = await directory();
    await page.goto('/de-ch/locations');
    await expect(field(page, 'Land')).toHaveValue('CH');
    await expect(cards(page)).toHaveCount(all.filter((l) => l.address.countryCode === 'CH').length);
    expect(await visibleMarkers(page)).toEqual(ids(all.filter((l) => l.address.countryCode === 'CH')));
    // Every country from there is an explicit choice in the address.
    await field(page, 'Land').selectOption('all');
    await expect(cards(page)).toHaveCount(all.length);
    await expect(page).toHaveURL(/\/de-ch\/locations\?country=all$/);

    await page.goto('/en-us/locations');
    await expect(field(page, 'Country')).toHaveValue('US');
    await expect(cards(page)).toHaveCount(all.filter((l) => l.address.countryCode === 'US').length);
    await page.goto('/en/locations');
    await expect(field(page, 'Country')).toHaveValue('all');
  });

  test('entry cards link phone and e-mail and show brands, opening hours and contact persons', async ({ page }) => {
    await page.goto('/en/locations?country=DE&type=service&q=wuppertal');
    const card = cards(page).first();
    await expect(card).toHaveAccessibleName('Komax Service Center Wuppertal');
    await expect(card.getByRole('link', { name: '+49 202 69 87 10' })).toHaveAttribute('href', 'tel:+49202698710');
    await expect(card.getByRole('link', { name: 'service.wuppertal@komax.example' })).toHaveAttribute('href', 'mailto:service.wuppertal@komax.example');
    // The brands as their logos (brand image, height 96 at quality 100), named by their alt text.
    for (const brand of ['Lumeca', 'Tarnell', 'Vexo']) {
      const logo = card.getByRole('img', { name: brand, exact: true });
      await expect(logo).toHaveAttribute('src', /^\/_image\?.*[?&]h=96(&|$)/);
      await expect(logo).toHaveAttribute('src', /[?&]q=100(&|$)/);
    }
    await expect(card).toContainText('Mon–Fri');
    await expect(card).toContainText('Sabine Krüger');
    await expect(card.getByRole('link', { name: '+49 202 69 87 21' })).toHaveAttribute('href', 'tel:+49202698721');
    await expect(card.getByRole('link', { name: 'sabine.kruger@komax.example' })).toHaveAttribute('href', 'mailto:sabine.kruger@komax.example');
    await expect(card).toContainText('Lise-Meitner-Weg 5');
    await expect(card).toContainText('42329 Wuppertal');
  });

  test('passes axe, and has no horizontal overflow at 390 px, where the filters come first and the cards are collapsed', async ({ page }) => {
    await page.goto('/en/locations');
    await expectNoAxeViolations(page);
    await page.goto('/de-ch/locations?type=service');
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of ['/en/locations', '/de/locations?country=DE']) {
      await page.goto(path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
      await expect(map(page)).toBeVisible();
    }
    await expectNoAxeViolations(page);

    // On a phone the filters come first, then the cards, collapsed to name, type and address.
    await page.goto('/en/locations?country=DE&type=service&q=wuppertal');
    const card = cards(page).first();
    const [filters, cardBox, mapBox] = [await directoryRegion(page).getByRole('search').boundingBox(), await card.boundingBox(), await map(page).boundingBox()];
    expect(filters!.y + filters!.height).toBeLessThanOrEqual(cardBox!.y);
    expect(cardBox!.y).toBeLessThan(mapBox!.y);
    const phone = card.getByRole('link', { name: '+49 202 69 87 10' });
    await expect(phone).toBeHidden();
    await card.getByText('Contact details').click();
    await expect(phone).toBeVisible();
    await expectNoAxeViolations(page);
    // From 720 px on the cards are open, with no toggle.
    await page.setViewportSize({ width: 1024, height: 800 });
    await expect(card.getByText('Contact details')).toBeHidden();
    await expect(cards(page).first().getByRole('link', { name: 'sabine.kruger@komax.example' })).toBeVisible();
  });

  test('the locations are found by the site search', async ({ page }) => {
    await page.goto('/en/search?q=Wuppertal');
    await expect(page.locator('.search-result').getByRole('link', { name: 'Locations' }).first()).toHaveAttribute('href', '/en/locations');
  });
});
