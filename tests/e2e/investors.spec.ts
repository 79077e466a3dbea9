import { readFile } from 'node:fs/promises';
import { test, expect, expectNoAxeViolations, raw } from './fixtures/index.ts';

// Investor relations (issue 14, spec public-site §2.5, §9): the investor tables as content modules
// rendered on the server and prerendered, figures in the page locale (German as de-CH), charts as
// SVG without JavaScript with table alternatives, the financial calendar with the spec's three
// dates, each an .ics download, and the annual report card. Expectations are the demo content of
// emulators/data/content/pages.json (page cmzufet1t9mqiif4fivkbsq54) and the spec, written out.

const PAGE_ID = 'cmzufet1t9mqiif4fivkbsq54';
const SECTIONS = ['Dividend policy', 'Share distribution', 'Key data', 'Share price', 'Total return', 'Shareholders', 'Financial calendar', 'Annual figures'];
/** The spec's financial calendar (§9), with the day written in the page's format. */
const EVENTS = [
  { id: 'annual-results-2023', dtstart: '20230314', iso: '2023-03-14', en: { title: 'Annual results conference', date: 'March 14, 2023' }, de: { title: 'Bilanzmedienkonferenz', date: '14. März 2023' } },
  { id: 'general-meeting-2023', dtstart: '20230412', iso: '2023-04-12', en: { title: 'Annual General Meeting', date: 'April 12, 2023' }, de: { title: 'Generalversammlung', date: '12. April 2023' } },
  { id: 'half-year-results-2023', dtstart: '20230817', iso: '2023-08-17', en: { title: 'Half-year results', date: 'August 17, 2023' }, de: { title: 'Halbjahresergebnis', date: '17. August 2023' } },
];
const icsPath = (id: string, locale: string) => `/api/investors/calendar/${PAGE_ID}/${id}.ics?l=${locale}`;

test.describe('investor relations page', () => {
  test('/en/investors is prerendered and shows the eight investor sections with the spec’s calendar dates', async ({ page, consoleErrors }) => {
    const res = await page.goto('/en/investors');
    expect(res?.status()).toBe(200);
    expect(res?.headers()['x-render']).toBe('prerendered');
    const main = page.getByRole('main');
    for (const name of SECTIONS) await expect(main.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
    for (const name of SECTIONS) await expect(main.getByRole('region', { name, exact: true })).toBeVisible();

    const calendar = main.getByRole('region', { name: 'Financial calendar', exact: true }).getByRole('listitem');
    // The spec's three dates are the past of the demo; the last three are ahead of the day of the
    // run (the content hub emulator dates them from today: emulators/content-hub/demo-dates.ts).
    await expect(calendar).toHaveCount(8);
    const dates = await calendar.locator('time').evaluateAll((times) => times.map((t) => t.getAttribute('datetime') ?? ''));
    expect(dates).toEqual([...dates].sort());
    const today = new Date().toISOString().slice(0, 10);
    expect(dates.slice(-3).filter((d) => d > today)).toHaveLength(3);
    for (const [i, e] of EVENTS.entries()) {
      const item = calendar.nth(i);
      await expect(item.getByRole('heading', { level: 3 })).toHaveText(e.en.title);
      await expect(item.locator(`time[datetime="${e.iso}"]`)).toHaveText(e.en.date);
      await expect(item.getByRole('link', { name: `Add to calendar: ${e.en.title} on ${e.en.date}, .ics file` })).toHaveAttribute('href', icsPath(e.id, 'en'));
    }
    // The old rich-text calendar with other dates is gone.
    await expect(main.getByText('2026 – Annual General Meeting')).toHaveCount(0);

    // Annual figures: five years side by side.
    const figures = main.getByRole('table', { name: 'Annual figures' });
    // The five financial years up to the one the media releases last reported (2025).
    await expect(figures.getByRole('columnheader')).toHaveText(['Key figure', '2021', '2022', '2023', '2024', '2025']);
    await expect(figures.getByRole('row', { name: /^Net sales/ }).getByRole('cell')).toHaveText(['423.5', '598.4', '714.3', '697.9', '742.6']);
    expect(consoleErrors).toEqual([]);
  });

  test('/de/investors formats numbers, amounts, percentages and dates as de-CH', async ({ page }) => {
    await page.goto('/de/investors');
    const main = page.getByRole('main');
    const keyData = main.getByRole('table', { name: 'Aktienkennzahlen' });
    await expect(keyData.getByRole('row', { name: /^Ausgegebene Namenaktien/ }).getByRole('cell')).toHaveText('5’134’862');
    await expect(keyData.getByRole('row', { name: /^Börsenkapitalisierung/ }).getByRole('cell')).toHaveText('826.7');
    await expect(keyData.getByRole('row', { name: /^Schlusskurs/ }).getByRole('cell')).toHaveText(/^CHF\s161\.00$/);
    const figures = main.getByRole('table', { name: 'Mehrjahresübersicht' });
    await expect(figures.getByRole('row', { name: /^Mitarbeitende/ }).getByRole('cell')).toHaveText(['2’315', '3’368', '3’420', '3’350', '3’400']);
    await expect(figures.getByRole('row', { name: /^EBIT-Marge/ }).getByRole('cell').first()).toHaveText('9.9%');
    await expect(main.getByRole('table', { name: 'Aktienverteilung' }).getByRole('rowheader').nth(2)).toHaveText('1’001–10’000');
    for (const e of EVENTS) await expect(main.locator(`time[datetime="${e.iso}"]`)).toHaveText(e.de.date);
    await expect(main.getByText('Stand 31. Dezember 2025').first()).toBeVisible();
  });

  test('without JavaScript the charts are SVG images with names, descriptions and table alternatives', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/en/investors');
    const main = page.getByRole('main');

    const price = main.getByRole('img', { name: 'Share price', exact: true });
    await expect(price).toBeVisible();
    await expect(price).toHaveAccessibleDescription(/^Line chart of the monthly closing price from Jan 2024 to Dec 2025: CHF\s198\.00 at the start, CHF\s161\.00 at the end, lowest CHF\s112\.50 \(Apr 2025\), highest CHF\s198\.00 \(Jan 2024\)\.$/);
    expect(await price.evaluate((svg) => svg.tagName.toLowerCase())).toBe('svg');
    // Two lines told apart by dash and marker, not only colour; the legend names them in text.
    const total = main.getByRole('img', { name: 'Total return', exact: true });
    await expect(total).toHaveAccessibleDescription(/Komax registered share: from 100\.0 to 82\.8.*Swiss Performance Index \(SPI\): from 100\.0 to 118\.2/);
    const dashes = await total.locator('.ir-chart__line').evaluateAll((paths) => paths.map((p) => p.getAttribute('stroke-dasharray')));
    expect(dashes).toEqual([null, '10 6']);
    await expect(main.getByRole('list', { name: 'Legend' }).nth(1).getByRole('listitem')).toHaveText(['Komax registered share', 'Swiss Performance Index (SPI)']);

    // The figures behind each chart, in a table that opens without script (a native <details>).
    const priceSection = main.getByRole('region', { name: 'Share price', exact: true });
    await priceSection.getByText('Show the figures as a table').click();
    const priceTable = priceSection.getByRole('table', { name: 'Share price' });
    await expect(priceTable.getByRole('row')).toHaveCount(25);
    await expect(priceTable.getByRole('row').nth(1)).toHaveText(/Jan 2024\s*CHF\s198\.00/);
    await expect(priceTable.getByRole('row').last()).toHaveText(/Dec 2025\s*CHF\s161\.00/);
    const totalSection = main.getByRole('region', { name: 'Total return', exact: true });
    await totalSection.getByText('Show the figures as a table').click();
    const totalTable = totalSection.getByRole('table', { name: 'Total return' });
    await expect(totalTable.getByRole('columnheader')).toHaveText(['Month', 'Komax registered share', 'Swiss Performance Index (SPI)']);
    await expect(totalTable.getByRole('row')).toHaveCount(26);
    await context.close();
  });

  test('each calendar event downloads as an .ics file with the right all-day date, in the page language', async ({ page }) => {
    for (const e of EVENTS) {
      for (const [locale, lang, texts] of [['en', 'en', e.en], ['de-ch', 'de', e.de]] as const) {
        const res = await raw(icsPath(e.id, locale));
        expect(res.status, `${e.id} ${locale}`).toBe(200);
        expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
        expect(res.headers['content-disposition']).toBe(`attachment; filename="${e.id}.ics"`);
        const lines = res.text.split('\r\n');
        expect(res.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
        expect(lines.slice(0, 2)).toEqual(['BEGIN:VCALENDAR', 'VERSION:2.0']);
        expect(lines).toContain(`DTSTART;VALUE=DATE:${e.dtstart}`);
        expect(lines).toContain(`SUMMARY;LANGUAGE=${lang}:${texts.title}`);
        expect(lines.find((l) => l.startsWith('UID:'))).toBe(`UID:${e.id}.${PAGE_ID}@localhost`);
        expect(lines.find((l) => l.startsWith('DTSTAMP:'))).toMatch(/^DTSTAMP:\d{8}T\d{6}Z$/);
        expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
      }
    }
    // The link on the page downloads the file.
    await page.goto('/de/investors');
    const link = page.getByRole('link', { name: 'Zum Kalender hinzufügen: Generalversammlung am 12. April 2023, .ics-Datei' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toBe('general-meeting-2023.ics');
    const body = await readFile((await download.path())!, 'utf8');
    expect(body).toContain('DTSTART;VALUE=DATE:20230412\r\n');
    expect(body).toContain('LOCATION;LANGUAGE=de:KKL Luzern\\, Luzern\\, Schweiz\r\n');
  });

  test('the calendar endpoint refuses bad and unknown events clearly', async () => {
    const bad = await raw(`/api/investors/calendar/${PAGE_ID}/Bad_Id.ics`);
    expect([bad.status, bad.text]).toEqual([400, 'Invalid event id']);
    const unknown = await raw(`/api/investors/calendar/${PAGE_ID}/no-such-event.ics`);
    expect([unknown.status, unknown.text]).toEqual([404, 'Event not found']);
    // A page without a calendar has no events.
    const otherPage = await raw('/api/investors/calendar/cm5jglt3pytja09q8bdj5zz02/general-meeting-2023.ics');
    expect(otherPage.status).toBe(404);
  });

  test('the annual report is a download card with its 128×180 thumbnail in webp and png', async ({ page, request }) => {
    await page.goto('/en/investors');
    const card = page.getByRole('region', { name: 'Annual report', exact: true });
    await expect(card.getByRole('heading', { level: 3, name: 'Annual report 2025' })).toBeVisible();
    await expect(card.getByText('PDF, 12.9 MB · EN')).toBeVisible();
    const source = card.locator('picture source[type="image/webp"]');
    const img = card.locator('picture img');
    await expect(img).toHaveAttribute('width', '128');
    await expect(img).toHaveAttribute('height', '180');
    const webp = new URL((await source.getAttribute('srcset'))!, 'http://x');
    const png = new URL((await img.getAttribute('src'))!, 'http://x');
    expect([webp.searchParams.get('w'), webp.searchParams.get('h'), webp.searchParams.get('f')]).toEqual(['128', '180', 'webp']);
    expect([png.searchParams.get('w'), png.searchParams.get('h'), png.searchParams.get('f')]).toEqual(['128', '180', 'png']);
    expect((await request.get(png.pathname + png.search)).headers()['content-type']).toBe('image/png');
    expect((await request.get(webp.pathname + webp.search)).headers()['content-type']).toBe('image/webp');
    const link = card.getByRole('link', { name: /Download — Download annual-report-2025\.pdf/ });
    await expect(link).toHaveAttribute('href', '/file/annual-report-2025');
    const file = await request.get('/file/annual-report-2025');
    expect([file.status(), file.headers()['content-type']]).toEqual([200, 'application/pdf']);
  });

  for (const path of ['/en/investors', '/de/investors']) {
    test(`${path} has no axe violations (with the chart tables open)`, async ({ page }) => {
      await page.goto(path);
      for (const summary of await page.locator('.ir-chart__data summary').all()) await summary.click();
      await expectNoAxeViolations(page);
    });
  }

  test('the investor texts are found by the site search', async ({ page }) => {
    await page.goto('/en/search?q=Seetal%20Industrieholding');
    await expect(page.locator('.search-result').getByRole('link', { name: 'Investors' }).first()).toBeVisible();
    await page.goto('/de/search?q=Bilanzmedienkonferenz');
    await expect(page.locator('.search-result').getByRole('link', { name: 'Investoren' }).first()).toBeVisible();
  });

  for (const width of [1280, 390]) {
    test(`at ${width} px the page does not scroll sideways; wide tables scroll in named, focusable regions`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/en/investors');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      const regions = page.locator('.ir-scroll');
      expect(await regions.count()).toBeGreaterThanOrEqual(6);
      for (const region of await regions.all()) {
        await expect(region).toHaveAttribute('tabindex', '0');
        await expect(region).toHaveAttribute('aria-label', /\(table, scrolls sideways\)$/);
      }
      const figures = page.getByRole('region', { name: 'Annual figures (table, scrolls sideways)' });
      const overflow = await figures.evaluate((el) => el.scrollWidth > el.clientWidth);
      // On a phone the five years do not fit: the table scrolls inside its region, not the page.
      expect(overflow).toBe(width < 600);
      await page.screenshot({ path: testInfo.outputPath(`investors-${width}.png`), fullPage: true });
    });
  }
});
