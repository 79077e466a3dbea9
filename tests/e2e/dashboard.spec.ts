import { expect, type Page } from '@playwright/test';
import { expectNoAxeViolations, test } from './fixtures/index.ts';
import { signIn } from './fixtures/identity.ts';

/*
 * The dashboard of every demo user (issue 10 contract, emulators/data/identity/users.json): exactly
 * the tiles and statuses the roles give (spec customer-area §4, §6), written out here from the
 * roles table of the contract, not from the code under test. Master-data services 2 is "coming
 * soon" in the demo content unless a role opens it.
 */

const TILES = ['Service tickets', 'Inventory', 'Wire-flow', 'User administration', 'Komax Direct', 'Master data services (WM)', 'Master data services (MDS)', 'Komax Campus'] as const;
type Status = 'Active' | 'Unregistered' | 'Pending' | 'Coming soon' | 'Invited' | 'Invite expired';
const U: Status = 'Unregistered';

const USERS: { email: string; name: string; statuses: Status[]; wireFlow?: string }[] = [
  //                                                                   tickets   inventory wire-flow admin     direct     WM        MDS            campus
  { email: 'customer@demo.komax.test', name: 'Claire Customer', statuses: ['Active', 'Active', 'Active', U, 'Active', U, 'Coming soon', 'Active'], wireFlow: 'Cloud' },
  { email: 'onprem@demo.komax.test', name: 'Otto Onprem', statuses: [U, U, 'Active', U, 'Pending', U, 'Coming soon', 'Invited'], wireFlow: 'On-premises installation' },
  { email: 'expired@demo.komax.test', name: 'Erika Expired', statuses: [U, U, U, U, U, 'Active', 'Coming soon', 'Invite expired'] },
  { email: 'noroles@demo.komax.test', name: 'Nora Noroles', statuses: [U, U, U, U, U, U, 'Coming soon', U] },
  { email: 'admin@demo.komax.test', name: 'Adam Admin', statuses: ['Active', U, U, 'Active', U, 'Active', 'Active', U] },
  { email: 'employee@komax.test', name: 'Ida Intern', statuses: ['Active', 'Active', U, 'Active', 'Active', U, 'Coming soon', U] },
  { email: 'password@demo.komax.test', name: 'Paula Password', statuses: ['Active', U, U, U, U, U, 'Coming soon', U] },
  { email: 'profile@demo.komax.test', name: 'Pete Profile', statuses: [U, 'Active', U, U, U, U, 'Coming soon', U] },
  { email: 'delete@demo.komax.test', name: 'Dora Delete', statuses: [U, U, U, U, U, U, 'Coming soon', U] },
];

const tiles = (page: Page, list = 'Your services') => page.getByRole('list', { name: list }).getByRole('listitem');
const tile = (page: Page, title: string, list?: string) => tiles(page, list).filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });

/** The tiles as [title, status] pairs, read as a screen reader does (the status's accessible text). */
async function shownTiles(page: Page): Promise<[string, string][]> {
  await expect(tiles(page)).toHaveCount(TILES.length);
  const out: [string, string][] = [];
  for (const item of await tiles(page).all()) {
    const title = await item.getByRole('heading', { level: 2 }).innerText();
    const status = (await item.getByText(/^Status: /).textContent())!.replace(/^Status: /, '');
    out.push([title, status]);
  }
  return out;
}

test.describe('the dashboard of each demo user', () => {
  for (const user of USERS) {
    test(`${user.email}: ${user.statuses.join(', ')}`, async ({ page }) => {
      await signIn(page, user.email);
      await expect(page.getByText(`Welcome, ${user.name}`)).toBeVisible();
      expect(await shownTiles(page)).toEqual(TILES.map((t, i) => [t, user.statuses[i]]));
      if (user.wireFlow) await expect(tile(page, 'Wire-flow').getByText(user.wireFlow, { exact: true })).toBeVisible();
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
  for (const user of USERS) expect(html).not.toContain(user.name);
  // Skeleton cards reserve the grid before the session arrives.
  expect(html).toContain('tile--skeleton');

  await signIn(page, 'customer@demo.komax.test');
  await expect(tiles(page).first().getByRole('heading')).toBeVisible();
  await expectNoAxeViolations(page);
});
