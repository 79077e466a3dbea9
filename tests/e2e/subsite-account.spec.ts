import { test, expect, ORIGIN, PORT } from './fixtures/index.ts';
import { DEMO_PASSWORD, DEMO_USERS, ISSUER, storedTokens, submitLogin } from './fixtures/identity.ts';
import type { Page } from '@playwright/test';

// Issue 29 item 1: the user menu of a site with its own host leads to the main site's customer
// area, and the sign-in, callback and logout round trip returns to the site it started on.

const EVENTS = `http://events.localhost:${PORT}`;
const PARTNER = `http://partner.localhost:${PORT}`;

const userMenu = (page: Page) => page.locator('[data-user-menu]').first();

/** Every document the page's own window loaded, with its status (redirects included). */
function documentStatuses(page: Page): { url: string; status: number }[] {
  const seen: { url: string; status: number }[] = [];
  page.on('response', (r) => {
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) seen.push({ url: r.url(), status: r.status() });
  });
  return seen;
}

const failed = (seen: { url: string; status: number }[]) => seen.filter((s) => s.status >= 400);

test('from the events site: Log in → sign in → the dashboard → Log out returns to the events site; no 404 on the way', async ({ page, request }) => {
  const seen = documentStatuses(page);
  await page.goto(`${EVENTS}/en`);
  const menu = userMenu(page);
  await menu.locator('summary').click();

  // Every entry leads to the main site's customer area, naming this page as the way back; each answers.
  const back = `return=${encodeURIComponent(`${EVENTS}/en`)}`;
  const hrefs = await menu.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  expect(hrefs).toEqual([
    `${ORIGIN}/en/mykomax?${back}`,
    `${ORIGIN}/api/mykomax/register?locale=en&${back}`,
    `${ORIGIN}/en/mykomax?${back}`,
    `${ORIGIN}/en/mykomax/tickets/list?${back}`,
    `${ORIGIN}/en/mykomax/account?${back}`,
    `${ORIGIN}/en/mykomax?${back}#direct`,
    `${ORIGIN}/en/mykomax/logout?${back}`,
  ]);
  for (const href of hrefs.filter((h) => !h.includes('/api/'))) {
    expect((await request.get(href, { maxRedirects: 0 })).status(), href).toBe(200);
  }

  await menu.getByRole('link', { name: 'Log in' }).click();
  await submitLogin(page, DEMO_USERS.customer);
  await page.waitForURL(`${ORIGIN}/en/mykomax`);
  await expect(page.getByRole('heading', { name: 'myKomax', level: 1 })).toBeVisible();
  await expect(page.locator('[data-customer-area-content]')).toBeVisible();
  const { accessToken } = (await storedTokens(page))!;

  const mainMenu = userMenu(page);
  await mainMenu.locator('summary').click();
  await mainMenu.getByRole('link', { name: 'Log out' }).click();
  await page.waitForURL((url) => url.origin === EVENTS && url.pathname === '/en');
  await expect(page).toHaveTitle(/\| Komax Events North America$/);
  // Signed out for real: the provider no longer accepts the token.
  expect((await request.get(`${ISSUER}/userinfo`, { headers: { Authorization: `Bearer ${accessToken}` } })).status()).toBe(401);
  expect(failed(seen)).toEqual([]);
});

test('from the partner site: Register → create the account → sign in → the dashboard → Log out returns to the partner site', async ({ page }) => {
  const seen = documentStatuses(page);
  await page.goto(`${PARTNER}/en`);
  const menu = userMenu(page);
  await menu.locator('summary').click();
  await menu.getByRole('link', { name: 'Register' }).click();

  await page.waitForURL((url) => url.pathname === '/am/XUI/');
  const email = 'partner.newcomer@example.test';
  await page.getByLabel('First name').fill('Nora');
  await page.getByLabel('Last name').fill('Newcomer');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();

  // The provider sends the new user to the main site's customer area, which asks them to sign in.
  await page.waitForURL(/\/interaction\//);
  await submitLogin(page, email);
  await page.waitForURL(`${ORIGIN}/en/mykomax`);
  await expect(page.getByRole('heading', { name: 'myKomax', level: 1 })).toBeVisible();

  const mainMenu = userMenu(page);
  await mainMenu.locator('summary').click();
  await mainMenu.getByRole('link', { name: 'Log out' }).click();
  await page.waitForURL((url) => url.origin === PARTNER && url.pathname === '/en');
  await expect(page).toHaveTitle(/\| WirePro Partner Network$/);
  expect(failed(seen)).toEqual([]);
});

test('a return address on a foreign host is ignored (no open redirect): logout still returns to the configured site the visitor came from', async ({ page }) => {
  await page.goto(`/en/mykomax?return=${encodeURIComponent(`${EVENTS}/en/agenda`)}`);
  await submitLogin(page, DEMO_USERS.onprem);
  // The return address is remembered and dropped from the address bar.
  await page.waitForURL(`${ORIGIN}/en/mykomax`);
  await expect(page.locator('[data-customer-area-content]')).toBeVisible();

  const endSession: URL[] = [];
  const endSessionPath = new URL(`${ISSUER}/connect/endSession`).pathname;
  page.on('request', (r) => { if (new URL(r.url()).pathname === endSessionPath) endSession.push(new URL(r.url())); });
  const seen = documentStatuses(page);
  await page.goto(`/en/mykomax/logout?return=${encodeURIComponent('https://evil.example/phish')}`);
  await page.waitForURL((url) => url.origin === EVENTS && url.pathname === '/en');
  expect(endSession.map((u) => u.searchParams.get('post_logout_redirect_uri'))).toEqual([`${EVENTS}/`]);
  expect(seen.filter((s) => !s.url.startsWith(ORIGIN) && !s.url.startsWith(EVENTS) && !s.url.startsWith(ISSUER))).toEqual([]);
  expect(failed(seen)).toEqual([]);
});
