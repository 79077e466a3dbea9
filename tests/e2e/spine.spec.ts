import { test, expect, expectNoAxeViolations, raw, DATA, PORT, ORIGIN } from './fixtures/index.ts';

test.describe('sites and locales', () => {
  test('the main site home in English, German and Swiss French', async ({ page, consoleErrors }) => {
    await page.goto('/en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();

    await page.goto('/de');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible();

    await page.goto('/fr-ch');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr-CH');
    await expect(page.getByText('Suisse · FR')).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('the events site answers in Spanish on its own host and has no German', async ({ page }) => {
    await page.goto(`http://events.localhost:${PORT}/es`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.locator('html')).toHaveClass(/theme-light-blue/);
    const res = await page.goto(`http://events.localhost:${PORT}/de`);
    expect(res?.status()).toBe(404);
    // The visitor came from /es, so the 404 speaks Spanish.
    await expect(page.getByText('Página no encontrada: /de')).toBeVisible();
  });

  test('the brand portal has its own navigation and theme', async ({ page }) => {
    await page.goto('/en/brand-portal');
    await expect(page.locator('html')).toHaveClass(/theme-copper/);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Logos' })).toBeVisible();
    await expect(nav.getByRole('button', { name: /About us/ })).toHaveCount(0);
    await page.goto('/de/brand-portal');
    await expect(page.getByText('Page not found')).toBeVisible();
  });

  test('a main-site-only page is a 404 on other sites', async ({ page }) => {
    expect((await page.goto(`/en${DATA.mainSiteOnlyPath}`))?.status()).toBe(200);
    expect((await page.goto(`/en/brand-portal${DATA.mainSiteOnlyPath}`))?.status()).toBe(404);
  });
});

test.describe('redirects and errors', () => {
  test('trailing slash → 301 to the clean URL', async () => {
    const res = await raw(`/en${DATA.aboutUs}/`);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(`/en${DATA.aboutUs}`);
  });

  test('a differently written locale → 302 to the lowercase locale', async () => {
    const de = await raw(`/DE${DATA.aboutUs}`);
    expect(de.status).toBe(302);
    expect(de.headers.location).toBe(`/de${DATA.aboutUs}`);
    const ch = await raw(`/de-CH${DATA.aboutUs}`);
    expect(ch.status).toBe(302);
    expect(ch.headers.location).toBe(`/de-ch${DATA.aboutUs}`);
  });

  test('system redirects → 301, the longest previousUrl wins', async () => {
    const a = await raw('/en/company');
    expect([a.status, a.headers.location]).toEqual([301, '/en/about-us']);
    const b = await raw('/en/solutions-old/testing');
    expect([b.status, b.headers.location]).toEqual([301, '/en/solutions/testing-quality-assurance']);
    const q = await raw('/en/news?year=2024');
    expect([q.status, q.headers.location]).toEqual([301, '/en/events']);
  });

  test('a page id with ?direct=true → 302 to the page, direct flag removed', async () => {
    const res = await raw(`/en/${DATA.englishOnlyPage.id}?direct=true&utm=x`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/en${DATA.englishOnlyPage.path}?utm=x`);
  });

  test('?direct on the id of a story, a media release or a story contact → 302 to it, whichever path carried the id (issue 29 item 8)', async () => {
    for (const [path, location] of [
      ['/en/c0gxt6zphx7muyzx2jgb1k8tf?direct=true', '/en/stories/carpatia-doubles-crimping-output'],
      ['/de/stories/c0gxt6zphx7muyzx2jgb1k8tf?direct=true', '/de/stories/carpatia-doubles-crimping-output'],
      ['/en/media-releases/c1xrdka1mslyaz2zpt9zebg3e?direct=true', '/en/media-releases/annual-results-2025'],
      ['/en/cw5up5iphlrslb0s9titcibhp?direct=true', '/en/stories/contacts/nadine-steiner'],
    ]) {
      const res = await raw(path!);
      expect([res.status, res.headers.location], path).toEqual([302, location]);
      expect((await raw(location!)).status, location).toBe(200);
    }
  });

  test('catalogue URLs: smart-factory by its slug, and a path ending /products or /services leads to the catalogue (issue 29 item 9)', async () => {
    expect((await raw('/en/smart-factory')).status).toBe(200);
    expect((await raw('/en/smart-factory/software/production-software/quadrel-mes')).status).toBe(200);
    for (const [path, location, host] of [
      ['/en/products/smart-factory', '/en/smart-factory', 'localhost'],
      ['/en/products/quadrel-mes', '/en/smart-factory/software/production-software/quadrel-mes', 'localhost'],
      ['/en/solutions/products', '/en/products', 'localhost'],
      ['/en/service-support/services', '/en/services', 'localhost'],
      ['/en/brand-portal/products/kappa-310', '/en/products/kappa-310', 'localhost'],
      ['/en/products', `http://localhost:${PORT}/en/products`, 'events.localhost'],
    ]) {
      const res = await raw(path!, { host });
      expect([res.status, res.headers.location], `${host}${path}`).toEqual([302, location]);
    }
  });

  test('an unknown page is a 404 with the path', async ({ page, consoleErrors }) => {
    const res = await page.goto('/en/does-not-exist');
    expect(res?.status()).toBe(404);
    await expect(page.getByText('Page not found: /en/does-not-exist')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByText('404')).toBeVisible();
    void consoleErrors;
  });
});

test.describe('page chrome', () => {
  test('a page only in English opened under /cs shows the language banner', async ({ page, consoleErrors }) => {
    await page.goto(`/cs${DATA.englishOnlyPage.path}`);
    const banner = page.getByRole('complementary', { name: /./ }).filter({ has: page.getByRole('link', { name: 'English' }) });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('link', { name: 'English' })).toHaveAttribute('href', `/en${DATA.englishOnlyPage.path}`);
    await page.goto(`/en${DATA.englishOnlyPage.path}`);
    await expect(page.getByRole('link', { name: 'English' })).toHaveCount(0);
    void consoleErrors;
  });

  test('hreflang alternates and a canonical link on every page', async ({ page }) => {
    await page.goto(`/de${DATA.history}`);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${ORIGIN}/de${DATA.history}`);
    await expect(page.locator('link[rel="alternate"][hreflang="fr-CH"]')).toHaveAttribute('href', `${ORIGIN}/fr-ch${DATA.history}`);
    await expect(page.locator('link[rel="alternate"][hreflang="x-default"]')).toHaveAttribute('href', `${ORIGIN}/en${DATA.history}`);
  });

  test('breadcrumbs lead home, the current page is not a link', async ({ page }) => {
    await page.goto(`/en${DATA.history}`);
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/en');
    await expect(crumbs.getByRole('link', { name: 'About us' })).toBeVisible();
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText('History');
  });

  // The prerender renders the header's navigation bar once per page it marks as current and once
  // for all other pages (the chrome memo): each page must get its own.
  test('the main navigation marks the page it links to, and only that one', async ({ page }) => {
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const link = (name: string) => nav.getByRole('link', { name, exact: true, includeHidden: true });
    const aboutUs = nav.getByRole('button', { name: 'About us' });

    await page.goto(`/en${DATA.history}`);
    await expect(link('History')).toHaveAttribute('aria-current', 'page');
    await expect(aboutUs).toHaveClass(/is-current/);
    await expect(nav.locator('[aria-current]')).toHaveCount(1);

    await page.goto('/en/industries');
    await expect(link('Industries overview')).toHaveAttribute('aria-current', 'page');
    await expect(link('History')).not.toHaveAttribute('aria-current');
    await expect(aboutUs).not.toHaveClass(/is-current/);
    await expect(nav.locator('[aria-current]')).toHaveCount(1);

    // A page the navigation does not link to marks nothing.
    await page.goto('/en/stories');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(nav.locator('[aria-current], .is-current')).toHaveCount(0);

    // The same in German: the bar of each locale is its own.
    await page.goto(`/de${DATA.history}`);
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).locator('[aria-current="page"]')).toHaveCount(1);
  });

  test('submenus open with the keyboard and close with Escape', async ({ page, consoleErrors }) => {
    await page.goto('/en');
    const trigger = page.getByRole('button', { name: 'About us' });
    await trigger.focus();
    await page.keyboard.press('Enter');
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('link', { name: 'History' }).first()).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    void consoleErrors;
  });

  test('the phone menu toggles the navigation', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/en');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(nav).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
  });

  test('the news action opens the news panel', async ({ page, consoleErrors }) => {
    await page.goto('/en');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'News' }).click();
    const dialog = page.getByRole('dialog', { name: 'News' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Close the news feed' }).click();
    await expect(dialog).toBeHidden();
    void consoleErrors;
  });

  test('navigation items are filtered by country', async ({ page }) => {
    await page.goto('/en-us');
    // The aerospace item is offered in the US and Canada only (it sits in a closed submenu).
    await expect(page.getByRole('link', { name: /Aerospace/, includeHidden: true }).first()).toBeAttached();
    await page.goto('/de-ch');
    await expect(page.getByRole('link', { name: /Luft- und Raumfahrt|Aerospace/, includeHidden: true })).toHaveCount(0);
    await page.goto('/de');
    await expect(page.getByRole('link', { name: /Luft- und Raumfahrt|Aerospace/, includeHidden: true }).first()).toBeAttached();
  });

  test('the language menu switches locale and keeps the page', async ({ page }) => {
    await page.goto(`/en${DATA.aboutUs}`);
    await page.getByText('International · EN').click();
    await page.getByRole('link', { name: 'Deutsch' }).first().click();
    await expect(page).toHaveURL(new RegExp(`/de${DATA.aboutUs}$`));
  });
});

test.describe('platform behaviour', () => {
  test('page-view event, locale cookie and testing mode', async ({ page, context }) => {
    await page.goto('/fr-ch?testing=true');
    const events = await page.evaluate(() => (window as unknown as { dataLayer: { event: string; page_path: string }[] }).dataLayer);
    expect(events).toContainEqual(expect.objectContaining({ event: 'page_view', page_path: '/fr-ch' }));
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'locale')?.value).toBe('fr-ch');
    expect(cookies.find((c) => c.name === 'testing')?.value).toBe('true');
    // The remembered locale is where the root leads.
    await page.goto('/');
    await expect(page).toHaveURL(/\/fr-ch$/);
  });

  test('consent and monitoring scripts load on pages, not in testing mode or technical areas', async ({ page }) => {
    const loaded = () => page.evaluate(() => (window as unknown as { __thirdParty?: string[] }).__thirdParty ?? []);
    await page.goto('/en');
    await expect.poll(loaded).toEqual(expect.arrayContaining(['consent', 'monitoring']));
    await page.goto('/style-guide');
    await expect(page.locator('script[src*="/assets/scripts/"]')).toHaveCount(0);
    await page.goto('/en?testing=true');
    await expect(page.locator('script[src*="/assets/scripts/"]')).toHaveCount(0);
    // Remembered: the next page without the flag stays in testing mode.
    await page.goto('/de');
    await expect(page.locator('script[src*="/assets/scripts/"]')).toHaveCount(0);
    expect(await loaded()).toEqual([]);
  });

  test('nextRelease: any value sets the cookie, false clears it', async ({ page, context }) => {
    await page.goto('/en?nextRelease=true');
    expect((await context.cookies()).some((c) => c.name === 'nextRelease')).toBe(true);
    await page.goto('/en?nextRelease=false');
    expect((await context.cookies()).some((c) => c.name === 'nextRelease')).toBe(false);
  });

  test('security headers on every response', async () => {
    for (const path of ['/en', '/en/does-not-exist', '/favicon.svg']) {
      const res = await raw(path);
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBeTruthy();
    }
    const html = await raw('/en');
    expect(String(html.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect(String(html.headers['content-security-policy'])).toContain('script-src');
  });
});

test.describe('accessibility', () => {
  for (const path of ['/en', `/en${DATA.aboutUs}`, '/en/does-not-exist']) {
    test(`axe finds no violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expectNoAxeViolations(page);
    });
  }
});
