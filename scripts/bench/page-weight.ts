// npm run bench:page-weight [-- http://localhost:4321]: the JavaScript each kind of page loads,
// gzipped, and its first round trip (HTML + render-blocking stylesheets, gzipped), measured in the
// system Chromium against a running server (npm start). Prints a table with the budgets beside the
// numbers (issue 9); never fails on a number.
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const origin = process.argv[2] ?? 'http://localhost:4321';
const KIB = 1024;
/** First-load JavaScript budget (gzip) of every page type but the comparison page. */
const JS_BUDGET = 10 * KIB;
/** First round trip budget (HTML + render-blocking CSS, gzip): about one initial TCP congestion window. */
const FIRST_TRIP_BUDGET = 14 * KIB;
const FIRST_TRIP_PAGES = new Set(['home', 'content page', 'product page']);
const pages: [string, string][] = [
  ['home', '/en'],
  ['content page', '/en/about-us'],
  ['product page', '/en/products/wire-processing/cut-strip/kappa-310'],
  ['classification page', '/en/products/wire-processing'],
  ['comparison page', '/en/comparison'],
  ['story', '/en/stories/carpatia-doubles-crimping-output'],
  ['search results', '/en/search?q=crimp'],
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const rows: string[][] = [];
for (const [name, path] of pages) {
  const page = await browser.newPage();
  const scripts = new Map<string, number>();
  const sheets = new Map<string, number>();
  page.on('response', async (res) => {
    const url = new URL(res.url());
    const into = url.pathname.endsWith('.js') ? scripts : url.pathname.endsWith('.css') ? sheets : null;
    if (!into) return;
    try {
      into.set(url.pathname, gzipSync(await res.body()).length);
    } catch {
      // a response without a body (redirect) counts nothing
    }
  });
  const res = await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
  const html = await res!.text();
  // Render-blocking stylesheets: the <link rel=stylesheet> of the head without a non-matching media.
  const blocking = await page.evaluate(() => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]')]
    .filter((l) => !l.media || matchMedia(l.media).matches).map((l) => new URL(l.href).pathname));
  await page.close();
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  const htmlGzip = gzipSync(html).length;
  const firstTrip = htmlGzip + blocking.reduce((a, p) => a + (sheets.get(p) ?? 0), 0);
  const kib = (n: number) => `${(n / KIB).toFixed(1)} KiB`;
  rows.push([
    name, path, String(scripts.size), kib(total), name === 'comparison page' ? '–' : kib(JS_BUDGET),
    kib(htmlGzip), String(blocking.length), kib(firstTrip), FIRST_TRIP_PAGES.has(name) ? kib(FIRST_TRIP_BUDGET) : '–',
  ]);
}
await browser.close();
const head = ['page', 'path', 'scripts', 'JS (gzip)', 'JS budget', 'HTML (gzip)', 'blocking CSS', 'first trip', 'trip budget'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) => `  ${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`;
console.log(`page weight on ${origin}`);
console.log(line(head));
for (const r of rows) console.log(line(r));
