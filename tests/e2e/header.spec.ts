import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { axe, test, expect, ORIGIN, PORT } from './fixtures/index.ts';
import type { Page } from '@playwright/test';

// The header (issue 29): the navigation bar fits every locale from 1024 px up, the mobile menu is
// modal like the site's dialogs, the sub-sites' logo link is named after what it shows, and a mega
// menu shows its item's marketing section.

const messages = (lang: string) => JSON.parse(readFileSync(join(process.cwd(), 'locales', `${lang}.json`), 'utf8')) as Record<string, string>;
const en = messages('en');

/** One home page per UI language; Spanish is offered by the events site only. */
const HOMES: [lang: string, url: string][] = [
  ...['fr', 'de', 'hu', 'pt', 'en', 'cs', 'ja', 'ro', 'sk', 'zh'].map((l): [string, string] => [l, `${ORIGIN}/${l}`]),
  ['es', `http://events.localhost:${PORT}/es`],
];

test('every locale\'s navigation fits the bar from 1024 px up: no sideways scrolling, the last item fully visible', async ({ page }) => {
  for (const [lang, url] of HOMES) {
    await page.setViewportSize({ width: 1366, height: 800 });
    await page.goto(url);
    const items = page.getByRole('navigation', { name: messages(lang)['header.mainNavigation'] }).getByRole('listitem').filter({ visible: true });
    for (const width of [1024, 1280, 1366]) {
      await page.setViewportSize({ width, height: 800 });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${lang} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
      await expect(items.last(), `${lang} at ${width} px`).toBeInViewport({ ratio: 1 });
    }
  }
});

/** Elements outside the open menu that can take the keyboard focus: none may. */
const focusBehindMenu = (page: Page) => page.evaluate(() => {
  const a = document.activeElement;
  return !!a && a !== document.body && !a.closest('.site-header__menu');
});

test('the mobile menu is modal: Close menu, Tab stays inside, Esc and a tap on the backdrop close it, the focus back on its button', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/en');
  const open = page.getByRole('button', { name: en['header.openMenu'] });
  const close = page.getByRole('button', { name: en['header.closeMenu'] });
  const nav = page.getByRole('navigation', { name: en['header.mainNavigation'] });
  await expect(nav).toBeHidden();

  await open.click();
  await expect(close).toHaveAttribute('aria-expanded', 'true');
  await expect(nav).toBeVisible();
  await expect(page.locator('main')).toHaveJSProperty('inert', true);
  // Tab walks the menu's items and from the last one back to its button, never into the page.
  const topLevel = await nav.getByRole('listitem').filter({ visible: true }).count();
  expect(topLevel).toBeGreaterThan(3);
  for (let i = 0; i < topLevel; i++) {
    await page.keyboard.press('Tab');
    expect(await focusBehindMenu(page), `Tab ${i + 1}`).toBe(false);
  }
  await expect(nav.getByRole('listitem').last().locator('a, button').first()).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(close).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  expect(await focusBehindMenu(page)).toBe(false);

  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await expect(open).toBeFocused();
  await expect(open).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('main')).toHaveJSProperty('inert', false);

  await open.click();
  await expect(nav).toBeVisible();
  // A tap outside the menu, on the backdrop below it.
  const below = (await nav.boundingBox())!;
  await page.mouse.click(195, Math.min(830, below.y + below.height + 150));
  await expect(nav).toBeHidden();
  await expect(open).toBeFocused();
  await expect(page.locator('main')).toHaveJSProperty('inert', false);
});

test('the sub-sites\' logo link is named after the text it shows (axe label-content-name-mismatch)', async ({ page }) => {
  for (const url of [`http://events.localhost:${PORT}/en`, `http://partner.localhost:${PORT}/en`, `${ORIGIN}/en/brand-portal`, `${ORIGIN}/de/lehrstellen`]) {
    await page.goto(url);
    const results = await axe(page).withRules(['label-content-name-mismatch']).include('.site-header').analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`), url).toEqual([]);
    expect(results.passes.length + results.incomplete.length, `${url}: the rule looked at the logo link`).toBeGreaterThan(0);
  }
});

test('a mega menu shows its item\'s marketing section: the logo (304x52) on its colour, linked', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/en');
  const nav = page.getByRole('navigation', { name: en['header.mainNavigation'] });
  await nav.getByRole('button', { name: 'Solutions' }).click();
  const section = nav.getByRole('link', { name: 'Komax Smart Factory: digital solutions' });
  await expect(section).toBeVisible();
  await expect(section).toHaveAttribute('href', '/en/solutions/digital-solutions');
  await expect(section).toHaveClass(/nav-marketing--dark-white/);
  const logo = section.getByRole('img');
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && [img.naturalWidth, img.naturalHeight])).toEqual([304, 52]);
  await expect(section).toBeInViewport({ ratio: 1 });

  await nav.getByRole('button', { name: 'Service & support' }).click();
  const service = nav.getByRole('link', { name: 'Komax Service 360: field service' });
  await expect(service).toBeVisible();
  await expect(service).toHaveClass(/nav-marketing--light-blue/);
  await expect(section).toBeHidden();
});
