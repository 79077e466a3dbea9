import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect, expectNoAxeViolations } from './fixtures/index.ts';
import { DEMO_USERS, signedIn } from './fixtures/identity.ts';
import { expectNoSidewaysScroll, layoutShift, watchLayoutShifts } from './fixtures/layout.ts';

// Issue 11, the customer services: tickets through the same-origin proxy, with the ticketing
// emulator behind it (spec customer-area §2, §5, §8, §9).

const SPEC_ERROR = 'We apologize for the inconvenience. An error has occurred. Please try again later';
/** The support contact is content: the content hub emulator's customer-area settings record. */
const SUPPORT = JSON.parse(readFileSync(new URL('../../emulators/data/content/customer-area.json', import.meta.url), 'utf8')) as { supportEmail: string; supportPhone: string };

/** A PNG of `bytes` bytes: the signature (what the service checks) and filler. */
function png(bytes: number): Buffer {
  const b = Buffer.alloc(bytes, 0x5a);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b);
  return b;
}

test.describe('service tickets as Claire (customer@)', () => {
  test('create a ticket with a 5 MB image, find it in the list, open it, comment and close it with a reason', async ({ page }) => {
    await signedIn(page, DEMO_USERS.customer);
    await page.goto('/en/mykomax/tickets/newticket');
    const form = page.locator('form.services__form');
    await expect(page.getByLabel('Location')).toBeVisible();
    await expectNoAxeViolations(page);

    // Empty required fields: each of the spec's messages, the first field focused.
    await page.getByRole('button', { name: 'Create ticket' }).click();
    for (const message of ['Please select a location', 'Please select a ticket type', 'Please select a machine concerned', 'Please enter the subject', 'Please enter the description']) {
      await expect(form.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(page.getByLabel('Location')).toBeFocused();
    await expect(page.getByLabel('Subject')).toHaveAccessibleDescription('Please enter the subject');
    await expectNoAxeViolations(page);

    const subject = `Cutting blade worn ${Date.now()}`;
    await page.getByLabel('Location').selectOption({ label: 'Dierikon plant (Dierikon)' });
    await page.getByLabel('Ticket type').selectOption({ label: 'Repair' });
    await page.getByLabel('Machine concerned').selectOption({ index: 1 });
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Description').fill('The blade leaves burrs on 0.35 mm² wires since this morning.');
    await page.getByLabel('Attachments').setInputFiles({ name: 'blade.png', mimeType: 'image/png', buffer: png(5 * 1024 * 1024) });
    await expect(page.getByRole('list', { name: 'Files to attach' }).getByRole('button', { name: 'Remove blade.png' })).toBeVisible();
    // A slow uplink (about 2 s for the file), so the progress bar can be seen moving.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 2.5 * 1024 * 1024 });
    await page.getByRole('button', { name: 'Create ticket' }).click();
    const progress = page.getByRole('progressbar', { name: 'Upload of blade.png' });
    await expect(progress).toBeVisible();
    await expect.poll(async () => Number(await progress.getAttribute('value'))).toBeGreaterThan(0);

    await page.waitForURL(/\/en\/mykomax\/tickets\/SR-\d+$/);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const id = page.url().split('/').pop()!;
    await expect(page.getByRole('heading', { level: 1, name: `Ticket ${id}` })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: subject })).toBeVisible();
    const download = page.getByRole('link', { name: 'Download blade.png' });
    await expect(download).toHaveAttribute('href', /^\/api\/ticketing\/download\//);
    const file = await page.request.get((await download.getAttribute('href'))!);
    expect(file.status()).toBe(200);
    expect((await file.body()).length).toBe(5 * 1024 * 1024);
    await expectNoAxeViolations(page);

    // The list finds it by its subject.
    await page.goto(`/en/mykomax/tickets/list?q=${encodeURIComponent(subject)}`);
    const row = page.getByRole('row', { name: new RegExp(id) });
    await expect(row).toContainText(subject);
    await expect(row).toContainText('Repair');
    await expect(row).toContainText('New');
    await expectNoAxeViolations(page);
    await row.getByRole('link', { name: id }).click();
    await page.waitForURL(`**/tickets/${id}`);

    // Comment: empty first, then a real one.
    await page.getByRole('button', { name: 'Send comment' }).click();
    await expect(page.getByText('Please enter a comment', { exact: true })).toBeVisible();
    await page.getByLabel('Comment', { exact: true }).fill('Photo attached; the machine is stopped.');
    await page.getByRole('button', { name: 'Send comment' }).click();
    await expect(page.getByRole('listitem').filter({ hasText: 'Photo attached; the machine is stopped.' })).toContainText('Claire Customer');

    // Close with a reason and a comment: the page shows the closing reason, and no more forms.
    await page.getByLabel('Resolved without Komax').check();
    await page.getByLabel('Comment (optional)').fill('Replaced the blade ourselves.');
    await page.getByRole('button', { name: 'Close ticket' }).click();
    await expect(page.getByText('Reason: Resolved without Komax')).toBeVisible();
    await expect(page.locator('.ticket__head .status')).toHaveText('Closed');
    await expect(page.getByRole('button', { name: 'Send comment' })).toHaveCount(0);
    await expectNoAxeViolations(page);

    // Still there after a reload (the service keeps it).
    await page.reload();
    await expect(page.getByText('Reason: Resolved without Komax')).toBeVisible();
  });

  test('a 101 MB file is refused in the browser with a clear message and never sent', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'kmx-e2e-'));
    const big = join(dir, 'huge-video.mp4');
    writeFileSync(big, '');
    truncateSync(big, 101 * 1024 * 1024);
    try {
      await signedIn(page, DEMO_USERS.customer);
      await page.goto('/en/mykomax/tickets/newticket');
      let uploads = 0;
      page.on('request', (r) => { if (r.url().includes('/api/ticketing/graphql') && (r.headers()['content-type'] ?? '').startsWith('multipart/')) uploads++; });
      await page.getByLabel('Attachments').setInputFiles(big);
      await expect(page.getByText('huge-video.mp4 is larger than 100 MB and cannot be attached.')).toBeVisible();
      await expect(page.getByRole('list', { name: 'Files to attach' })).toHaveCount(0);
      expect(uploads).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the ticketing API failing shows the spec\'s error text with the support contact, not a blank page', async ({ page }) => {
    await signedIn(page, DEMO_USERS.customer);
    await page.route('**/api/ticketing/graphql', (route) => route.abort('connectionrefused'));
    await page.goto('/en/mykomax/tickets/list');
    const alert = page.getByRole('alert').filter({ hasText: SPEC_ERROR });
    await expect(alert).toBeVisible();
    await expect(alert.getByRole('link', { name: SUPPORT.supportEmail })).toHaveAttribute('href', `mailto:${SUPPORT.supportEmail}`);
    await expect(alert.getByRole('link', { name: SUPPORT.supportPhone })).toHaveAttribute('href', `tel:${SUPPORT.supportPhone.replace(/\s/g, '')}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Service tickets' })).toBeVisible();
    await expectNoAxeViolations(page);

    // A comment failing (the service down) gets the same text, the ticket stays on screen.
    await page.unroute('**/api/ticketing/graphql');
    await page.goto('/en/mykomax/tickets/SR-100004');
    await expect(page.getByRole('button', { name: 'Send comment' })).toBeVisible();
    await page.route('**/api/ticketing/graphql', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'unavailable', message: 'The ticketing service is not reachable right now. Please try again later.' }) }));
    await page.getByLabel('Comment', { exact: true }).fill('Any news?');
    await page.getByRole('button', { name: 'Send comment' }).click();
    await expect(page.getByRole('alert').filter({ hasText: SPEC_ERROR })).toBeVisible();
    await expect(page.getByLabel('Comment', { exact: true })).toHaveValue('Any news?');
  });

  test('another organisation\'s ticket is not shown', async ({ page }) => {
    await signedIn(page, DEMO_USERS.customer);
    await page.goto('/en/mykomax/tickets/SR-100030');
    await expect(page.getByText('Your organisation has no ticket SR-100030.')).toBeVisible();
  });

  test('German pages format dates as de-CH', async ({ page }) => {
    await signedIn(page, DEMO_USERS.customer, 'de');
    await page.goto('/de/mykomax/tickets/list?sort=CREATED_ON&dir=ASC');
    const firstDate = page.locator('tbody tr').first().locator('time');
    await expect(firstDate).toHaveText(/^\d{2}\.\d{2}\.\d{4}$/);
    await expect(page.getByRole('columnheader', { name: /Erstellt am/ })).toHaveAttribute('aria-sort', 'ascending');
  });
});

test.describe('access by role', () => {
  test('Nora (no roles) sees why she cannot use tickets, inventory and wire-flow, and how to get access', async ({ page }) => {
    await signedIn(page, DEMO_USERS.noroles);
    for (const [path, service] of [['/en/mykomax/tickets/list', 'Service tickets'], ['/en/mykomax/inventory', 'Inventory'], ['/en/mykomax/wire-flow', 'wire-flow']] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 2, name: `You have no access to ${service} yet` })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute('href', '/en/mykomax');
    }
    await expectNoAxeViolations(page);
  });
});

test.describe('wire-flow', () => {
  test('Otto (on-prem) gets the download centre: versions, release notes, size, checksum, download', async ({ page }) => {
    await signedIn(page, DEMO_USERS.onprem);
    await page.goto('/en/mykomax/wire-flow');
    const server = page.getByRole('article', { name: 'wire-flow Server' });
    await expect(server.getByRole('heading', { name: /^Latest version: / })).toBeVisible();
    await expect(server.getByText('SHA-256 checksum').first()).toBeVisible();
    const link = server.getByRole('link', { name: /^Download / }).first();
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/ticketing\/download\//);
    const sha = (await server.locator('code').first().textContent())!;
    const res = await page.request.get(href);
    expect(res.status()).toBe(200);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(await res.body()).digest('hex')).toBe(sha);
    await expectNoAxeViolations(page);
  });

  test('Claire (cloud) gets a clear pointer to the cloud service', async ({ page }) => {
    await signedIn(page, DEMO_USERS.customer);
    await page.goto('/en/mykomax/wire-flow');
    await expect(page.getByRole('heading', { name: 'Your wire-flow runs in the cloud' })).toBeVisible();
    await expect(page.getByRole('link', { name: /Open wire-flow cloud/ })).toHaveAttribute('href', 'https://wire-flow.komax.example/app');
    await expect(page.getByRole('link', { name: /^Download / })).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});

// Issue 29 items 17–18: on a phone the ticket list shows each ticket's status without sideways
// scrolling, no customer page scrolls sideways, and none shifts its layout while it loads
// (CLS ≤ 0.1, summed in the browser from the Layout Instability API).
test.describe('on a phone (390 px)', () => {
  const STATUS = /^(New|In progress|Waiting for you|Closed|Unknown)$/;

  test('the ticket list shows every ticket\'s status in the window; the customer pages neither scroll sideways nor shift while loading', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await watchLayoutShifts(page);
    await signedIn(page, DEMO_USERS.customer);
    await page.goto('/en/mykomax/tickets/list');
    const rows = page.getByRole('table', { name: 'Service tickets of your organisation' }).getByRole('row').filter({ has: page.getByRole('rowheader') });
    await expect(rows.first()).toBeVisible();
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.1);
    await expectNoSidewaysScroll(page, 'ticket list');
    const count = await rows.count();
    expect(count).toBeGreaterThan(1);
    for (let i = 0; i < count; i++) {
      const status = rows.nth(i).getByText(STATUS);
      await expect(status).toBeVisible();
      const box = (await status.boundingBox())!;
      expect(box.x, `status of row ${i + 1}`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `status of row ${i + 1}`).toBeLessThanOrEqual(390);
    }

    const pages: [path: string, ready: () => Promise<void>][] = [
      ['/en/mykomax/tickets/newticket', () => expect(page.getByLabel('Location')).toBeVisible()],
      ['/en/mykomax/tickets/SR-100004', () => expect(page.getByRole('button', { name: 'Send comment' })).toBeVisible()],
      ['/en/mykomax/inventory', () => expect(page.getByText(/^\d+ machines$/)).toBeVisible()],
      ['/en/mykomax/inventory/old', () => expect(page.getByText(/^\d+ machines$/)).toBeVisible()],
      ['/en/mykomax/wire-flow', () => expect(page.getByRole('heading', { name: 'Your wire-flow runs in the cloud' })).toBeVisible()],
      ['/en/mykomax/account', () => expect(page.getByLabel('First name')).toBeVisible()],
    ];
    for (const [path, ready] of pages) {
      await page.goto(path);
      await ready();
      expect(await layoutShift(page), `${path}: layout shift`).toBeLessThanOrEqual(0.1);
      await expectNoSidewaysScroll(page, path);
    }
  });

  test('user administration neither scrolls sideways nor shifts while loading', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await watchLayoutShifts(page);
    await signedIn(page, DEMO_USERS.admin);
    await page.goto('/en/mykomax/user-admin');
    await expect(page.getByText(/^\d+ users$/)).toBeVisible();
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.1);
    await expectNoSidewaysScroll(page, 'user list');
    await page.getByRole('table').getByRole('link').first().click();
    await expect(page.getByRole('heading', { name: 'Application access' })).toBeVisible();
    expect(await layoutShift(page)).toBeLessThanOrEqual(0.1);
    await expectNoSidewaysScroll(page, 'user detail');
  });
});
