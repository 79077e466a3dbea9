import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations, raw, PORT, REVALIDATE_SECRET } from './fixtures/index.ts';
import { formatReading } from '../../src/i18n/format.ts';

/** The catalogue emulator of this run (playwright.config.ts: CATALOGUE_PORT = E2E_PORT - 201). */
const CATALOGUE = `http://127.0.0.1:${PORT - 201}/graphql`;

const KAPPA_310 = '/en/products/wire-processing/cut-strip/kappa-310';
const KAPPA_320 = '/en/products/wire-processing/cut-strip/kappa-320';
const ALPHA_550 = '/en/products/wire-processing/crimping/alpha-550';

interface RawSpec {
  name: string;
  value: string;
  units: { dim_metric: { value: string; unit: string } | null; dim_imperial: { value: string; unit: string } | null } | null;
}

/** A product's specifications straight from the catalogue: the oracle the page is checked against. */
async function specsOf(slug: string): Promise<RawSpec[]> {
  const res = await fetch(CATALOGUE, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'query($slug: String!) { product(language: "en", slug: $slug) { specifications { name value units { dim_metric { value unit } dim_imperial { value unit } } } } }',
      variables: { slug },
    }),
  });
  return ((await res.json()) as { data: { product: { specifications: RawSpec[] } } }).data.product.specifications;
}

/** What the technical data table must show in a system: that system's reading (or the plain value) in the English number format, duplicates dropped. */
function expectedRows(specs: RawSpec[], system: 'dim_metric' | 'dim_imperial'): { name: string; text: string }[] {
  const seen = new Set<string>();
  const out: { name: string; text: string }[] = [];
  for (const s of specs) {
    const reading = s.units ? s.units[system] : { value: s.value, unit: '' };
    if (!reading) continue;
    const key = `${s.name}|${reading.unit}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ name: s.name, text: `${formatReading(reading.value, 'en')} ${reading.unit}`.trim() });
  }
  return out;
}

async function expectTechnicalData(page: Page, slug: string, system: 'dim_metric' | 'dim_imperial') {
  const rows = expectedRows(await specsOf(slug), system);
  const table = page.getByRole('table', { name: 'Technical data' });
  await expect(table.getByRole('rowheader')).toHaveText(rows.map((r) => r.name));
  await expect(table.getByRole('cell')).toHaveText(rows.map((r) => r.text));
}

/** The comparison section of a classification (a region named by its heading). */
const group = (page: Page, name: string): Locator => page.getByRole('region', { name, exact: true });

test.describe('product catalogue', () => {
  test('a product page is three clicks away from the home page', async ({ page, consoleErrors }) => {
    await page.goto('/en');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('button', { name: 'Solutions' }).click();
    await nav.getByRole('link', { name: 'All products' }).click();
    await expect(page).toHaveURL(/\/en\/products$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
    await page.getByRole('link', { name: 'Kappa 310', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${KAPPA_310}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Kappa 310' })).toBeVisible();
    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link')).toHaveText(['Home', 'Products', 'Wire processing', 'Cut & strip machines']);
    await expect(crumbs.getByText('Kappa 310')).toHaveAttribute('aria-current', 'page');
    void consoleErrors;
  });

  test('products are one click from the home page and from the main navigation', async ({ page }) => {
    await page.goto('/en');
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Products', exact: true })).toHaveAttribute('href', '/en/products');
    await page.getByRole('main').getByRole('link', { name: 'Kappa 310', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${KAPPA_310}$`));
  });

  test('a product page offers a quote: the contact form with the product and topic filled in, in the panel and without JavaScript', async ({ page, browser, consoleErrors }) => {
    await page.goto(KAPPA_310);
    const quote = page.getByRole('main').getByRole('link', { name: 'Request a quote' });
    await expect(quote).toHaveAttribute('href', `/en/forms/contact?topic=products&product=Kappa+310&from=${encodeURIComponent(KAPPA_310)}`);
    await quote.click();
    const dialog = page.getByRole('dialog', { name: 'Talk to an Expert' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('textbox', { name: 'Product', exact: true })).toHaveValue('Kappa 310');
    await expect(dialog.getByRole('combobox', { name: 'Topic' })).toHaveValue('products');
    await expect(page).toHaveURL(new RegExp(`${KAPPA_310}$`));
    expect(consoleErrors).toEqual([]);

    const context = await browser.newContext({ javaScriptEnabled: false });
    const plain = await context.newPage();
    await plain.goto(ALPHA_550);
    await plain.getByRole('main').getByRole('link', { name: 'Request a quote' }).click();
    await expect(plain).toHaveURL(/\/en\/forms\/contact\?/);
    await expect(plain.getByRole('textbox', { name: 'Product', exact: true })).toHaveValue('Alpha 550');
    await expect(plain.getByRole('combobox', { name: 'Topic' })).toHaveValue('products');
    await expect(plain.getByRole('link', { name: 'Back to the previous page' })).toHaveAttribute('href', ALPHA_550);
    await context.close();
  });

  test('classification pages list children and products; services have their own catalogue', async ({ page }) => {
    await page.goto('/en/products/wire-processing');
    await expect(page.getByRole('heading', { level: 1, name: 'Wire processing' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Cut & strip machines' }).first()).toBeVisible();
    await expect(page.getByRole('heading', { level: 4, name: 'Alpha 550' })).toBeVisible();
    await page.goto('/en/services');
    await page.getByRole('link', { name: 'Maintenance contract Basic', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Maintenance contract Basic' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Benefits' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Predictable costs' })).toBeVisible();
  });

  test('a product link from content (/products/{slug}) is a 302 to the canonical route', async () => {
    const res = await raw('/en/products/kappa-310');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(KAPPA_310);
    const withQuery = await raw('/en/products/kappa-310?utm_source=newsletter');
    expect(withQuery.headers.location).toBe(`${KAPPA_310}?utm_source=newsletter`);
    const service = await raw('/de/services/maintenance-contract-basic');
    expect(service.status).toBe(302);
    expect(service.headers.location).toBe('/de/services/maintenance-repair/preventive-maintenance/maintenance-contract-basic');
    expect((await raw('/en/products/no-such-product')).status).toBe(404);
    expect((await raw('/en/products/Not_A_Slug')).status).toBe(404);
  });

  test('the catalogue exists on the main site only: a catalogue path of another site leads there (spec 2.1, issue 29 item 9)', async () => {
    const events = await raw('/en/products', { host: 'events.localhost' });
    expect([events.status, events.headers.location]).toEqual([302, `http://localhost:${PORT}/en/products`]);
    const brandPortal = await raw('/en/brand-portal/products');
    expect([brandPortal.status, brandPortal.headers.location]).toEqual([302, '/en/products']);
    expect((await raw('/en/comparison', { host: 'partner.localhost' })).status).toBe(404);
  });

  test('a product offered in other countries only is missing under /de-ch and present under /en-us', async ({ page }) => {
    await page.goto('/de-ch/products/wire-processing/cut-strip');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Kappa 310', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Kappa 242 US' })).toHaveCount(0);
    expect((await page.goto('/de-ch/products/wire-processing/cut-strip/kappa-242-us'))?.status()).toBe(404);

    await page.goto('/en-us/products/wire-processing/cut-strip');
    await page.getByRole('link', { name: 'Kappa 242 US' }).click();
    await expect(page).toHaveURL(/\/en-us\/products\/wire-processing\/cut-strip\/kappa-242-us$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Kappa 242 US' })).toBeVisible();
  });
});

test.describe('technical data', () => {
  test('switching to imperial changes every specification on this page and the next', async ({ page, consoleErrors }) => {
    await page.goto(KAPPA_310);
    await expectTechnicalData(page, 'kappa-310', 'dim_metric');
    // The island hydrates on this first click and replays it (client:interaction): checked once live.
    await page.getByRole('radio', { name: 'Imperial' }).click();
    await expect(page.getByRole('radio', { name: 'Imperial' })).toBeChecked();
    await expectTechnicalData(page, 'kappa-310', 'dim_imperial');
    await expect(page.getByRole('heading', { name: 'Kappa 310 (AWG 30–14)' })).toBeVisible();

    await page.getByRole('link', { name: 'Kappa 320', exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`${KAPPA_320}$`));
    await expect(page.getByRole('radio', { name: 'Imperial' })).toBeChecked();
    await expectTechnicalData(page, 'kappa-320', 'dim_imperial');
    expect(await page.evaluate(() => localStorage.getItem('komax.measurement'))).toBe('Imperial');
    void consoleErrors;
  });

  test('the server renders the saved choice', async () => {
    // ?cache=false renders on demand only for an operator (the revalidation secret).
    const url = `${KAPPA_320}?cache=false`;
    const operator = { 'x-revalidate-secret': REVALIDATE_SECRET };
    const imperial = await raw(url, { headers: { ...operator, cookie: 'measurement=Imperial' } });
    const metric = await raw(url, { headers: { ...operator, cookie: 'measurement=Metric' } });
    expect(imperial.status).toBe(200);
    // The reading in the page's number format, bound to its unit by a no-break space.
    expect(imperial.text).toMatch(/<th scope="row">Weight<\/th><td><span class="spec-table__value">[\d,]+<\/span>(?:&nbsp;|\u00a0)<span class="spec-table__unit">lb<\/span>/);
    expect(metric.text).toMatch(/<th scope="row">Weight<\/th><td><span class="spec-table__value">[\d,]+<\/span>(?:&nbsp;|\u00a0)<span class="spec-table__unit">kg<\/span>/);
    // The brand's image (spec §9: height 96, quality 100) above the product's name.
    const logo = /<img[^>]*class="brand-image product-hero__brand"[^>]*>/.exec(metric.text)?.[0] ?? '';
    expect(logo).toMatch(/src="\/_image\?[^"]*[?&;]h=96&/);
    expect(logo).toMatch(/src="\/_image\?[^"]*[?&;]q=100[&"]/);
    // Both systems are in the HTML (the other one hidden by CSS): the saved one is the checked radio.
    expect(imperial.text).toMatch(/<input type="radio" name="[\w-]+" value="Imperial" checked>/);
    expect(metric.text).toMatch(/<input type="radio" name="[\w-]+" value="Metric" checked>/);
  });
});

test.describe('comparison', () => {
  test('three products from two classifications: reload, compare, hide identical, change a variant, share, download', async ({ page, browser, consoleErrors }) => {
    for (const [path, name] of [[KAPPA_310, 'Kappa 310'], [KAPPA_320, 'Kappa 320'], [ALPHA_550, 'Alpha 550']] as const) {
      await page.goto(path);
      await page.getByRole('button', { name: 'Add to comparison' }).click();
      await expect(page.getByRole('status').filter({ hasText: `${name} was added to the comparison.` })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Remove from comparison' })).toBeVisible();
    }
    await page.reload();
    await page.getByRole('button', { name: 'Compare (3)' }).click();
    const drawer = page.getByRole('dialog', { name: 'Comparison', exact: true });
    await expect(drawer.getByRole('heading', { level: 3 })).toHaveText(['Cut & strip machines', 'Crimping machines']);
    await expect(drawer.getByRole('link', { name: 'Kappa 320' })).toBeVisible();
    await drawer.getByRole('link', { name: 'Compare products' }).click();
    await expect(page).toHaveURL(/\/en\/comparison$/);

    const cut = group(page, 'Cut & strip machines');
    const crimping = group(page, 'Crimping machines');
    await expect(cut.getByRole('columnheader')).toHaveCount(3);
    await expect(cut.getByRole('link', { name: 'Kappa 310' })).toBeVisible();
    await expect(crimping.getByRole('switch', { name: 'Hide identical specifications' })).toBeDisabled();

    const rows = cut.getByRole('row');
    const all = await rows.count();
    await cut.getByRole('switch', { name: 'Hide identical specifications' }).check();
    await expect.poll(() => rows.count()).toBeLessThan(all);
    // Every row left (but the header row) is marked as differing.
    await expect(cut.getByRole('rowheader')).toHaveText(Array(await cut.getByRole('rowheader').count()).fill(/Differs$/));

    await cut.getByRole('switch', { name: 'Hide identical specifications' }).uncheck();
    const variant = cut.getByRole('combobox', { name: 'Variant of Kappa 310' });
    await variant.selectOption({ label: 'Kappa 310 (0.5–6 mm²)' });
    const crossSection = cut.getByRole('row', { name: /^Wire cross-section/ });
    await expect(crossSection.getByRole('cell').first()).toHaveText('0.5 – 6 mm²');

    const link = await page.getByRole('textbox', { name: 'Link to this comparison' }).inputValue();
    expect(link).toContain('basket=');

    const downloading = page.waitForEvent('download');
    await cut.getByRole('button', { name: /^Download CSV\s*: Cut & strip machines$/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('comparison-cut-strip-machines.csv');
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('\uFEFFSpecification,Kappa 310,Kappa 320');
    expect(csv).toContain('Variant,Kappa 310 (0.5–6 mm²),');
    expect(csv).toContain('Wire cross-section,0.5 – 6\u00a0mm²,');

    // The link opens the same comparison in a browser that has never seen the basket.
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await other.goto(link);
    const shared = group(other, 'Cut & strip machines');
    await expect(shared.getByRole('link', { name: /^Kappa 3[12]0$/ })).toHaveText(['Kappa 310', 'Kappa 320']);
    await expect(group(other, 'Crimping machines').getByRole('link', { name: 'Alpha 550' })).toBeVisible();
    await expect(shared.getByRole('combobox', { name: 'Variant of Kappa 310' })).toHaveValue(await variant.inputValue());
    await expect(shared.getByRole('row', { name: /^Wire cross-section/ }).getByRole('cell').first()).toHaveText('0.5 – 6 mm²');
    await expect(other).toHaveURL(/\/en\/comparison$/);
    await fresh.close();
    void consoleErrors;
  });

  test('unreadable basket storage is discarded', async ({ page }) => {
    await page.goto('/en/comparison');
    await page.evaluate(() => localStorage.setItem('komax.comparison-basket', '{not json'));
    await page.reload();
    await expect(page.getByText('Your comparison is empty.')).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('komax.comparison-basket'))).toBeNull();
  });

  test('the comparison API answers bad input with 400 and a clear message', async () => {
    const res = await raw('/api/catalogue/comparison?language=xx&slugs=kappa-310');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ error: 'bad-request', message: expect.stringMatching(/^language must be one of en, cs, de/) });
    const ok = await raw('/api/catalogue/comparison?language=en&slugs=kappa-310');
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text).products[0].name).toBe('Kappa 310');
  });
});

test.describe('images', () => {
  test('are made once and then served from the disk cache with long-lived headers', async () => {
    const html = (await raw(KAPPA_310)).text;
    // The product's own image (the header's mega menu has images of its own before it).
    const src = html.match(/src="(\/_image\?[^"]+w=480&amp;h=480[^"]*)"/)![1]!.replace(/&amp;/g, '&');
    expect(src).toMatch(/w=480&h=480&q=90&f=webp/);
    const first = await raw(src);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('image/webp');
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await expect.poll(async () => (await raw(src)).headers['x-image-cache']).toBe('hit');
  });
});

test.describe('accessibility', () => {
  test('classification, product and comparison pages have no axe violations', async ({ page }) => {
    await page.goto('/en/products/wire-processing/cut-strip');
    await expectNoAxeViolations(page);
    await page.goto(KAPPA_310);
    await expect(page.getByRole('button', { name: 'Add to comparison' })).toBeEnabled();
    await expectNoAxeViolations(page);
    // The button is server HTML that hydrates on the click; the product is stored once it says so.
    await page.getByRole('button', { name: 'Add to comparison' }).click();
    await expect(page.getByRole('button', { name: 'Remove from comparison' })).toBeVisible();
    await page.goto(KAPPA_320);
    await page.getByRole('button', { name: 'Add to comparison' }).click();
    await expect(page.getByRole('button', { name: 'Remove from comparison' })).toBeVisible();
    await page.goto('/en/comparison');
    await expect(group(page, 'Cut & strip machines').getByRole('link', { name: 'Kappa 320' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
