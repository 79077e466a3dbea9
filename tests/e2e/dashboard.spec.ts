import { expect } from '@playwright/test';
import { expectNoAxeViolations, test } from './fixtures/index.ts';
import { signIn } from './fixtures/identity.ts';
import { DASHBOARDS, expectDashboard, tile, tiles } from './fixtures/dashboard.ts';

// The expectations of every demo user are in fixtures/dashboard.ts (from the contract's roles table).

test.describe('the dashboard of each demo user', () => {
  // password@, profile@ and delete@ are checked by account.spec.ts before it changes them.
  for (const user of DASHBOARDS.filter((d) => !d.changedByAccountSpec)) {
    test(`${user.email}: ${user.statuses.join(', ')}`, async ({ page }) => {
      await signIn(page, user.email);
      await expectDashboard(page, user);
    });
  }
});

test('tile targets: our routes for active tiles, the cloud service for cloud wire-flow users, the content hub\'s addresses', async ({ page }) => {
  await signIn(page, 'customer@demo.komax.test');
  await expect(tile(page, 'Service tickets').getByRole('link', { name: 'Open: Service tickets' })).toHaveAttribute('href', '/en/mykomax/tickets/list');
  await expect(tile(page, 'Inventory').getByRole('link', { name: 'Open: Inventory' })).toHaveAttribute('href', '/en/mykomax/inventory');
  await expect(tile(page, 'Wire-flow').getByRole('link', { name: 'Open: Wire-flow', exact: true })).toHaveAttribute('href', '/en/mykomax/wire-flow');
  await expect(tile(page, 'Wire-flow').getByRole('link', { name: 'Open cloud service: Wire-flow' })).toHaveAttribute('href', 'https://wire-flow.demo.komax.test/');
  await expect(tile(page, 'Komax Direct').getByRole('link', { name: 'Open: Komax Direct' })).toHaveAttribute('href', 'https://direct.demo.komax.test/');
  await expect(tile(page, 'User administration').getByRole('link', { name: 'Request access: User administration' })).toHaveAttribute('href', '/en/contact');
});

test('in German: the delegated admin opens user administration; direct registers and returns to the localized dashboard', async ({ page, baseURL }) => {
  await signIn(page, 'admin@demo.komax.test', 'de');
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

  await signIn(page, 'customer@demo.komax.test');
  await expect(tiles(page).first().getByRole('heading')).toBeVisible();
  await expectNoAxeViolations(page);
});
