import { test, expect, expectNoAxeViolations } from './fixtures/index.ts';
import { DEMO_USERS, signedIn } from './fixtures/identity.ts';

// Issue 11, inventory: the organisation's machines (ticketing emulator), filters, open tickets, a
// ticket for a machine; the older list view.

test.describe('inventory as Claire (customer@)', () => {
  test('machines with filters and open tickets; "create ticket for this machine" preselects it', async ({ page }) => {
    await signedIn(page, DEMO_USERS.customer);
    await page.goto('/en/mykomax/inventory');
    const cards = page.locator('.inventory__card');
    await expect(page.getByRole('status').filter({ hasText: /^\d+ machines$/ })).toBeVisible();
    const all = await cards.count();
    expect(all).toBeGreaterThan(5);
    await expectNoAxeViolations(page);

    await page.getByLabel('Open tickets').selectOption({ label: 'With open tickets' });
    await page.getByRole('button', { name: 'Show machines' }).click();
    await expect.poll(() => cards.count()).toBeLessThan(all);
    const first = cards.first();
    await expect(first.getByRole('link', { name: /^SR-\d+$/ }).first()).toBeVisible();

    const name = (await first.getByRole('heading', { level: 2 }).textContent())!;
    await first.getByRole('link', { name: /Create ticket for this machine/ }).click();
    await page.waitForURL(/\/en\/mykomax\/tickets\/newticket\?machine=mch-\d+$/);
    await expect(page.getByLabel('Machine concerned').locator('option:checked')).toContainText(name);
    await expect(page.getByLabel('Location')).not.toHaveValue('');
  });

  test('the search narrows the machines; the older list view is a plain table', async ({ page }) => {
    await signedIn(page, DEMO_USERS.customer);
    await page.goto('/en/mykomax/inventory/old');
    const rows = page.locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'Serial number' })).toBeVisible();
    const serial = (await rows.first().locator('td').nth(1).textContent())!;
    await page.getByRole('search', { name: 'Filter machines' }).getByLabel('Search').fill(serial);
    await page.getByRole('button', { name: 'Show machines' }).click();
    await expect(rows).toHaveCount(1);
    await expectNoAxeViolations(page);
  });
});
