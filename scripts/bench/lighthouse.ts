// npm run bench:lighthouse [-- http://localhost:4321] [runs]: Lighthouse (mobile defaults) on one URL
// per page type against a running server (npm start), in the system Chromium; prints the median of
// `runs` (default 3) per page: the four category scores, LCP, TBT, CLS and the bytes transferred
// per resource type. A run Lighthouse cannot audit (it refuses an error status such as the 404's)
// is left out of the medians and named; where a category is capped on purpose the reason is printed.
// Never fails on a number.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';

const origin = process.argv[2] ?? 'http://localhost:4321';
const runs = Number(process.argv[3] ?? 3);
const events = new URL(origin);
events.hostname = `events.${events.hostname}`;
const pages: [string, string][] = [
  ['home', `${origin}/en`],
  ['content', `${origin}/en/about-us`],
  ['classification', `${origin}/en/products/wire-processing`],
  ['product', `${origin}/en/products/wire-processing/cut-strip/kappa-310`],
  ['service product', `${origin}/en/services/training/operator-training`],
  ['stories', `${origin}/en/stories`],
  ['story', `${origin}/en/stories/carpatia-doubles-crimping-output`],
  ['media releases', `${origin}/en/media-releases`],
  ['investors', `${origin}/en/investors`],
  ['events site', `${events.origin}/en`],
  ['German page', `${origin}/de/about-us`],
  ['comparison', `${origin}/en/comparison`],
  ['search', `${origin}/en/search?q=crimp`],
  ['404', `${origin}/en/this-page-does-not-exist`],
];

interface Sample {
  perf: number; a11y: number; bp: number; seo: number; lcp: number; tbt: number; cls: number;
  js: number; css: number; html: number; failing: string[];
}

/** Categories held below 100 on purpose, and why (issue 9: say which score is capped and why). */
const CAPPED: Record<string, string> = {
  search: 'SEO: is-crawlable fails because results pages carry noindex on purpose (endless query URLs must not be indexed); the page answers 200',
  '404': 'not audited: Lighthouse refuses a document with an error status (ERRORED_DOCUMENT_REQUEST) and the page must keep its 404; its accessibility is checked by axe in tests/e2e/spine.spec.ts',
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu'],
});
const rows: string[][] = [];
const notes: string[] = [];
try {
  for (const [name, url] of pages) {
    const samples: Sample[] = [];
    const errors: string[] = [];
    for (let i = 0; i < runs; i++) {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
      const lhr = result!.lhr;
      if (lhr.runtimeError) {
        errors.push(lhr.runtimeError.code);
        continue;
      }
      const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
      const num = (a: string) => lhr.audits[a]?.numericValue ?? 0;
      const bytes = (type: string) => {
        const items = (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)?.items ?? [];
        return items.find((it) => it.resourceType === type)?.transferSize ?? 0;
      };
      // What keeps a category below 100: every failing scored audit of it.
      const failing = Object.entries(lhr.categories).filter(([c]) => c !== 'performance').flatMap(([c, cat]) =>
        cat.auditRefs.filter((r) => r.weight > 0 && (lhr.audits[r.id]?.score ?? 1) < 1).map((r) => `${c}: ${r.id}`));
      samples.push({
        perf: score('performance'), a11y: score('accessibility'), bp: score('best-practices'), seo: score('seo'),
        lcp: num('largest-contentful-paint'), tbt: num('total-blocking-time'), cls: num('cumulative-layout-shift'),
        js: bytes('script'), css: bytes('stylesheet'), html: bytes('document'), failing,
      });
    }
    if (errors.length) notes.push(`  ${name}: ${errors.length} of ${runs} runs not audited (${[...new Set(errors)].join(', ')})`);
    if (!samples.length) {
      rows.push([name, 'n/a', 'n/a', 'n/a', 'n/a', '–', '–', '–', '–', '–', '–']);
      continue;
    }
    const m = (k: keyof Omit<Sample, 'failing'>) => median(samples.map((s) => s[k]));
    const kib = (n: number) => `${(n / 1024).toFixed(1)}`;
    rows.push([name, String(m('perf')), String(m('a11y')), String(m('bp')), String(m('seo')),
      `${(m('lcp') / 1000).toFixed(2)} s`, `${Math.round(m('tbt'))} ms`, m('cls').toFixed(3), kib(m('js')), kib(m('css')), kib(m('html'))]);
    const failing = [...new Set(samples.flatMap((s) => s.failing))];
    if (failing.length) notes.push(`  ${name}: ${failing.join(', ')}`);
  }
} finally {
  await chrome.kill();
}
const head = ['page', 'perf', 'a11y', 'bp', 'seo', 'LCP', 'TBT', 'CLS', 'JS KiB', 'CSS KiB', 'HTML KiB'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) => `  ${r.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`;
console.log(`Lighthouse (mobile, median of ${runs}) on ${origin}; bytes transferred`);
console.log(line(head));
for (const r of rows) console.log(line(r));
if (notes.length) {
  console.log('failing audits (a11y, best practices, SEO) and runs Lighthouse could not audit:');
  for (const n of notes) console.log(n);
}
console.log('capped on purpose:');
for (const [name, why] of Object.entries(CAPPED)) console.log(`  ${name}: ${why}`);
