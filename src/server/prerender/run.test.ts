import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { mkdtemp, readdir, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { timedFetch } from '../../lib/http/timeouts.ts';
import type { PageModelBase } from '../../features/platform/page-model.ts';
import type { Locale, SystemData } from '../../site/types.ts';
import { liveDir, readPointer, releaseDir, stagedBase } from '../release/release.ts';
import type { BuildMeta } from '../delivery/static-site.ts';
import type { Collected, CollectTargets, PlannedRoute } from './collect.ts';
import type { ChangedRecord } from './targets.ts';
import { prerender, PRERENDER_STEPS, type PrerenderResult, type PrerenderStep } from './run.ts';
import { parseServerEnv } from '../boot/env.ts';
import { CompactIndex } from '../../lib/search/compact.ts';

const HOST = 'localhost';
const ORIGIN = 'http://localhost:4321';
const LOCALE = { code: 'en', urlCode: 'en', sisCode: 'en', isInternational: true, language: 'en', country: 'ALL' } as Locale;
const SYSTEM = {
  countries: [], languages: [], brands: [],
  sites: [{ id: 'main', isMain: true, slug: '', domains: [{ host: HOST, slug: null }] }],
} as unknown as SystemData;

/**
 * A route of the fake route set: `version` is its record (a new version is a changed record);
 * `reads` are the data keys it is built from, whose values hold the record ids in `KEY_IDS`;
 * `pad` is text that makes the page and payload large (> 1 KB).
 */
interface FakeRoute { path: string; version: number; keys?: string[]; reads?: string[]; pad?: string }

const planned = (r: FakeRoute): PlannedRoute => ({
  host: HOST, origin: ORIGIN, path: r.path, pagePath: r.path.slice(3), siteId: 'main', locale: LOCALE,
  model: (r.pad ? { version: r.version, pad: r.pad } : { version: r.version }) as unknown as PageModelBase, recordHashes: [`record-${r.path}-v${r.version}`, ...(r.reads ?? [])],
  languages: ['en'], updatedAt: '2026-01-01', keys: r.keys ?? [], inSitemap: false, reads: r.reads ?? [], source: 'fake',
  search: { title: `${r.path} v${r.version}`, description: '', body: '' },
});
/** Record ids in the value of each data key the fake routes read. */
const KEY_IDS = new Map([['["nav"]', ['about-id', 'contact-id']], ['["teasers"]', ['contact-id']]]);
/** Paths the fake collect built (not kept) in the last run. */
let built: string[];

let dist: string;
let staticRoot: string;
/** Paths the fake app rendered in the last run. */
let rendered: string[];

/**
 * One prerender over the fake app and route set. The app renders `<p>{path} v{version}</p>` from
 * the route's model; paths in `fail` answer 500, paths in `throwOn` make the render throw.
 */
function run(routes: FakeRoute[], opts: { ask?: string; buildId?: string; force?: { ids?: string[]; slugs?: string[]; all?: boolean }; fail?: string[]; throwOn?: string[]; records?: ChangedRecord[]; systemHash?: string; onPublished?: () => void; onSearchWritten?: () => void; onStep?: (step: PrerenderStep) => void } = {}): Promise<PrerenderResult> {
  rendered = [];
  built = [];
  const app = {
    async render(req: Request, { locals }: { locals: object }): Promise<Response> {
      const path = new URL(req.url).pathname;
      rendered.push(path);
      if (opts.throwOn?.includes(path)) throw new Error(`render of ${path} crashed`);
      const { model } = (locals as { prerender: { model: { version: number; pad?: string } } }).prerender;
      return new Response(`<p>${path} v${model.version}</p>${model.pad ?? ''}`, {
        status: opts.fail?.includes(path) ? 500 : 200,
        headers: { 'Content-Type': 'text/html', 'Content-Security-Policy': `default-src 'self'; report-to ${path}` },
      });
    },
  };
  // Like the real collect: a route the targeted run keeps is listed without being built.
  const collect = async (_: unknown, { targets }: { targets?: CollectTargets }): Promise<Collected> => {
    // A service call, as the real collect makes them (recorded by a full run).
    if (opts.ask) await (await timedFetch(opts.ask)).text();
    const keep = targets?.keep;
    return {
    system: SYSTEM, redirects: [], hosts: new Map([[HOST, ORIGIN]]), systemHash: opts.systemHash ?? 'system-1',
    keyIds: new Map([...KEY_IDS].filter(([k]) => routes.some((r) => !keep?.(HOST, r.path) && r.reads?.includes(k)))),
    routes: routes.map((r) => {
      const kept = keep?.(HOST, r.path);
      if (kept) return { ...planned(r), model: { kind: 'kept' } as unknown as PageModelBase, recordHashes: [], kept: true, reads: kept.reads, keys: kept.keys };
      built.push(r.path);
      return planned(r);
    }),
    };
  };
  return prerender(
    { distDir: dist, env: parseServerEnv({ CONTENT_ENDPOINT: 'http://127.0.0.1:1/unused', SEARCH_INDEX_DIR: join(dist, 'search') }), mode: 'local', port: 4321, threads: 1, force: opts.force, records: opts.records, ...(opts.onPublished ? { onPublished: opts.onPublished } : {}), ...(opts.onSearchWritten ? { onSearchWritten: opts.onSearchWritten } : {}), ...(opts.onStep ? { onStep: opts.onStep } : {}) },
    { loadEntry: async () => ({ app, buildId: opts.buildId ?? 'build-1' }), collect },
  );
}

const live = () => liveDir(staticRoot);
const liveMeta = (): BuildMeta => {
  const latest = JSON.parse(readFileSync(join(live(), HOST, 'builds/latest.json'), 'utf8')) as { id: string };
  return JSON.parse(readFileSync(join(live(), HOST, 'builds/meta', `${latest.id}.json`), 'utf8')) as BuildMeta;
};
const liveHtml = (path: string): string | null => {
  const file = join(live(), HOST, path, 'index.html');
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
};
/** The page text of a route in the live release, without the CSP meta the prerender adds. */
const liveText = (path: string) => liveHtml(path)?.match(/<p>.*<\/p>/)?.[0] ?? null;

const SITE: FakeRoute[] = [
  { path: '/en', version: 1, keys: ['home-id', 'home'] },
  { path: '/en/about-us', version: 1, keys: ['about-id', 'about-us'] },
  { path: '/en/contact', version: 1, keys: ['contact-id', 'contact'] },
];

beforeEach(async () => {
  dist = await mkdtemp(join(tmpdir(), 'prerender-run-'));
  staticRoot = join(dist, 'static');
});

afterEach(async () => {
  await rm(dist, { recursive: true, force: true });
});

describe('prerender: render, keep, remove', () => {
  it('renders every route of a first run and publishes them as the live release', async () => {
    const result = await run(SITE);
    expect(rendered.sort()).toEqual(['/en', '/en/about-us', '/en/contact']);
    expect(result).toMatchObject({ rendered: 3, unchanged: 0, removed: 0, failed: [], total: 3 });
    expect(result.releaseId).toBe(readPointer(staticRoot));
    expect(liveText('/en/about-us')).toBe('<p>/en/about-us v1</p>');
    const meta = liveMeta();
    expect(meta).toMatchObject({ id: result.releaseId, appBuildId: 'build-1' });
    expect(Object.keys(meta.routes).sort()).toEqual(['/en', '/en/about-us', '/en/contact']);
    expect(meta.routes['/en']!.csp).toBe("default-src 'self'; report-to /en");
    expect(JSON.parse(readFileSync(join(live(), HOST, 'en/about-us/_payload.json'), 'utf8'))).toEqual({ version: 1 });
  });

  it('renders nothing and publishes nothing when no fingerprint changed', async () => {
    const first = await run(SITE);
    const before = liveMeta();
    const result = await run(SITE);
    expect(rendered).toEqual([]);
    expect(result).toMatchObject({ releaseId: null, rendered: 0, unchanged: 3, removed: 0 });
    expect(readPointer(staticRoot)).toBe(first.releaseId);
    expect(liveMeta()).toEqual(before);
  });

  it('renders only the route whose record changed and keeps the others with their files', async () => {
    const first = await run(SITE);
    const fingerprints = liveMeta().routes;
    const result = await run([SITE[0]!, { ...SITE[1]!, version: 2 }, SITE[2]!]);
    expect(rendered).toEqual(['/en/about-us']);
    expect(result).toMatchObject({ rendered: 1, unchanged: 2, removed: 0 });
    expect(result.releaseId).not.toBe(first.releaseId);
    expect(readPointer(staticRoot)).toBe(result.releaseId);
    expect(liveText('/en/about-us')).toBe('<p>/en/about-us v2</p>');
    // Kept: the new release still holds their files and their rules.
    expect(liveText('/en')).toBe('<p>/en v1</p>');
    expect(liveText('/en/contact')).toBe('<p>/en/contact v1</p>');
    const meta = liveMeta();
    expect(meta.routes['/en']).toEqual(fingerprints['/en']);
    expect(meta.routes['/en/about-us']!.fingerprint).not.toBe(fingerprints['/en/about-us']!.fingerprint);
  });

  it('removes a route that vanished: its files and its rule', async () => {
    await run(SITE);
    const result = await run(SITE.filter((r) => r.path !== '/en/contact'));
    expect(rendered).toEqual([]);
    expect(result).toMatchObject({ rendered: 0, unchanged: 2, removed: 1 });
    expect(liveHtml('/en/contact')).toBeNull();
    expect(existsSync(join(live(), HOST, 'en/contact'))).toBe(false);
    expect(Object.keys(liveMeta().routes).sort()).toEqual(['/en', '/en/about-us']);
  });

  it('renders everything again when the app build changed', async () => {
    await run(SITE);
    const result = await run(SITE, { buildId: 'build-2' });
    expect(rendered.sort()).toEqual(['/en', '/en/about-us', '/en/contact']);
    expect(result).toMatchObject({ rendered: 3, unchanged: 0 });
    expect(liveMeta().appBuildId).toBe('build-2');
  });

  it('renders the routes a revalidation forces by id or slug although unchanged', async () => {
    await run(SITE);
    const result = await run(SITE, { force: { ids: ['about-id'], slugs: ['contact'] } });
    expect(rendered.sort()).toEqual(['/en/about-us', '/en/contact']);
    expect(result).toMatchObject({ rendered: 2, unchanged: 1 });
    expect(result.releaseId).toBe(readPointer(staticRoot));
  });

  it('renders again a route whose file went missing from the live release', async () => {
    await run(SITE);
    await rm(join(live(), HOST, 'en/about-us/index.html'));
    const result = await run(SITE);
    expect(rendered).toEqual(['/en/about-us']);
    expect(result.rendered).toBe(1);
    expect(liveText('/en/about-us')).toBe('<p>/en/about-us v1</p>');
  });

  it('fails the run and publishes nothing when a render throws', async () => {
    const first = await run(SITE);
    const before = liveMeta();
    const changed = SITE.map((r) => ({ ...r, version: 2 }));
    await expect(run(changed, { throwOn: ['/en/contact'] })).rejects.toThrow('render of /en/contact crashed');
    expect(readPointer(staticRoot)).toBe(first.releaseId);
    expect(liveMeta()).toEqual(before);
    expect(liveText('/en')).toBe('<p>/en v1</p>');
    // The next run starts from the live release and renders what the failed one did not publish.
    const next = await run(changed);
    expect(next.rendered).toBe(3);
    expect(liveText('/en/contact')).toBe('<p>/en/contact v2</p>');
  });

  it('reports a page that answers an error and leaves it out of the release (served on demand), publishing the rest', async () => {
    await run(SITE);
    const result = await run(SITE.map((r) => ({ ...r, version: 2 })), { fail: ['/en/contact'] });
    expect(result).toMatchObject({ rendered: 2, failed: ['localhost/en/contact (500)'] });
    expect(readPointer(staticRoot)).toBe(result.releaseId);
    expect(Object.keys(liveMeta().routes).sort()).toEqual(['/en', '/en/about-us']);
    expect(liveText('/en')).toBe('<p>/en v2</p>');
    // Not in the meta, so never served from the release, and rendered again by the next run.
    const next = await run(SITE.map((r) => ({ ...r, version: 2 })));
    expect(rendered).toEqual(['/en/contact']);
    expect(next.rendered).toBe(1);
  });

  it('stages the next release after a publish, and the next change starts from it instead of copying', async () => {
    const first = await run(SITE);
    const releases = async () => (await readdir(join(staticRoot, 'releases'))).sort();
    const staged = (await releases()).filter((id) => stagedBase(staticRoot, id) === first.releaseId);
    expect(staged).toHaveLength(1);
    expect(existsSync(join(releaseDir(staticRoot, staged[0]!), HOST, 'en/about-us/index.html'))).toBe(true);
    // Nothing changed: the staged copy stays for the next change.
    await run(SITE);
    expect(await releases()).toEqual([first.releaseId!, staged[0]!].sort());

    const second = await run([SITE[0]!, { ...SITE[1]!, version: 2 }, SITE[2]!]);
    expect(rendered).toEqual(['/en/about-us']);
    // The staged folder became the new release (no second copy); a new one is staged from it.
    expect(existsSync(releaseDir(staticRoot, staged[0]!))).toBe(false);
    const after = await releases();
    expect(after).toHaveLength(3);
    expect(after.filter((id) => stagedBase(staticRoot, id) === second.releaseId)).toHaveLength(1);
    expect(liveText('/en/about-us')).toBe('<p>/en/about-us v2</p>');
    expect(liveText('/en/contact')).toBe('<p>/en/contact v1</p>');
    // The previous release is untouched by the change.
    expect(readFileSync(join(releaseDir(staticRoot, first.releaseId!), HOST, 'en/about-us/index.html'), 'utf8')).toContain('v1');
  });
});

describe('prerender: the steps (where the crash test kills a run)', () => {
  it('names every step of a full run in order, each once, and none in a run that publishes nothing', async () => {
    const steps: PrerenderStep[] = [];
    await run(SITE, { onStep: (s) => steps.push(s) });
    expect(steps).toEqual([...PRERENDER_STEPS]);
    steps.length = 0;
    await run(SITE, { onStep: (s) => steps.push(s) });
    expect(steps).toEqual([]);
  });

});

describe('prerender: the answer', () => {
  it('tells the result as soon as the release is live, before the next link copy is staged', async () => {
    await run(SITE);
    let early: { result: PrerenderResult; staged: string[] } | null = null;
    const app = { render: async (req: Request) => new Response(`<p>${new URL(req.url).pathname} v2</p>`, { headers: { 'Content-Type': 'text/html' } }) };
    const collected: Collected = { system: SYSTEM, redirects: [], routes: SITE.map((r) => planned({ ...r, version: 2 })), hosts: new Map([[HOST, ORIGIN]]), keyIds: new Map(), systemHash: 'system-1' };
    const result = await prerender(
      {
        distDir: dist, env: parseServerEnv({ CONTENT_ENDPOINT: 'http://127.0.0.1:1/unused', SEARCH_INDEX_DIR: join(dist, 'search') }), mode: 'local', port: 4321, threads: 1,
        onPublished: (r) => { early = { result: r, staged: readdirSync(join(staticRoot, 'releases')).filter((id) => stagedBase(staticRoot, id) === r.releaseId) }; },
      },
      { loadEntry: async () => ({ app, buildId: 'build-1' }), collect: async () => collected },
    );
    expect(early).not.toBeNull();
    expect(early!.result).toEqual({ ...result, stageSeconds: 0 });
    expect(readPointer(staticRoot)).toBe(result.releaseId);
    expect(early!.staged).toEqual([]);
  });
});

describe('prerender: targeted revalidation (named records)', () => {
  const TARGET_SITE: FakeRoute[] = [
    { path: '/en', version: 1, keys: ['home-id', 'home'], reads: ['["nav"]'] },
    { path: '/en/about-us', version: 1, keys: ['about-id', 'about-us'] },
    { path: '/en/contact', version: 1, keys: ['contact-id', 'contact'] },
    { path: '/en/news', version: 1, keys: ['news-id', 'news'], reads: ['["teasers"]'] },
  ];
  const changedContact = TARGET_SITE.map((r) => (r.path === '/en/contact' ? { ...r, version: 2 } : r));

  it('builds only the routes a named record affects (its own and those that read a value holding it), and keeps the rest unbuilt', async () => {
    await run(TARGET_SITE);
    const result = await run(changedContact, { records: [{ model: 'page', id: 'contact-id', stage: 'PUBLISHED' }] });
    expect(result.scope).toBe('targeted');
    expect(built.sort()).toEqual(['/en', '/en/contact', '/en/news']);
    expect(rendered).toEqual(['/en/contact']);
    expect(result).toMatchObject({ rendered: 1, unchanged: 3, removed: 0, total: 4 });
    expect(liveText('/en/contact')).toBe('<p>/en/contact v2</p>');
    expect(liveText('/en/about-us')).toBe('<p>/en/about-us v1</p>');
    expect(Object.keys(liveMeta().routes).sort()).toEqual(['/en', '/en/about-us', '/en/contact', '/en/news']);
    // The next targeted run still knows every route (the index carries the kept ones over).
    const again = await run(changedContact.map((r) => (r.path === '/en/about-us' ? { ...r, version: 2 } : r)), { records: [{ model: 'page', id: 'about-id' }] });
    expect(again.scope).toBe('targeted');
    expect(built.sort()).toEqual(['/en', '/en/about-us']);
    expect(liveText('/en/about-us')).toBe('<p>/en/about-us v2</p>');
  });

  it('makes the pages of a targeted run live before it writes their search index; a full run writes the index first', async () => {
    /** The English index's title of /en/contact as the search files say at a moment: what a search would find then. */
    const indexedTitle = () => {
      const manifest = JSON.parse(readFileSync(join(dist, 'search/manifest.json'), 'utf8')) as { indexes: { key: string; file: string }[] };
      const file = manifest.indexes.find((i) => i.key.endsWith('/en'))!.file;
      const index = new CompactIndex(readFileSync(join(dist, 'search', file)));
      const docs = Array.from({ length: index.header.documentCount }, (_, n) => index.document<string[]>(n));
      return docs.find((d) => d[0] === '/en/contact')?.[1];
    };
    const seen: string[] = [];
    const watch = { onPublished: () => seen.push(`published: page ${liveText('/en/contact')}, search ${indexedTitle()}`), onSearchWritten: () => seen.push(`search written: ${indexedTitle()}`) };
    await run(TARGET_SITE, watch);
    expect(seen).toEqual(['search written: /en/contact v1', 'published: page <p>/en/contact v1</p>, search /en/contact v1']);
    seen.length = 0;
    const result = await run(changedContact, { ...watch, records: [{ model: 'page', id: 'contact-id', stage: 'PUBLISHED' }] });
    expect(result).toMatchObject({ scope: 'targeted', searchAfterPublish: true });
    expect(seen).toEqual(['published: page <p>/en/contact v2</p>, search /en/contact v1', 'search written: /en/contact v2']);
  });

  it('names its steps with the search index after the publish (where the crash test kills it)', async () => {
    await run(TARGET_SITE);
    const steps: PrerenderStep[] = [];
    await run(changedContact, { records: [{ model: 'page', id: 'contact-id', stage: 'PUBLISHED' }], onStep: (s) => steps.push(s) });
    expect(steps).toEqual(['linked', 'half-rendered', 'rendered', 'manifests-written', 'published', 'search-written', 'cleaned', 'staged']);
  });

  it('removes the routes of a named record that is gone', async () => {
    await run(TARGET_SITE);
    const result = await run(TARGET_SITE.filter((r) => r.path !== '/en/about-us'), { records: [{ model: 'page', id: 'about-id' }] });
    expect(result).toMatchObject({ scope: 'targeted', removed: 1 });
    expect(liveHtml('/en/about-us')).toBeNull();
  });

  it('changes nothing for records of another stage', async () => {
    const first = await run(TARGET_SITE);
    const result = await run(changedContact, { records: [{ model: 'page', id: 'contact-id', stage: 'DRAFT' }] });
    expect(result).toMatchObject({ releaseId: null, scope: 'targeted' });
    expect(built).toEqual([]);
    expect(readPointer(staticRoot)).toBe(first.releaseId);
  });

  it('collects everything for a record the live release does not know, or when the system data changed', async () => {
    await run(TARGET_SITE);
    const unknown = await run(changedContact, { records: [{ model: 'page', id: 'new-page-id' }] });
    expect(unknown).toMatchObject({ scope: 'full', scopeReason: 'not in the live release: new-page-id' });
    expect(built).toHaveLength(4);
    expect(liveText('/en/contact')).toBe('<p>/en/contact v2</p>');
    const system = await run(TARGET_SITE, { records: [{ model: 'page', id: 'contact-id' }], systemHash: 'system-2' });
    expect(system).toMatchObject({ scope: 'full', scopeReason: 'the system data changed' });
    expect(liveText('/en/contact')).toBe('<p>/en/contact v1</p>');
  });
});

describe('prerender: a full run where no service answer changed', () => {
  let server: Server;
  let url: string;
  /** What the fake service answers, and how often it was asked. */
  let answer = 'a';
  let asked = 0;
  let broken = false;
  beforeAll(async () => {
    server = createServer((_, res) => {
      asked++;
      if (broken) res.socket?.destroy();
      else res.end(answer);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/records`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('asks the last full collect\'s calls again and, with the same answers, collects and renders nothing', async () => {
    answer = 'a';
    const first = await run(SITE, { ask: url });
    expect(first).toMatchObject({ rendered: 3, scope: 'full' });
    expect(first.replayed).toBeUndefined();
    asked = 0;
    const again = await run(SITE, { ask: url });
    expect(again).toMatchObject({ releaseId: null, rendered: 0, unchanged: 3, total: 3, scope: 'full', replayed: true });
    expect(built).toEqual([]);
    expect(asked).toBe(1);
    expect(readPointer(staticRoot)).toBe(first.releaseId);
  });

  it('collects everything when an answer changed, and finds the changed route', async () => {
    answer = 'a';
    await run(SITE, { ask: url });
    answer = 'b';
    const changed = SITE.map((r) => (r.path === '/en/contact' ? { ...r, version: 2 } : r));
    const result = await run(changed, { ask: url });
    expect(result.replayed).toBeUndefined();
    expect(built).toHaveLength(3);
    expect(rendered).toEqual(['/en/contact']);
    // The new collect is the one asked again next time.
    expect(await run(changed, { ask: url })).toMatchObject({ replayed: true, rendered: 0 });
  });

  it('collects everything once another release went live (a webhook\'s run) or the app changed, and when forced', async () => {
    answer = 'a';
    const site = SITE.map((r) => (r.path === '/en/contact' ? { ...r, reads: [] } : r));
    await run(site, { ask: url });
    const targeted = await run(site.map((r) => (r.path === '/en/contact' ? { ...r, version: 2 } : r)), { ask: url, records: [{ model: 'page', id: 'contact-id' }] });
    expect(targeted).toMatchObject({ scope: 'targeted', rendered: 1 });
    const afterWebhook = await run(site.map((r) => (r.path === '/en/contact' ? { ...r, version: 2 } : r)), { ask: url });
    expect(afterWebhook.replayed).toBeUndefined();
    expect(built).toHaveLength(3);
    const newApp = await run(site, { ask: url, buildId: 'build-2' });
    expect(newApp.replayed).toBeUndefined();
    expect(newApp.rendered).toBe(3);
    const forced = await run(site, { ask: url, buildId: 'build-2', force: { slugs: ['contact'] } });
    expect(forced.replayed).toBeUndefined();
    expect(rendered).toEqual(['/en/contact']);
  });

  it('collects everything when a call fails, and a collect without service calls is never taken as proof', async () => {
    answer = 'a';
    await run(SITE, { ask: url });
    // The service drops the connection: asked again, the call fails, so the run collects, which
    // fails too; nothing is published.
    broken = true;
    await expect(run(SITE, { ask: url })).rejects.toThrow();
    broken = false;
    const after = await run(SITE, { ask: url });
    expect(after.replayed).toBeUndefined();
    expect(built).toHaveLength(3);
    // A new app: collected, by a collect that asked no service. Nothing proves the next one unchanged.
    expect(await run(SITE, { buildId: 'build-3' })).toMatchObject({ rendered: 3 });
    const again = await run(SITE, { buildId: 'build-3' });
    expect(again.replayed).toBeUndefined();
    expect(built).toHaveLength(3);
  });
});

describe('prerender: compressed siblings', () => {
  const PAD = '<i>Komax wire processing</i>'.repeat(100);
  const BIG: FakeRoute[] = SITE.map((r) => ({ ...r, pad: PAD }));
  const file = (rel: string) => join(live(), HOST, rel);

  it('writes .br and .gz beside every page and payload over 1 KB, and beside the meta and sitemap', async () => {
    await run(BIG);
    const html = readFileSync(file('en/about-us/index.html'));
    expect(brotliDecompressSync(readFileSync(file('en/about-us/index.html.br'))).equals(html)).toBe(true);
    expect(gunzipSync(readFileSync(file('en/about-us/index.html.gz'))).equals(html)).toBe(true);
    const payload = readFileSync(file('en/about-us/_payload.json'));
    expect(brotliDecompressSync(readFileSync(file('en/about-us/_payload.json.br'))).equals(payload)).toBe(true);
    // Small files (latest.json, robots.txt, the small meta) get none.
    expect(existsSync(file('builds/latest.json.br'))).toBe(false);
  });

  it('replaces the siblings of a re-rendered page, drops them when it became small, and leaves the previous release alone', async () => {
    const first = await run(BIG);
    const before = readFileSync(file('en/about-us/index.html.br'));
    await run([BIG[0]!, { ...BIG[1]!, version: 2 }, { ...SITE[2]!, version: 2 }]);
    expect(brotliDecompressSync(readFileSync(file('en/about-us/index.html.br'))).toString()).toContain('/en/about-us v2');
    expect([existsSync(file('en/contact/index.html.br')), existsSync(file('en/contact/_payload.json.gz'))]).toEqual([false, false]);
    // Kept pages carry their siblings into the new release (hard links).
    expect(existsSync(file('en/index.html.br'))).toBe(true);
    // The previous release, still served to requests in flight, has its own.
    const previous = join(staticRoot, 'releases', first.releaseId!, HOST, 'en/about-us/index.html.br');
    expect(readFileSync(previous).equals(before)).toBe(true);
  });

  it('records the bytes of every page and its siblings in the meta, and of the manifests in hosts.json', async () => {
    const { releaseId } = await run(BIG);
    const size = (rel: string) => statSync(file(rel)).size;
    expect(liveMeta().routes['/en/about-us']!.sizes).toEqual([size('en/about-us/index.html'), size('en/about-us/index.html.br'), size('en/about-us/index.html.gz')]);
    const hosts = JSON.parse(readFileSync(join(live(), 'hosts.json'), 'utf8')) as { sizes: Record<string, number> };
    expect(hosts.sizes).toEqual({ [`${HOST}/builds/latest.json`]: size('builds/latest.json'), [`${HOST}/builds/meta/${releaseId}.json`]: size(`builds/meta/${releaseId}.json`) });
  });

  it('renders again a route whose page or sibling was cut short in the live release', async () => {
    await run(BIG);
    await truncate(file('en/about-us/index.html'), 200);
    await truncate(file('en/contact/index.html.gz'), 20);
    const result = await run(BIG);
    expect(rendered.sort()).toEqual(['/en/about-us', '/en/contact']);
    expect(result).toMatchObject({ rendered: 2, unchanged: 1 });
    expect(liveText('/en/about-us')).toBe('<p>/en/about-us v1</p>');
    expect(gunzipSync(readFileSync(file('en/contact/index.html.gz'))).equals(readFileSync(file('en/contact/index.html')))).toBe(true);
  });

  it('publishes a new release with new manifests when the live latest.json or meta was cut short', async () => {
    const first = await run(BIG);
    await truncate(file('builds/latest.json'), 10);
    const second = await run(BIG);
    // The meta was intact: nothing to render, but a release with a readable latest.json.
    expect(rendered).toEqual([]);
    expect(second).toMatchObject({ rendered: 0, unchanged: 3 });
    expect(second.releaseId).not.toBe(first.releaseId);
    expect(liveMeta().id).toBe(second.releaseId);
    // A meta cut short loses the rules: everything is rendered again.
    await truncate(file(`builds/meta/${second.releaseId}.json`), 30);
    const third = await run(BIG);
    expect(rendered.sort()).toEqual(['/en', '/en/about-us', '/en/contact']);
    expect(liveMeta().id).toBe(third.releaseId);
  });

  it('removes the siblings with a route that vanished', async () => {
    await run(BIG);
    await run(BIG.filter((r) => r.path !== '/en/contact'));
    expect(existsSync(join(live(), HOST, 'en/contact'))).toBe(false);
  });
});
