import { test, expect, expectNoAxeViolations, raw, ORIGIN } from './fixtures/index.ts';
import { browserStorage, DEMO_USERS, IDENTITY_ORIGIN, ISSUER, signIn, storedTokens, submitLogin } from './fixtures/identity.ts';
import type { Page } from '@playwright/test';

// Issue 10, sign-in: the customer area against the identity emulator (spec customer-area §2–§4, §7–§9).

/** Navigations of the page's own window (not of the hidden sign-in frame). */
function mainNavigations(page: Page): string[] {
  const urls: string[] = [];
  page.on('framenavigated', (frame) => { if (frame === page.mainFrame()) urls.push(frame.url()); });
  return urls;
}

const userMenu = (page: Page) => page.locator('[data-user-menu]').first();

test.describe('signing in', () => {
  test('Log in in the /en user menu leads to the provider\'s login page, then to /en/mykomax; the menu shows the initials and the signed-in entries', async ({ page }) => {
    await page.goto('/en');
    const menu = userMenu(page);
    await menu.locator('summary').click();
    await expect(menu.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/api/mykomax/register?locale=en');
    await menu.getByRole('link', { name: 'Log in' }).click();
    await submitLogin(page, DEMO_USERS.customer);
    await page.waitForURL('**/en/mykomax');
    await expect(page.getByRole('heading', { name: 'myKomax', level: 1 })).toBeVisible();
    await expect(page.getByText('Signing you in…')).toBeHidden();

    await page.goto('/en/about-us');
    await expect(menu.locator('summary')).toContainText('CC');
    await expect(menu.locator('summary')).toContainText('Signed in as Claire Customer');
    await menu.locator('summary').click();
    const entries: [string, string][] = [['Dashboard', '/en/mykomax'], ['Service tickets', '/en/mykomax/tickets/list'], ['Account settings', '/en/mykomax/account'], ['Direct', '/en/mykomax#direct'], ['Log out', '/en/mykomax/logout']];
    for (const [name, href] of entries) {
      await expect(menu.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(menu.getByRole('link', { name: 'Log in' })).toBeHidden();
    // Public pages load neither React nor the sign-in library.
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.js')));
    expect(scripts.join('\n')).not.toMatch(/oidc-client|react-dom|client\.[\w-]+\.js/);
  });

  test('after signing in neither localStorage nor sessionStorage holds a refresh token (renewal uses the hidden frame)', async ({ page }) => {
    await signIn(page, DEMO_USERS.customer);
    const storage = await browserStorage(page);
    expect(storage['localStorage:kmx.identity.tokens']).toContain('accessToken');
    for (const [key, value] of Object.entries(storage)) expect(`${key}=${value}`).not.toMatch(/refresh/i);
  });

  test('a reload of /en/mykomax reuses the stored token: no request reaches the provider', async ({ page }) => {
    await signIn(page, DEMO_USERS.onprem);
    const before = await storedTokens(page);
    const toProvider: string[] = [];
    page.on('request', (r) => { if (r.url().startsWith(IDENTITY_ORIGIN)) toProvider.push(r.url()); });
    await page.reload();
    await expect(page.locator('[data-customer-area-content]')).toBeVisible();
    expect(toProvider).toEqual([]);
    expect((await storedTokens(page))!.accessToken).toBe(before!.accessToken);
  });

  test('a token within 180 s of expiry is revoked and renewed in a hidden frame, without the login page', async ({ page, request }) => {
    await signIn(page, DEMO_USERS.noroles);
    const old = (await storedTokens(page))!;
    await page.evaluate((t) => localStorage.setItem('kmx.identity.tokens', JSON.stringify({ ...t, tokenExpiry: Date.now() + 100_000 })), old);
    const navigations = mainNavigations(page);
    await page.reload();
    await expect(page.locator('[data-customer-area-content]')).toBeVisible();
    const renewed = (await storedTokens(page))!;
    expect(renewed.accessToken).not.toBe(old.accessToken);
    expect(renewed.tokenExpiry - Date.now()).toBeGreaterThan(180_000);
    expect(navigations.every((u) => u.startsWith(ORIGIN))).toBe(true);
    // The old token was revoked before the renewal.
    expect((await request.get(`${ISSUER}/userinfo`, { headers: { Authorization: `Bearer ${old.accessToken}` } })).status()).toBe(401);
  });

  test('while the dashboard stays open the token is renewed silently before it expires', async ({ page }) => {
    await page.clock.install();
    await signIn(page, DEMO_USERS.admin);
    const old = (await storedTokens(page))!;
    const navigations = mainNavigations(page);
    // The renewal runs 180 s before expiry (3600 s tokens: after 57 min).
    await page.clock.fastForward('57:01');
    await expect.poll(async () => (await storedTokens(page))?.accessToken).not.toBe(old.accessToken);
    expect(navigations).toEqual([]);
    await expect(page.locator('[data-customer-area-content]')).toBeVisible();
  });
});

test.describe('logout', () => {
  test('revokes the token (the provider\'s userinfo answers 401), ends the session, returns home; /en/mykomax then signs in again', async ({ page, request }) => {
    await signIn(page, DEMO_USERS.expired);
    const { accessToken } = (await storedTokens(page))!;
    expect((await request.get(`${ISSUER}/userinfo`, { headers: { Authorization: `Bearer ${accessToken}` } })).status()).toBe(200);
    const menu = userMenu(page);
    await menu.locator('summary').click();
    await menu.getByRole('link', { name: 'Log out' }).click();
    await page.waitForURL(/\/en$/);
    expect(await storedTokens(page)).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('kmx.signedIn'))).toBeNull();
    await expect(menu.locator('summary')).not.toContainText('Signed in as');
    expect((await request.get(`${ISSUER}/userinfo`, { headers: { Authorization: `Bearer ${accessToken}` } })).status()).toBe(401);

    await page.goto('/en/mykomax');
    await page.waitForURL((url) => url.origin === IDENTITY_ORIGIN);
    await expect(page.locator('#password')).toBeVisible();
  });
});

test.describe('logout and our APIs (issue 28)', () => {
  test('after logout the old access token gets 401 from our APIs: a write at once, a read within 30 s', async ({ page, request }) => {
    await signIn(page, DEMO_USERS.onprem);
    const { accessToken } = (await storedTokens(page))!;
    const bearer = { Authorization: `Bearer ${accessToken}`, Origin: ORIGIN };
    const session = () => request.get('/api/mykomax/session', { headers: bearer });
    // A write the server refuses for its body (422) once the token passed: nothing changes.
    const write = () => request.patch('/api/account/profile', { headers: bearer, data: { firstName: '', lastName: '' } });
    expect((await session()).status()).toBe(200);
    expect((await write()).status()).toBe(422);

    const menu = userMenu(page);
    await menu.locator('summary').click();
    await menu.getByRole('link', { name: 'Log out' }).click();
    await page.waitForURL(/\/en$/);

    const refused = await write();
    expect(refused.status()).toBe(401);
    expect(refused.headers()['www-authenticate']).toBe('Bearer error="invalid_token"');
    // A read is refused too: at the latest once the provider's earlier answer is 30 s old (IDENTITY_INTROSPECTION_CACHE_SECONDS), here at once (the write's answer is shared).
    await expect.poll(async () => (await session()).status(), { timeout: 31_000, intervals: [1000] }).toBe(401);
  });
});

test.describe('the callback', () => {
  test("without parameters it shows 'missing params' and, after the wait, the error page; it passes axe", async ({ page }) => {
    await page.clock.install();
    await page.goto('/en/callback');
    await expect(page.getByRole('heading', { name: 'Sorry, something went wrong' })).toBeVisible();
    await expect(page.locator('[data-sign-in-failure-detail]')).toHaveText('missing params');
    await expect(page.getByText(/You will be taken to the error page in \d+ seconds\./)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.clock.fastForward('00:31');
    await page.waitForURL('**/en/error');
    await expect(page.getByRole('heading', { name: 'Sorry, something went wrong' })).toBeVisible();
  });

  test("with the provider's error it adds error and error_description", async ({ page }) => {
    await page.goto('/en/callback?state=x&error=access_denied&error_description=Cancelled');
    await expect(page.locator('[data-sign-in-failure-detail]')).toHaveText('missing params (error: access_denied, error_description: Cancelled)');
  });

  test("with a forged state it shows 'State mismatch'", async ({ page }) => {
    // A sign-in in progress (its parameters saved), then a callback with another state.
    await page.goto('/en/mykomax');
    await page.waitForURL((url) => url.origin === IDENTITY_ORIGIN);
    await page.goto('/en/callback?code=forged-code&state=forged-state');
    await expect(page.locator('[data-sign-in-failure-detail]')).toHaveText('State mismatch');
  });
});

test.describe('server-side enforcement', () => {
  test('GET /api/mykomax/session: 401 with WWW-Authenticate without a token or with a bad one, 200 with the signed-in token', async ({ page, request }) => {
    for (const headers of [{}, { Authorization: 'Bearer not-a-token' }] as Record<string, string>[]) {
      const res = await request.get('/api/mykomax/session', { headers });
      expect(res.status()).toBe(401);
      expect(res.headers()['www-authenticate']).toMatch(/^Bearer/);
      expect(res.headers()['cache-control']).toBe('no-store');
      expect(await res.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
    }
    await signIn(page, DEMO_USERS.customer);
    const { accessToken } = (await storedTokens(page))!;
    const res = await request.get('/api/mykomax/session', { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toBe('no-store');
    expect(await res.json()).toEqual({ sub: expect.any(String), scope: expect.arrayContaining(['openid', 'fr:idm:*']) });
  });

  test('an ID token is no access token: our API refuses it (401) while the access token of the same sign-in passes', async ({ page, request }) => {
    await signIn(page, DEMO_USERS.noroles);
    const { accessToken, idToken } = (await storedTokens(page))!;
    expect(idToken).toBeTruthy();
    expect((await request.get('/api/mykomax/session', { headers: { Authorization: `Bearer ${accessToken}` } })).status()).toBe(200);
    const res = await request.get('/api/mykomax/session', { headers: { Authorization: `Bearer ${idToken}` } });
    expect(res.status()).toBe(401);
    expect(res.headers()['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(await res.json()).toEqual({ error: 'unauthorized', message: 'The bearer token is not an access token' });
  });

  test('GET /en/mykomax without a session: on demand, no-store, no personal data; the provider is allowed only on sign-in pages', async () => {
    const res = await raw('/en/mykomax');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-render']).toBe('on-demand');
    expect(res.text).not.toMatch(/@demo\.komax\.test|Claire|Customer Claire|kmx_int_/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(new RegExp(`connect-src[^;]*${IDENTITY_ORIGIN}`));
    expect(csp).toMatch(new RegExp(`frame-src[^;]*${IDENTITY_ORIGIN}`));
    const home = await raw('/en');
    expect(String(home.headers['content-security-policy'])).not.toContain(IDENTITY_ORIGIN);
  });

  test('the customer area and the callback live on the main site and its locales only: elsewhere the site\'s 404 page, never stored', async ({ page }) => {
    const title = (html: string) => html.match(/<title>([^<]*)<\/title>/)?.[1];
    const sites = [
      { host: 'events.localhost', prefix: '/en' },
      { host: 'localhost', prefix: '/en/brand-portal' },
      // A locale the main site does not have.
      { host: 'localhost', prefix: '/xx' },
    ];
    for (const { host, prefix } of sites) {
      const notFound = await raw(`${prefix}/no-such-page`, { host });
      expect(notFound.status).toBe(404);
      for (const path of ['/mykomax', '/mykomax/tickets/list', '/mykomax/account', '/callback']) {
        const res = await raw(`${prefix}${path}`, { host });
        const where = `${host}${prefix}${path}`;
        expect(res.status, where).toBe(404);
        expect(res.headers['cache-control'], where).toBe('no-store');
        expect(title(res.text), where).toBe(title(notFound.text));
        expect(res.text, where).not.toContain('data-customer-area-content');
      }
    }
    // In the browser: the events site's 404 page, naming the address asked for.
    await page.goto(`http://events.localhost:${new URL(ORIGIN).port}/en/mykomax/tickets/list`);
    await expect(page.getByRole('heading', { level: 1, name: 'This page could not be found' })).toBeVisible();
    await expect(page.getByText('Page not found: /en/mykomax/tickets/list')).toBeVisible();
    // The main site keeps its customer area.
    expect((await raw('/en/mykomax')).status).toBe(200);
  });

  test('/en/MyKomax redirects to /en/mykomax', async () => {
    const res = await raw('/en/MyKomax/Account?x=1');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/en/mykomax/account?x=1');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  test('/blank-callback may be framed by our own pages only, and stays blank', async () => {
    const res = await raw('/blank-callback');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    expect(res.text).toContain('<body></body>');
    expect((await raw('/en')).headers['x-frame-options']).toBe('DENY');
  });
});
