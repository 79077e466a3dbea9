import { createHash } from 'node:crypto';
import { test, expect, raw } from './fixtures/index.ts';

// Issue 9 (CSS and Lighthouse findings): styles inlined with their CSP hashes, meta descriptions,
// descriptive news links, no sideways scroll on the comparison page.

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

test.describe('first round trip', () => {
  // Besides the three budget pages: a page in another theme (its theme rule is inlined) and the other catalogue views (their own styles are inlined).
  for (const path of ['/en', '/en/about-us', '/en/products/wire-processing/cut-strip/kappa-310', '/en/brand-portal', '/en/products/wire-processing', '/en/services/maintenance-repair/preventive-maintenance/machine-calibration']) {
    test(`${path} needs no stylesheet request, and its inline styles are allowed by the CSP header and meta policy`, async () => {
      const res = await raw(path);
      expect(res.status).toBe(200);
      const html = res.text;
      // No stylesheet in the head (render-blocking); the sheets of closed dialogs come at the end of the body.
      expect(html.slice(0, html.indexOf('</head>'))).not.toMatch(/<link[^>]+rel="stylesheet"/);
      const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
      expect(styles.length).toBeGreaterThan(0);
      const header = String(res.headers['content-security-policy'] ?? '');
      const meta = /<meta http-equiv="content-security-policy" content="([^"]*)"/i.exec(html)?.[1] ?? '';
      for (const policy of [header, meta]) {
        const styleSrc = /style-src([^;]*)/.exec(policy)?.[1] ?? '';
        expect(styleSrc).not.toContain('unsafe-inline');
        for (const s of styles) expect(styleSrc).toContain(sha256(s));
      }
    });
  }
});

test.describe('styles outside the first round trip', () => {
  test('the footer and closed menus, the news panel, the contact panel and the comparison drawer get their styles from sheets linked at the end of the page', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/en/products/wire-processing/cut-strip/kappa-310');
    const sheets = await page.locator('body link[rel="stylesheet"]').evaluateAll((links) => links.map((l) => new URL((l as HTMLLinkElement).href).pathname));
    expect(sheets.sort()).toEqual([
      expect.stringMatching(/^\/_astro\/basket-drawer\.[\w-]+\.css$/), expect.stringMatching(/^\/_astro\/chrome-deferred\.[\w-]+\.css$/),
      expect.stringMatching(/^\/_astro\/contact-panel\.[\w-]+\.css$/), expect.stringMatching(/^\/_astro\/news-feed-panel\.[\w-]+\.css$/),
      expect.stringMatching(/^\/_astro\/product-sections\.[\w-]+\.css$/),
    ]);
    // The product sections' sheet closes the hero: the hero (the page's largest paint) never waits for it.
    expect(await page.evaluate(() => document.querySelector('link[href*="product-sections"]')?.parentElement?.className)).toBe('product-hero');
    // …and it styles them (a table's own default is border-collapse: separate).
    await expect(page.locator('#technical-data').getByRole('table').first()).toHaveCSS('border-collapse', 'collapse');
    // The chrome sheet comes right before the footer (what is above renders without it), and it styles the footer.
    expect(await page.evaluate(() => document.querySelector('link[href*="chrome-deferred"]')?.nextElementSibling?.tagName)).toBe('FOOTER');
    await expect(page.getByRole('contentinfo')).toHaveCSS('background-color', 'rgb(7, 43, 70)');
    // Opened, each sits at the right edge at full height (the browser's own dialog style would centre it).
    await page.getByRole('button', { name: /^News/ }).first().click();
    const panel = page.getByRole('dialog', { name: 'News' });
    await expect(panel).toBeVisible();
    expect(await panel.boundingBox()).toMatchObject({ x: 1280 - 460, y: 0, width: 460, height: 800 });
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add to comparison' }).click();
    await page.getByRole('button', { name: 'Compare (1)' }).click();
    const drawer = page.getByRole('dialog', { name: 'Comparison', exact: true });
    // The drawer may still be hydrating when the button is clicked (it then opens the
    // server-rendered dialog); it asks the comparison API for the product's name and link.
    await expect(drawer.getByRole('link', { name: 'Kappa 310' })).toBeVisible();
    expect(await drawer.boundingBox()).toMatchObject({ x: 1280 - 440, y: 0, width: 440, height: 800 });
  });
});

test.describe('feature styles only where the feature is', () => {
  // The investor modules, the locations directory, the form module and the protected pages' gate
  // link their own sheet where they start (once per page); other pages carry none of their styles.
  const SHEETS = { investors: /\/_astro\/investors\.[\w-]+\.css/, locations: /\/_astro\/locations\.[\w-]+\.css/, forms: /\/_astro\/forms\.[\w-]+\.css/, protected: /\/_astro\/protected-pages\.[\w-]+\.css/ };
  const SELECTORS = ['.ir-', '.ir{', '.ir ', '.locations', '.location__', '.kform', '.form-module', '.protected-gate'];
  const inlineCss = (html: string) => [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]!).join('\n');
  const linkedSheets = (html: string) => [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])?.[1] ?? '');

  test('/en/about-us carries none of their styles, neither inline nor linked', async () => {
    const res = await raw('/en/about-us');
    expect(res.status).toBe(200);
    const css = inlineCss(res.text);
    for (const selector of SELECTORS) expect(css, selector).not.toContain(selector);
    const links = linkedSheets(res.text);
    for (const sheet of Object.values(SHEETS)) expect(links.filter((href) => sheet.test(href))).toEqual([]);
  });

  // [page, feature, where the feature's section starts, its first styled content]
  for (const [path, feature, section, content] of [
    ['/en/investors', 'investors', 'class="section ir ', 'class="ir-'],
    ['/de/investors', 'investors', 'class="section ir ', 'class="ir-'],
    ['/en/locations', 'locations', 'class="section locations"', 'class="locations__'],
    ['/en/service-support', 'forms', 'class="section form-module"', 'class="kform'],
    ['/en/productronica/internal', 'protected', '<main', 'class="container protected-gate"'],
  ] as const) {
    test(`${path} links the ${feature} sheet once, in the body where the ${feature} markup starts, and inlines none of it`, async () => {
      const res = await raw(path);
      expect(res.status).toBeLessThan(500);
      const html = res.text;
      expect(html.slice(0, html.indexOf('</head>'))).not.toMatch(/<link[^>]+rel="stylesheet"/);
      const links = linkedSheets(html).filter((href) => SHEETS[feature].test(href));
      expect(links).toHaveLength(1);
      const at = html.indexOf(`href="${links[0]}"`);
      expect(html.indexOf(section)).toBeGreaterThan(html.indexOf('</head>'));
      expect(at).toBeGreaterThan(html.indexOf(section));
      expect(at).toBeLessThan(html.indexOf(content));
      const css = inlineCss(html);
      for (const selector of SELECTORS) expect(css, selector).not.toContain(selector);
      const sheet = await raw(links[0]!);
      expect(sheet.status).toBe(200);
      expect(String(sheet.headers['content-type'])).toContain('text/css');
      // Same origin: allowed by the page's style-src 'self'.
      const styleSrc = /style-src([^;]*)/.exec(String(res.headers['content-security-policy'] ?? ''))?.[1] ?? '';
      expect(styleSrc).toContain("'self'");
    });
  }
});

test.describe('Lighthouse findings', () => {
  for (const path of ['/en/comparison', '/en/search?q=crimp', '/style-guide']) {
    test(`${path} has a meta description`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /\w{3,}.*\w{3,}/);
    });
  }

  test('on /ja the navigation titles, which fall back to English, say so (lang="en"); translated titles on /de and /en do not', async ({ page }) => {
    await page.goto('/ja');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    // The content hub has no Japanese: every navigation title on /ja is its English fallback.
    const nav = page.getByRole('navigation', { name: 'メインナビゲーション' });
    const solutions = nav.getByRole('button', { name: 'Solutions' });
    await expect(solutions.locator('[lang]')).toHaveAttribute('lang', 'en');
    await solutions.click();
    await expect(nav.getByRole('link', { name: 'Wire processing' }).locator('[lang]')).toHaveAttribute('lang', 'en');
    const footer = page.getByRole('navigation', { name: 'フッターナビゲーション' });
    await expect(footer.getByRole('heading', { level: 2 }).first()).toHaveAttribute('lang', 'en');
    await expect(footer.getByRole('link').first().locator('[lang]')).toHaveAttribute('lang', 'en');
    // Country names without a Japanese localization in the language menu.
    await expect(page.locator('.locale-menu__country', { hasText: 'Czech Republic' })).toHaveAttribute('lang', 'en');
    // Story teasers, media releases and the catalogue answer in English on /ja as well.
    await page.goto('/ja/stories');
    await expect(page.getByRole('main').getByRole('article').first().getByRole('heading')).toHaveAttribute('lang', 'en');
    await page.goto('/ja/media-releases');
    await expect(page.getByRole('main').getByRole('heading', { level: 2 }).filter({ has: page.getByRole('link') }).first()).toHaveAttribute('lang', 'en');
    await page.goto('/ja/products/wire-processing');
    await expect(page.getByRole('heading', { level: 1, name: 'Wire processing' })).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('navigation', { name: 'パンくずリスト' }).getByText('Wire processing')).toHaveAttribute('lang', 'en');
    for (const [path, name] of [['/de', 'Hauptnavigation'], ['/en', 'Main navigation']] as const) {
      await page.goto(path);
      const main = page.getByRole('navigation', { name });
      await expect(main.getByRole('button').first()).toBeVisible();
      await expect(main.locator('[lang]')).toHaveCount(0);
    }
  });

  test('the news feed links name their news item', async ({ page }) => {
    await page.goto('/en/media-releases');
    await page.getByRole('button', { name: /^News/ }).first().click();
    const dialog = page.getByRole('dialog', { name: 'News' });
    await expect(dialog.getByRole('listitem')).toHaveCount(10);
    const names = await dialog.getByRole('link').evaluateAll((links) => links.map((a) => a.textContent?.trim() ?? ''));
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((n) => n === 'Read more')).toEqual([]);
  });

  test('the comparison table keeps its hidden texts inside its scroll box at 390 px', async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto('/en/comparison?basket=cut-strip:kappa-310,kappa-320;crimping:alpha-550');
    const table = page.getByRole('table', { name: /Cut & strip machines/ });
    await expect(table.getByRole('link', { name: 'Kappa 320' })).toBeVisible();
    // Every absolutely positioned descendant of the table is laid out (and clipped) by the scroll box
    // around the table, so none of them can widen the page.
    const escaping = await table.evaluate((t) => {
      const scroller = t.parentElement!;
      return [...t.querySelectorAll<HTMLElement>('*')]
        .filter((e) => getComputedStyle(e).position === 'absolute' && !(e.offsetParent && scroller.contains(e.offsetParent)))
        .map((e) => e.textContent);
    });
    expect(escaping).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await context.close();
  });
});
