import { expect, type Page } from '@playwright/test';
import { expectNoAxeViolations, test } from './fixtures/index.ts';
import { DEMO_USERS, signedIn, storedTokens } from './fixtures/identity.ts';

/*
 * Delegated user administration as Adam Admin (admin@, external admin of Harness Demo Inc. and
 * Profile Harness Ltd) against the identity emulator. Each test changes its own seeded users (see
 * emulators/data/README.md), which no other spec touches; Playwright gives each run fresh identity data.
 */

const id = (n: number) => `7f3c2a10-5b1e-4c6a-9d2e-1a00000000${String(n).padStart(2, '0')}`;
const USERS = {
  claire: id(1), adam: id(5), lucia: id(10), brian: id(11), carmen: id(12), derek: id(13), emily: id(14), frank: id(15), henry: id(17),
  isabel: id(18), jack: id(19), nathan: id(23), olivia: id(24), pablo: id(25),
  ida: id(6), sara: id(43), beat: id(44), sven: id(46),
};
/** External admin of Demo Cable Assembly AG (with Ida Intern, Sven Steiner and Sara Colombo; no other spec signs in as him). */
const BEAT = 'beat.huber@dca.example';
const NO_PERMISSION = 'You do no longer have the necessary permissions to view this user.';

async function openUser(page: Page, userId: string): Promise<void> {
  await page.goto(`/en/mykomax/user-admin/${userId}`);
  await expect(page.getByRole('heading', { name: 'Application access' })).toBeVisible();
}

const access = (page: Page, application: string) => page.locator(`[data-application="${application}"]`);

test('the pages hold no personal data and are never stored', async ({ request }) => {
  for (const path of ['/en/mykomax/user-admin', `/en/mykomax/user-admin/${USERS.lucia}`]) {
    const res = await request.get(path);
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toContain('no-store');
    const html = await res.text();
    expect(html).not.toMatch(/@hdi\.example|Lucia|Ramirez/);
  }
  const api = await request.get('/api/user-admin/users');
  expect(api.status()).toBe(401);
});

test('list: filters, search, sort and the invite dialog (new user, spec messages, existing e-mail)', async ({ page }) => {
  await signedIn(page, DEMO_USERS.admin);
  await page.goto('/en/mykomax/user-admin');
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByRole('link', { name: 'Lucia Ramirez' })).toBeVisible();

  // Declined at Harness Demo Inc.: Gabriela Santos and Karen Mitchell (no test changes them).
  const filters = page.getByRole('search', { name: 'Filter users' });
  await filters.getByLabel('Organisation').selectOption({ label: 'Harness Demo Inc.' });
  await filters.getByLabel('Status').selectOption({ label: 'Declined' });
  await expect(page.getByText('2 users')).toBeVisible();
  await expect(table.getByRole('link')).toHaveText(['Gabriela Santos', 'Karen Mitchell']);
  await expect(page).toHaveURL(/orguid=org-hdi&status=declined/);
  await page.getByRole('button', { name: 'Reset filters' }).click();
  await page.getByRole('button', { name: /^Email/ }).click();
  await expect(page.getByRole('columnheader', { name: /^Email/ })).toHaveAttribute('aria-sort', 'ascending');
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Invite a user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a user' });
  await dialog.getByLabel('Email').fill('not-an-email');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText('Please provide a valid email address')).toBeVisible();
  await expect(dialog.getByText('Please select an item').first()).toBeVisible();
  await expect(dialog.getByLabel('Email')).toBeFocused();

  await dialog.getByLabel('Email').fill('lucia.ramirez@hdi.example');
  await dialog.getByLabel('Organisation').selectOption({ label: 'Harness Demo Inc.' });
  await dialog.getByRole('checkbox', { name: 'Inventory' }).check();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog.getByText('A user with this email address already exists.')).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Go to profile' })).toHaveAttribute('href', `/en/mykomax/user-admin/${USERS.lucia}`);

  await dialog.getByLabel('Email').fill('e2e.invited@hdi.example');
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('e2e.invited@hdi.example has been invited.')).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.reload();
  await filters.getByLabel('Search by name or email').fill('e2e.invited');
  await filters.getByRole('button', { name: 'Search users' }).click();
  const row = table.getByRole('row', { name: /e2e\.invited@hdi\.example/ });
  await expect(row).toContainText('Invited');
  await expect(row).toContainText('Inventory');
  await expect(page).toHaveURL(/search=e2e\.invited/);
});

test('resend an invite and send a new one after expiry; both persist', async ({ page }) => {
  await signedIn(page, DEMO_USERS.admin);
  await openUser(page, USERS.brian);
  const before = await access(page, 'serviceticketing').textContent();
  await page.getByRole('button', { name: 'Resend invite: Service tickets' }).click();
  const result = page.locator('.user-admin__live').first();
  await expect(result).toContainText('Resend invite – Service tickets: done. Status now: Invited.');
  await expect(result).toBeFocused();
  await page.reload();
  await expect(access(page, 'serviceticketing')).toContainText('Invited');
  expect(await access(page, 'serviceticketing').textContent()).not.toBe(before);

  await openUser(page, USERS.isabel);
  await expect(access(page, 'serviceticketing')).toContainText('Invite expired');
  await page.getByRole('button', { name: 'Send new invite: Service tickets' }).click();
  await expect(page.getByText('Send new invite – Service tickets: done. Status now: Invited.')).toBeVisible();
  await page.reload();
  await expect(access(page, 'serviceticketing')).toContainText('Invited');
  await expect(access(page, 'serviceticketing')).not.toContainText('Invite expired');
  await expect(page.getByRole('button', { name: 'Resend invite: Service tickets' })).toBeVisible();
});

test('accept a pending request and withdraw access; both persist', async ({ page }) => {
  await signedIn(page, DEMO_USERS.admin);
  await openUser(page, USERS.olivia);
  await expect(access(page, 'assetdb')).toContainText('Access requested');
  await page.getByRole('button', { name: 'Accept request: Inventory' }).click();
  await expect(page.getByText('Accept request – Inventory: done. Status now: Active.')).toBeVisible();
  await page.reload();
  await expect(access(page, 'assetdb')).toContainText('Active');

  await openUser(page, USERS.emily);
  await page.getByRole('button', { name: 'Withdraw access: Inventory' }).click();
  await expect(page.getByText('Withdraw access – Inventory: done. Status now: Inactive.')).toBeVisible();
  await page.reload();
  await expect(access(page, 'assetdb')).toContainText('Inactive');
  await expect(page.getByRole('button', { name: 'Grant access: Inventory' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('add an application and invite for one application; both persist', async ({ page }) => {
  await signedIn(page, DEMO_USERS.admin);
  await openUser(page, USERS.jack);
  await expect(access(page, 'assetdb')).toContainText('No access');
  await page.getByRole('button', { name: 'Add application: Inventory' }).click();
  await expect(page.getByText('Add application – Inventory: done. Status now: Active.')).toBeVisible();
  await page.reload();
  await expect(access(page, 'assetdb')).toContainText('Active');
  await expect(page.getByRole('button', { name: 'Withdraw access: Inventory' })).toBeVisible();

  await openUser(page, USERS.carmen);
  await expect(access(page, 'assetdb')).toContainText('No access');
  await page.getByRole('button', { name: 'Invite: Inventory' }).click();
  await expect(page.getByText('Invite – Inventory: done. Status now: Invited.')).toBeVisible();
  await page.reload();
  await expect(access(page, 'assetdb')).toContainText('Invited');
  await expect(access(page, 'assetdb')).toContainText('Requested by: admin@demo.komax.test');
  await expect(page.getByRole('button', { name: 'Resend invite: Inventory' })).toBeVisible();
});

test('grant inactive access and edit active access to inactive; both persist', async ({ page }) => {
  await signedIn(page, DEMO_USERS.admin);
  await openUser(page, USERS.frank);
  await expect(access(page, 'serviceticketing')).toContainText('Inactive');
  await page.getByRole('button', { name: 'Grant access: Service tickets' }).click();
  await expect(page.getByText('Grant access – Service tickets: done. Status now: Active.')).toBeVisible();
  await page.reload();
  await expect(access(page, 'serviceticketing')).toContainText('Active');
  await expect(page.getByRole('button', { name: 'Grant access: Service tickets' })).toHaveCount(0);

  await openUser(page, USERS.henry);
  await expect(access(page, 'artemis')).toContainText('Active');
  await page.getByRole('button', { name: 'Edit access: Wire-flow' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit access: Wire-flow' });
  await expect(dialog.getByRole('radio', { name: 'Inactive' })).toBeChecked();
  await dialog.getByRole('radio', { name: 'Inactive' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Edit access – Wire-flow: done. Status now: Inactive.')).toBeVisible();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(access(page, 'artemis')).toContainText('Inactive');
  await expect(page.getByRole('button', { name: 'Grant access: Wire-flow' })).toBeVisible();
});

test('decline a pending request, then grant the declined access; both persist', async ({ page }) => {
  // Derek ends active again, so Harness Demo Inc. keeps exactly two declined users for the list test.
  await signedIn(page, DEMO_USERS.admin);
  await openUser(page, USERS.derek);
  await expect(access(page, 'direct')).toContainText('Access requested');
  await page.getByRole('button', { name: 'Decline: Komax Direct' }).click();
  await expect(page.getByText('Decline – Komax Direct: done. Status now: Declined.')).toBeVisible();
  await page.reload();
  await expect(access(page, 'direct')).toContainText('Declined');
  await expect(page.getByRole('button', { name: 'Accept request: Komax Direct' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Grant access: Komax Direct' }).click();
  await expect(page.getByText('Grant access – Komax Direct: done. Status now: Active.')).toBeVisible();
  await page.reload();
  await expect(access(page, 'direct')).toContainText('Active');
});

test('a failed action shows its own failure title and the technical details; nothing changes', async ({ page }) => {
  await signedIn(page, DEMO_USERS.admin);
  await openUser(page, USERS.pablo);
  await expect(access(page, 'mfpmds')).toContainText('Invited');
  await page.route(`**/api/user-admin/users/${USERS.pablo}/access/mfpmds`, (route) =>
    route.fulfill({ status: 502, contentType: 'application/json', body: JSON.stringify({ error: 'unavailable', message: 'Identity management did not answer (503)' }) }),
  { times: 1 });
  await page.getByRole('button', { name: 'Decline: Master data services (MDS)' }).click();
  const result = page.locator('.user-admin__live').first();
  await expect(result).toContainText('The access could not be declined.');
  await expect(result).toContainText('Technical details: 502 unavailable: Identity management did not answer (503)');
  await expect(result).toBeFocused();
  await page.reload();
  await expect(access(page, 'mfpmds')).toContainText('Invited');
});

test('remove a membership (own organisation: warning) and delete a user; both persist', async ({ page }) => {
  await signedIn(page, DEMO_USERS.admin);
  await openUser(page, USERS.adam);
  await page.getByRole('button', { name: 'Remove membership: Profile Harness Ltd' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove the membership?' });
  await expect(confirm).toContainText('This is your own organisation: you may lose your administrator rights for its users.');
  await confirm.getByRole('button', { name: 'Remove membership' }).click();
  await expect(page.getByText('The membership of Profile Harness Ltd has been removed.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Application access' })).toBeVisible();
  const orgs = page.getByRole('region', { name: 'Organisations' });
  await expect(orgs.getByText('Harness Demo Inc.', { exact: true })).toBeVisible();
  await expect(orgs.getByText('Profile Harness Ltd', { exact: true })).toHaveCount(0);

  await openUser(page, USERS.nathan);
  await page.getByRole('button', { name: 'Delete user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this user?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Delete user' }).click();
  await expect(page.getByText('Nathan Reed has been deleted.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'This user does not exist' })).toBeVisible();
});

test('a user of another organisation shows the permission message; an unknown id the invalid-user state', async ({ page }) => {
  await signedIn(page, DEMO_USERS.admin);
  await page.goto(`/en/mykomax/user-admin/${USERS.claire}`);
  await expect(page.getByRole('heading', { name: 'You do no longer have the necessary permissions to view this user.' })).toBeVisible();
  await expect(page.getByText('Claire')).toHaveCount(0);
  await page.goto('/en/mykomax/user-admin/no-such-user');
  await expect(page.getByRole('heading', { name: 'This user does not exist' })).toBeVisible();
});

test('a customer without the admin role sees why and how to get access', async ({ page }) => {
  await signedIn(page, DEMO_USERS.customer);
  await page.goto('/de/mykomax/user-admin');
  await expect(page.getByRole('heading', { name: 'Sie sind kein Benutzeradministrator' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Zurück zu myKomax' }).last()).toBeVisible();
});

test('detail page passes axe', async ({ page }) => {
  await signedIn(page, DEMO_USERS.admin);
  await openUser(page, USERS.lucia);
  await expectNoAxeViolations(page);
});

test('issue 28: an external admin never reaches internal accounts; a user of another organisation too can only be removed from his; no own access change', async ({ page }) => {
  await signedIn(page, BEAT);
  await page.goto('/en/mykomax/user-admin');
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table.getByRole('link', { name: 'Sara Colombo' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'Ida Intern' })).toHaveCount(0);
  await expect(table.getByRole('link', { name: 'Sven Steiner' })).toHaveCount(0);

  for (const internal of [USERS.ida, USERS.sven]) {
    await page.goto(`/en/mykomax/user-admin/${internal}`);
    await expect(page.getByRole('heading', { name: NO_PERMISSION })).toBeVisible();
    await expect(page.getByText(/Ida Intern|Sven Steiner|@komax\.test/)).toHaveCount(0);
  }

  // Sara Colombo also belongs to Milano Cablaggi, which Beat does not administer.
  await openUser(page, USERS.sara);
  const accessRegion = page.getByRole('region', { name: 'Application access' });
  await expect(accessRegion.getByText('This user also belongs to organisations you do not administer: you can only remove them from your organisations.')).toBeVisible();
  await expect(accessRegion.getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete user' })).toHaveCount(0);
  const orgs = page.getByRole('region', { name: 'Organisations' });
  await expect(orgs.getByRole('button', { name: 'Remove membership: Milano Cablaggi Demo S.r.l.' })).toHaveCount(0);
  await expect(orgs.getByText('You do not administer this organisation.')).toBeVisible();
  // The API refuses what the screen does not offer.
  const token = (await storedTokens(page))!.accessToken;
  const refused = await page.request.delete(`/api/user-admin/users/${USERS.sara}`, { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(403);

  await orgs.getByRole('button', { name: 'Remove membership: Demo Cable Assembly AG' }).click();
  await page.getByRole('dialog', { name: 'Remove the membership?' }).getByRole('button', { name: 'Remove membership' }).click();
  await expect(page.getByText('The membership of Demo Cable Assembly AG has been removed.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: NO_PERMISSION })).toBeVisible();

  // His own detail: no access change, no deletion; leaving his organisation stays possible.
  await openUser(page, USERS.beat);
  await expect(page.getByText('You cannot change your own application access or delete your own account here.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Application access' }).getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete user' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove membership: Demo Cable Assembly AG' })).toBeVisible();
  await expectNoAxeViolations(page);
});
