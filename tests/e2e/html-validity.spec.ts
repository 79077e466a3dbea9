import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { test, expect, raw } from './fixtures/index.ts';
import { DEMO_USERS, signedIn } from './fixtures/identity.ts';
import { signInAsEditor } from './fixtures/editor.ts';
import { ensureJava, NO_JAVA_MESSAGE, reportErrors, runVnu, vnuJar } from '../../scripts/vnu.ts';

// Issue 29 item 21: every page type passes the W3C Nu HTML checker with zero errors. One HTML of
// each page type is collected (the public ones as the server sends them, from every host; the
// customer area and the editor area also as the signed-in browser shows them, islands rendered),
// written to a temporary folder and checked in ONE run of the checker (the JVM start is the cost).
// Only messages where the checker lags behind a standard are left out (scripts/vnu.ts).

/** Public page types by host: [name, path]. */
const PUBLIC: Record<string, [string, string][]> = {
  localhost: [
    ['home', '/en'],
    ['home-country', '/de-ch'],
    ['content', '/en/about-us'],
    ['content-child', '/en/about-us/history'],
    ['catalogue-products', '/en/products'],
    ['catalogue-classification', '/en/products/wire-processing'],
    ['catalogue-product', '/en/products/wire-processing/cut-strip/kappa-310'],
    ['catalogue-services', '/en/services'],
    ['catalogue-service', '/en/services/maintenance-repair/preventive-maintenance/machine-calibration'],
    ['comparison', '/en/comparison'],
    ['search', '/en/search'],
    ['search-results', '/en/search?q=harness'],
    ['stories', '/en/stories'],
    ['story-contacts', '/en/stories/contacts'],
    ['media-releases', '/en/media-releases'],
    ['investors', '/en/investors'],
    ['locations', '/en/locations'],
    ['form-contact', '/en/forms/contact'],
    ['form-service-request', '/en/forms/serviceRequest'],
    ['form-whitepaper', '/en/forms/whitepaper'],
    ['form-open-source', '/en/forms/openSource'],
    ['protected-page', '/en/productronica/internal'],
    ['not-found', '/en/no-such-page'],
    ['sign-in-error', '/en/error'],
    ['callback', '/en/callback'],
    ['blank-callback', '/blank-callback'],
    ['customer-area-shell', '/en/mykomax'],
    ['logout', '/en/mykomax/logout'],
    ['editor-sign-in', '/en/editor'],
    ['style-guide', '/style-guide'],
    ['style-guide-buttons', '/style-guide/buttons'],
    ['style-guide-components', '/style-guide/components'],
    ['style-guide-inputs', '/style-guide/inputs'],
    ['style-guide-modules', '/style-guide/modules'],
    ['style-guide-typography', '/style-guide/typography'],
    ['style-guide-error', '/style-guide/pages/error'],
    ['style-guide-email-links', '/style-guide/tools/email-links'],
    ['brand-portal', '/en/brand-portal'],
    ['brand-portal-page', '/en/brand-portal/logos'],
    ['site-without-english', '/de/lehrstellen'],
  ],
  'events.localhost': [['home', '/en'], ['home-added-language', '/es'], ['content', '/en/webinars'], ['search', '/en/search'], ['not-found', '/en/no-such-page']],
  'partner.localhost': [['home', '/en'], ['content', '/en/certification'], ['not-found', '/en/no-such-page']],
};

/** Detail pages reached from their list (the demo data may rename them): [name, list path, link pattern]. */
const DETAILS: [string, string, RegExp][] = [
  ['story', '/en/stories', /href="(\/en\/stories\/(?!contacts)[a-z0-9-]+)"/],
  ['story-contact', '/en/stories/contacts', /href="(\/en\/stories\/contacts\/[a-z0-9-]+)"/],
  ['media-release', '/en/media-releases', /href="(\/en\/media-releases\/[a-z0-9-]+)"/],
];

/** Statuses a page may answer with: its own, or the 404 page. */
const statusOf = (name: string) => (name === 'not-found' ? 404 : 200);

/** The page as the signed-in browser shows it, once `ready` is visible and nothing is busy. */
async function rendered(page: Page, path: string, ready: (page: Page) => Locator): Promise<string> {
  await page.goto(path);
  await expect(ready(page).first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  return page.content();
}

test('every page type passes the Nu HTML checker with zero errors', async ({ browser }) => {
  // Sign-ins, ~70 pages and one checker run over all of them on a busy machine: a long test.
  test.slow();
  const java = ensureJava();
  expect(java, NO_JAVA_MESSAGE).not.toBeNull();
  const dir = mkdtempSync(join(tmpdir(), 'kmx-html-validity-'));
  const files = new Map<string, string>();
  const save = (name: string, html: string) => {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, html);
    files.set(`file:${file}`, name);
  };
  try {
    for (const [host, pages] of Object.entries(PUBLIC)) {
      for (const [name, path] of pages) {
        const res = await raw(path, { host });
        expect(res.status, `${host}${path}`).toBe(statusOf(name));
        save(`${host}--${name}`, res.text);
      }
    }
    for (const [name, list, link] of DETAILS) {
      const path = link.exec((await raw(list)).text)?.[1];
      expect(path, `a link to a ${name} on ${list}`).toBeTruthy();
      const res = await raw(path!);
      expect(res.status, path).toBe(200);
      save(`localhost--${name}`, res.text);
    }
    // The customer-area shell as the server sends it, for every route of the area.
    for (const path of ['/en/mykomax/account', '/en/mykomax/tickets/list', '/en/mykomax/tickets/newticket', '/en/mykomax/tickets/SR-100004', '/en/mykomax/inventory', '/en/mykomax/inventory/old', '/en/mykomax/wire-flow', '/en/mykomax/user-admin', '/en/mykomax/user-admin/7f3c2a10-5b1e-4c6a-9d2e-1a0000000001']) {
      const res = await raw(path);
      expect(res.status, path).toBe(200);
      save(`localhost--shell${path.replaceAll('/', '-')}`, res.text);
    }

    // The customer area signed in: a customer's services, an administrator's user administration.
    const customer = await browser.newContext();
    try {
      const page = await customer.newPage();
      await signedIn(page, DEMO_USERS.customer);
      save('mykomax-dashboard', await rendered(page, '/en/mykomax', (p) => p.getByRole('list', { name: 'Your services' }).getByRole('listitem')));
      save('mykomax-account', await rendered(page, '/en/mykomax/account', (p) => p.getByRole('form', { name: 'Profile' }).getByLabel('First name')));
      save('mykomax-tickets', await rendered(page, '/en/mykomax/tickets/list', (p) => p.getByRole('link', { name: /SR-\d+/ })));
      save('mykomax-ticket', await rendered(page, '/en/mykomax/tickets/SR-100004', (p) => p.getByRole('button', { name: 'Send comment' })));
      save('mykomax-new-ticket', await rendered(page, '/en/mykomax/tickets/newticket', (p) => p.getByLabel('Location')));
      save('mykomax-inventory', await rendered(page, '/en/mykomax/inventory', (p) => p.getByRole('status').filter({ hasText: /^\d+ machines$/ })));
      save('mykomax-inventory-old', await rendered(page, '/en/mykomax/inventory/old', (p) => p.getByRole('columnheader', { name: 'Serial number' })));
      save('mykomax-wire-flow', await rendered(page, '/en/mykomax/wire-flow', (p) => p.getByRole('heading', { level: 2 })));
    } finally {
      await customer.close();
    }
    const admin = await browser.newContext();
    try {
      const page = await admin.newPage();
      await signedIn(page, DEMO_USERS.admin);
      const users = (p: Page) => p.getByRole('table', { name: 'Users' }).getByRole('link');
      save('mykomax-user-admin', await rendered(page, '/en/mykomax/user-admin', users));
      const user = await users(page).first().getAttribute('href');
      save('mykomax-user-admin-user', await rendered(page, user!, (p) => p.getByRole('heading', { name: 'Application access' })));
    } finally {
      await admin.close();
    }

    // The editor area and the draft preview, signed in as an editor.
    const editor = await browser.newContext();
    try {
      await signInAsEditor(editor);
      const page = await editor.newPage();
      save('editor-area', await rendered(page, '/en/editor?site=site-main&lang=en&stage=PUBLISHED', (p) => p.getByRole('heading', { level: 1 })));
      save('draft-preview', await rendered(page, '/en/about-us?preview=DRAFT', (p) => p.getByRole('heading', { level: 1 })));
    } finally {
      await editor.close();
    }

    const errors = reportErrors(runVnu(java!, vnuJar(), [...files.keys()].map((url) => url.slice('file:'.length))));
    const shown = errors.map((m) => `${files.get(m.url ?? '') ?? m.url} (line ${m.lastLine ?? '?'}): ${m.message}${m.extract ? `  [${m.extract.replace(/\s+/g, ' ').trim()}]` : ''}`);
    expect(shown).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
