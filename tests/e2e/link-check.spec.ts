import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, raw } from './fixtures/index.ts';
import { answeredByFile, collectTargets, linkTargets, readRelease, type InternalTarget, type LinkUse, type ReleaseTree } from './fixtures/link-check.ts';
import { imageRequest } from '../../src/server/images/image-params.ts';
import { pool } from '../../src/lib/async/pool.ts';

// Issue 29 item 6: no internal link of any host answers 4xx. Every link of every prerendered HTML
// file (href, src, srcset) is resolved against the release itself; only what no file answers goes
// to the server over HTTP, each distinct target once. No browser.

const DIST = join(process.cwd(), process.env.DIST_DIR ?? 'dist');
/** Parallel requests to the server: enough to overlap its renders, few enough to leave the suite's other worker its share. */
const CONCURRENCY = 6;
const MAX_REDIRECTS = 5;

interface Checked { target: InternalTarget; status: number; via?: string }


/**
 * The status a visitor ends on: a redirect to one of our hosts is followed (a redirect to a 404
 * is a broken link); one to another site ends the check there.
 */
async function finalStatus(tree: ReleaseTree, target: InternalTarget): Promise<Checked> {
  let current = target;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const res = await raw(current.path, { host: current.host });
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || typeof location !== 'string') return { target, status: res.status, via: current === target ? undefined : current.path };
    const next = new URL(location, `${tree.hosts.get(current.host)!.origin}${current.path}`);
    const host = [...tree.hosts.values()].find((h) => h.origin === next.origin);
    if (!host) return { target, status: res.status };
    current = { host: host.host, path: `${next.pathname}${next.search}` };
    if (answeredByFile(tree, current)) return { target, status: 200, via: current.path };
  }
  return { target, status: 310, via: 'too many redirects' };
}

/**
 * /_image: ~2,000 distinct URLs over ~1,000 sources, more renders than the endpoint lets one
 * client start a minute (429). What decides a 4xx before any render is the server's own check of
 * the query (imageRequest: 400, or a 301 to a preset size); what decides it after is the source,
 * asked of its service directly, once per source.
 */
async function checkImages(targets: LinkUse[]): Promise<{ broken: Checked[]; sources: number }> {
  const broken: Checked[] = [];
  const sources = new Map<string, LinkUse>();
  for (const t of targets) {
    const query = new URLSearchParams(t.path.slice(t.path.indexOf('?') + 1));
    const answer = imageRequest(query);
    if (answer.kind === 'refuse') broken.push({ target: t, status: 400, via: answer.message });
    const href = query.get('href');
    if (href && !sources.has(href)) sources.set(href, t);
  }
  await pool([...sources], CONCURRENCY, async ([href, t]) => {
    const status = href.startsWith('/') ? (await raw(href, { host: t.host })).status : (await fetch(href, { method: 'HEAD' })).status;
    if (status >= 400) broken.push({ target: t, status, via: `source ${href}` });
  });
  return { broken, sources: sources.size };
}

test('no internal link of any host answers 4xx', async () => {
  // Only catches a hang: ~9,000 files read and ~1,500 requests take seconds on an idle machine, more on a busy one.
  test.setTimeout(600_000);
  // One release throughout, even if a test beside this one publishes another meanwhile.
  const tree = readRelease(DIST);
  tree.live = realpathSync(tree.live);
  const { documents, targets } = collectTargets(tree);
  expect(documents, 'HTML files in the release').toBeGreaterThan(1000);

  const all = [...targets.values()];
  const asked = all.filter((t) => !answeredByFile(tree, t));
  const images = asked.filter((t) => t.path.startsWith('/_image?'));
  const pages = asked.filter((t) => !t.path.startsWith('/_image?'));

  const checked: Checked[] = [];
  await pool(pages, CONCURRENCY, async (t) => { checked.push(await finalStatus(tree, t)); });
  const imageCheck = await checkImages(images);
  const broken = [...checked.filter((c) => c.status >= 400), ...imageCheck.broken];

  const describe = (c: Checked) => {
    const use = c.target as LinkUse;
    return `${c.status} http://${c.target.host}${c.target.path}${c.via ? ` (${c.via})` : ''}: linked from ${use.pages} page(s), e.g. ${use.from}`;
  };
  const report = broken.map(describe).sort();
  test.info().annotations.push({
    type: 'link check',
    description: `${documents} HTML files, ${all.length} distinct internal targets: ${all.length - asked.length} answered by files, ${pages.length} asked of the server, ${images.length} image URLs over ${imageCheck.sources} sources`,
  });
  expect(report, `${report.length} broken internal links`).toEqual([]);
});

test('the media releases and the stories are linked from the main site footer', () => {
  const tree = readRelease(DIST);
  for (const locale of ['en', 'de', 'fr-ch']) {
    const html = readFileSync(join(tree.live, tree.main, locale, 'index.html'), 'utf8');
    const footer = /<footer[\s>][\s\S]*<\/footer>/.exec(html)?.[0] ?? '';
    const links = linkTargets(footer);
    expect(links, `footer of /${locale}`).toEqual(expect.arrayContaining([`/${locale}/media-releases`, `/${locale}/stories`]));
  }
});
