import { expect, type Page } from '@playwright/test';
import { expectNoAxeViolations, test } from './fixtures/index.ts';
import { DEMO_USERS, signedIn } from './fixtures/identity.ts';
import { DASHBOARDS, expectDashboard, tile, tiles } from './fixtures/dashboard.ts';
import { expectNoSidewaysScroll, layoutShift, watchLayoutShifts } from './fixtures/layout.ts';

// The expectations of every demo user are in fixtures/dashboard.ts (from the contract's roles table).

test.describe('the dashboard of each demo user', () => {
  // password@, profile@ and delete@ are checked by account.spec.ts before it changes them.
  for (const user of DASHBOARDS.filter((d) => !d.changedByAccountSpec)) {
    test(`${user.email}: ${user.statuses.join(', ')}`, async ({ page }) => {
      await signedIn(page, user.email);
      await expectDashboard(page, user);
    });
  }
});

test('tile targets: our routes for active tiles, the cloud service for cloud wire-flow users, the content hub\'s addresses', async ({ page }) => {
  await signedIn(page, 'customer@demo.komax.test');
  await expect(tile(page, 'Service tickets').getByRole('link', { name: 'Open: Service tickets' })).toHaveAttribute('href', '/en/mykomax/tickets/list');
  await expect(tile(page, 'Inventory').getByRole('link', { name: 'Open: Inventory' })).toHaveAttribute('href', '/en/mykomax/inventory');
  await expect(tile(page, 'Wire-flow').getByRole('link', { name: 'Open: Wire-flow', exact: true })).toHaveAttribute('href', '/en/mykomax/wire-flow');
  await expect(tile(page, 'Wire-flow').getByRole('link', { name: 'Open cloud service: Wire-flow' })).toHaveAttribute('href', 'https://wire-flow.demo.komax.test/');
  await expect(tile(page, 'Komax Direct').getByRole('link', { name: 'Open: Komax Direct' })).toHaveAttribute('href', 'https://direct.demo.komax.test/');
  await expect(tile(page, 'User administration').getByRole('link', { name: 'Request access: User administration' })).toHaveAttribute('href', '/en/contact');
});

test('in German: the delegated admin opens user administration; direct registers and returns to the localized dashboard', async ({ page, baseURL }) => {
  await signedIn(page, 'admin@demo.komax.test', 'de');
  await expect(tile(page, 'Benutzerverwaltung', 'Ihre Services').getByRole('link', { name: 'Öffnen: Benutzerverwaltung' })).toHaveAttribute('href', '/de/mykomax/user-admin');
  const register = tile(page, 'Komax Direct', 'Ihre Services').getByRole('link', { name: 'Registrieren: Komax Direct' });
  const href = new URL((await register.getAttribute('href'))!);
  expect(href.searchParams.get('authIndexValue')).toBe('Registration');
  expect(href.searchParams.get('goto')).toBe(`${baseURL}/de/mykomax`);
});

test('the served HTML holds no personal data, is never stored, and the dashboard passes axe', async ({ page, request }) => {
  const res = await request.get('/en/mykomax');
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toContain('no-store');
  const html = await res.text();
  for (const user of DASHBOARDS) expect(html).not.toContain(user.name);
  // Skeleton cards reserve the grid before the session arrives.
  expect(html).toContain('tile--skeleton');

  await signedIn(page, 'customer@demo.komax.test');
  await expect(tiles(page).first().getByRole('heading')).toBeVisible();
  await expectNoAxeViolations(page);
});

// Issue 29 item 16: myKomax as a portal of its own: a navigation of the pages the roles open, and
// the work to do on the dashboard. Item 17: showing the signed-in dashboard moves nothing.
test.describe('the portal frame', () => {
  const portalNav = (page: Page) => page.getByRole('navigation', { name: 'myKomax', exact: true });
  const work = (page: Page) => page.getByRole('region', { name: 'Work to do' });
  /** A figure once its count is there: the link "18 Open tickets". */
  const figure = (page: Page, label: string) => work(page).getByRole('link', { name: new RegExp(`^\\d+ ${label}$`) });
  const valueOf = async (page: Page, label: string) => Number(/^\d+/.exec((await figure(page, label).textContent())!)![0]);

  for (const [email, items] of [
    [DEMO_USERS.customer, ['Dashboard', 'Service tickets', 'Inventory', 'Wire-flow', 'Account settings']],
    [DEMO_USERS.admin, ['Dashboard', 'Service tickets', 'User administration', 'Account settings']],
    [DEMO_USERS.noroles, ['Dashboard', 'Account settings']],
  ] as const) {
    test(`${email}: the portal navigation lists exactly the pages the roles open`, async ({ page }) => {
      await signedIn(page, email);
      await expect(portalNav(page).getByRole('link')).toHaveText([...items]);
      await expect(portalNav(page).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
      await page.goto('/en/mykomax/account');
      await expect(portalNav(page).getByRole('link')).toHaveText([...items]);
      await expect(portalNav(page).getByRole('link', { name: 'Account settings' })).toHaveAttribute('aria-current', 'page');
      await expect(portalNav(page).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', /.*/);
    });
  }

  test('Claire (tickets, inventory): open and waiting tickets and her machines, each leading to its list with the same count; nothing of user administration', async ({ page }) => {
    const adminCalls: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/api/user-admin/')) adminCalls.push(r.url()); });
    await signedIn(page, DEMO_USERS.customer);
    await expect(work(page).getByRole('link')).toHaveCount(3);
    await expect(figure(page, 'Machines')).toBeVisible();
    await expect(work(page).getByRole('link', { name: /^Pending invitations/ })).toHaveCount(0);
    expect(adminCalls).toEqual([]);

    const machines = await valueOf(page, 'Machines');
    await figure(page, 'Machines').click();
    await page.waitForURL('**/en/mykomax/inventory');
    await expect(page.getByRole('status').filter({ hasText: /^\d+ machines$/ })).toHaveText(`${machines} machines`);

    // Other specs add tickets to Claire's organisation: the figure and the list are compared from the same moment on.
    await expect(async () => {
      await page.goto('/en/mykomax');
      const waiting = await valueOf(page, 'Waiting for your reply');
      const open = await valueOf(page, 'Open tickets');
      expect(open).toBeGreaterThanOrEqual(waiting);
      await figure(page, 'Waiting for your reply').click();
      await page.waitForURL('**/tickets/list?status=WAITING_FOR_CUSTOMER');
      await expect(page.getByText(/^\d+ tickets$/)).toHaveText(`${waiting} tickets`);
      await page.goBack();
      await figure(page, 'Open tickets').click();
      await page.waitForURL('**/tickets/list?status=NEW%2CIN_PROGRESS%2CWAITING_FOR_CUSTOMER');
      await expect(page.getByLabel('Status')).toHaveValue('open');
      await expect(page.getByText(/^\d+ tickets$/)).toHaveText(`${open} tickets`);
    }).toPass();
  });

  test('Adam (tickets, delegated admin): pending invitations lead to the invited users; no machines figure', async ({ page }) => {
    await signedIn(page, DEMO_USERS.admin);
    await expect(work(page).getByRole('link')).toHaveCount(3);
    await expect(work(page).getByRole('link', { name: /^Machines/ })).toHaveCount(0);
    // user-admin.spec.ts invites users of Adam's organisations meanwhile: compared from the same moment on.
    await expect(async () => {
      await page.goto('/en/mykomax');
      const invited = await valueOf(page, 'Pending invitations');
      expect(invited).toBeGreaterThan(0);
      await figure(page, 'Pending invitations').click();
      await page.waitForURL('**/en/mykomax/user-admin?status=invited');
      await expect(page.getByText(/^\d+ users$/)).toHaveText(`${invited} users`);
    }).toPass();
  });

  test('Nora (no roles): no work figures, and nothing is asked of the services', async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (r) => { if (/\/api\/(ticketing|user-admin)\//.test(r.url())) calls.push(r.url()); });
    await signedIn(page, DEMO_USERS.noroles);
    await expect(tiles(page)).toHaveCount(8);
    await expect(work(page)).toHaveCount(0);
    expect(calls).toEqual([]);
  });

  for (const width of [390, 1280]) {
    test(`at ${width} px the signed-in dashboard loads without layout shift (CLS ≤ 0.1) and passes axe`, async ({ page }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      await watchLayoutShifts(page);
      await signedIn(page, DEMO_USERS.employee);
      await page.goto('/en/mykomax');
      await expect(tiles(page).getByRole('heading', { level: 2 })).toHaveCount(8);
      expect(await layoutShift(page), 'once the tiles are there').toBeLessThanOrEqual(0.1);
      await expect(work(page).getByRole('link', { name: /^\d+ |Not available right now$/ })).toHaveCount(4);
      expect(await layoutShift(page), 'once the figures are there').toBeLessThanOrEqual(0.1);
      await expectNoSidewaysScroll(page, `/en/mykomax at ${width} px`);
      await expectNoAxeViolations(page);
    });
  }
});
