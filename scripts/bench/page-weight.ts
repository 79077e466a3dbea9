// npm run bench:page-weight [-- http://localhost:4321]: the JavaScript each kind of page loads,
// gzipped, measured in the system Chromium against a running server (npm start). Prints a table.
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';

const origin = process.argv[2] ?? 'http://localhost:4321';
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
  page.on('response', async (res) => {
    const url = new URL(res.url());
    if (!url.pathname.endsWith('.js')) return;
    try {
      scripts.set(url.pathname, gzipSync(await res.body()).length);
    } catch {
      // a response without a body (redirect) counts nothing
    }
  });
  const res = await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
  const html = await res!.text();
  await page.close();
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  rows.push([name, path, String(scripts.size), `${(total / 1024).toFixed(1)} KiB`, `${(gzipSync(html).length / 1024).toFixed(1)} KiB`]);
}
await browser.close();
const head = ['page', 'path', 'scripts', 'JS (gzip)', 'HTML (gzip)'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) => `  ${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`;
console.log(`page weight on ${origin}`);
console.log(line(head));
for (const r of rows) console.log(line(r));
