import { expect } from '@playwright/test';
import { expectNoAxeViolations, test } from './fixtures/index.ts';
import { DEMO_PASSWORD, signIn, submitLogin } from './fixtures/identity.ts';
import { dashboardOf, expectDashboard } from './fixtures/dashboard.ts';

/*
 * Account settings against the identity emulator's identity management (policy, reauthentication,
 * internal accounts, deletion). Each test uses its own demo user (password@, profile@, delete@,
 * employee@), so the tests stay independent; Playwright gives each run fresh identity data.
 */

test('the account API answers 401 without a valid token, and never a cached answer', async ({ request }) => {
  for (const [method, path] of [['GET', '/api/account/profile'], ['PATCH', '/api/account/profile'], ['POST', '/api/account/password'], ['POST', '/api/account/mfa-reset'], ['DELETE', '/api/account']] as const) {
    const res = await request.fetch(path, { method, headers: { 'content-type': 'application/json' }, data: method === 'GET' || method === 'DELETE' ? undefined : '{}' });
    expect(res.status(), `${method} ${path}`).toBe(401);
    expect(res.headers()['www-authenticate'], `${method} ${path}`).toMatch(/^Bearer/);
    expect(res.headers()['cache-control']).toContain('no-store');
  }
  const forged = await request.get('/api/account/profile', { headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' } });
  expect(forged.status()).toBe(401);
});

test('a password that breaks the policy shows the translated message with its bound; a valid one works at the next sign-in', async ({ page }) => {
  const email = 'password@demo.komax.test';
  const next = 'Komax-Better-2027';
  await signIn(page, email);
  await expectDashboard(page, dashboardOf(email));

  await page.goto('/de/mykomax/account');
  const de = page.getByRole('form', { name: 'Passwort' });
  await de.getByLabel('Aktuelles Passwort').fill(DEMO_PASSWORD);
  await de.getByLabel('Neues Passwort', { exact: true }).fill('Kurz-1');
  await de.getByLabel('Neues Passwort bestätigen').fill('Kurz-1');
  await de.getByRole('button', { name: 'Passwort ändern' }).click();
  const newField = de.getByLabel('Neues Passwort', { exact: true });
  await expect(newField).toHaveAttribute('aria-invalid', 'true');
  await expect(newField).toHaveAccessibleDescription(/Mindestens 10 Zeichen/);
  await expect(newField).toBeFocused();

  await page.goto('/en/mykomax/account');
  const form = page.getByRole('form', { name: 'Password' });
  await form.getByLabel('Current password').fill(DEMO_PASSWORD);
  await form.getByLabel('New password', { exact: true }).fill(next);
  await form.getByLabel('Confirm new password').fill(`${next}x`);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByLabel('Confirm new password')).toHaveAccessibleDescription('The passwords do not match');

  await form.getByLabel('Confirm new password').fill(next);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Your password has been changed. Use it at your next sign-in.')).toBeVisible();

  // The next sign-in works with the new password (after signing out).
  await page.goto('/en/mykomax/logout');
  await page.waitForURL((url) => !url.pathname.includes('/mykomax'));
  await page.goto('/en/mykomax');
  await submitLogin(page, email, next);
  await page.waitForURL('**/en/mykomax');
  await expect(page.getByText('Welcome, Paula Password')).toBeVisible();

  // Back to the documented password, so a rerun finds the demo state.
  await page.goto('/en/mykomax/account');
  await form.getByLabel('Current password').fill(next);
  await form.getByLabel('New password', { exact: true }).fill(DEMO_PASSWORD);
  await form.getByLabel('Confirm new password').fill(DEMO_PASSWORD);
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByText('Your password has been changed. Use it at your next sign-in.')).toBeVisible();
});

test('profile edits persist; the names are required and identity management\'s policies show per field', async ({ page }) => {
  await signIn(page, 'profile@demo.komax.test');
  await expectDashboard(page, dashboardOf('profile@demo.komax.test'));
  await page.goto('/en/mykomax/account');
  const form = page.getByRole('form', { name: 'Profile' });
  await expect(form.getByLabel('First name')).toHaveValue('Pete');

  await form.getByLabel('First name').fill('');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByLabel('First name')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('First name')).toHaveAccessibleDescription('Please enter your first name');
  await expect(form.getByLabel('First name')).toBeFocused();

  const city = `Dierikon ${Date.now() % 10_000}`;
  // Identity management's own policy answers per field (here VALID_PHONE_FORMAT).
  await form.getByLabel('First name').fill('Pete');
  await form.getByLabel('Telephone').fill('call me');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByLabel('Telephone')).toHaveAccessibleDescription('Please enter a valid telephone number');
  await expect(form.getByLabel('Telephone')).toBeFocused();

  await form.getByLabel('Telephone').fill('+41 41 455 66 77');
  await form.getByLabel('City').fill(city);
  await form.getByLabel('Company').fill('Profile Harness Ltd');
  await form.getByLabel('Country').selectOption({ label: 'Germany' });
  await form.getByLabel('Language').selectOption('de');
  await form.getByRole('button', { name: 'Save profile' }).click();
  await expect(form.getByText('Your profile has been saved.')).toBeVisible();

  await page.reload();
  await expect(form.getByLabel('First name')).toHaveValue('Pete');
  await expect(form.getByLabel('Telephone')).toHaveValue('+41 41 455 66 77');
  await expect(form.getByLabel('City')).toHaveValue(city);
  await expect(form.getByLabel('Company')).toHaveValue('Profile Harness Ltd');
  await expect(form.getByLabel('Country')).toHaveValue('DE');
  await expect(form.getByLabel('Language')).toHaveValue('de');
});

test('the internal employee sees profile and password read-only and can reset the MFA device', async ({ page }) => {
  await signIn(page, 'employee@komax.test');
  await page.goto('/en/mykomax/account');
  await expect(page.getByRole('note').getByRole('heading', { name: 'Internally managed account' })).toBeVisible();
  const profile = page.getByRole('form', { name: 'Profile' });
  await expect(profile.getByLabel('First name')).toHaveValue('Ida');
  await expect(profile.getByLabel('First name')).toHaveAttribute('readonly', '');
  await expect(profile.getByLabel('Country')).toBeDisabled();
  await expect(profile.getByRole('button', { name: 'Save profile' })).toHaveCount(0);
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete account' })).toHaveCount(0);

  const mfa = page.getByRole('region', { name: 'Multi-factor authentication' });
  await mfa.getByRole('button', { name: 'Reset MFA device' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset your MFA device?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Reset device' }).click();
  await expect(dialog).toBeHidden();
  await expect(mfa.getByText('Your MFA device has been reset.')).toBeVisible();
  await expect(mfa.getByText('Registered devices: 0')).toBeVisible();
});

test('deleting the account signs out, and the login fails afterwards', async ({ page }) => {
  const email = 'delete@demo.komax.test';
  await signIn(page, email);
  await expectDashboard(page, dashboardOf(email));
  await page.goto('/en/mykomax/account');
  const zone = page.getByRole('region', { name: 'Delete account' });
  await zone.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog).toContainText('removed permanently and you will be signed out');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(zone.getByRole('button', { name: 'Delete account' })).toBeFocused();

  await zone.getByRole('button', { name: 'Delete account' }).click();
  await dialog.getByRole('button', { name: 'Delete permanently' }).click();
  await page.waitForURL((url) => !url.pathname.includes('/mykomax'));

  // A new sign-in with the deleted account is refused by the provider's login form.
  await page.goto('/en/mykomax');
  await submitLogin(page, email, DEMO_PASSWORD);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
});

test('the account page passes axe (with a field error shown)', async ({ page }) => {
  await signIn(page, 'customer@demo.komax.test');
  await page.goto('/en/mykomax/account');
  const form = page.getByRole('form', { name: 'Password' });
  await form.getByRole('button', { name: 'Change password' }).click();
  await expect(form.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);
});
