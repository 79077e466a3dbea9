import { describe, expect, it } from 'vitest';
import type { BuildMeta } from '../delivery/static-site.ts';
import type { SystemData } from '../../site/types.ts';
import type { Collected, CollectTargets, PlannedRoute } from './collect.ts';
import { collectPhase, collectTargets, publishedResult, renderJobs, targetPhase, type PublishedRun, type TargetPhase } from './phases.ts';
import type { HostWork, LiveRelease, RunState } from './run-state.ts';
import type { PrerenderOptions } from './run.ts';
import { appHash, ROUTE_INDEX_FORMAT, routeId, type IndexedRoute, type RouteIndex } from './targets.ts';

const HOST = 'localhost';
const APP = appHash('build-1');

const indexed = (path: string, more: Partial<IndexedRoute> = {}): IndexedRoute => ({
  host: HOST, path, pagePath: path.slice(3), siteId: 'main', source: 'pages', locale: 'en', keys: [], reads: [],
  languages: ['en'], updatedAt: '2026-01-01', inSitemap: true, ...more,
});
const INDEX: RouteIndex = {
  format: ROUTE_INDEX_FORMAT, app: APP, system: 'system-1', keyIds: { '["nav"]': ['about-id'] },
  routes: [indexed('/en/about', { keys: ['about-id'] }), indexed('/en/contact', { keys: ['contact-id'] }), indexed('/en/p1', { source: 'catalogue' }), indexed('/de/about', { locale: 'de' })],
};

/** A live release holding `paths` with their rules, of which `missing` lost their files. */
function liveRelease(paths: string[], missing: string[] = []): LiveRelease {
  const meta = { routes: Object.fromEntries(paths.map((p) => [p, { fingerprint: 'f', csp: '' }])) } as unknown as BuildMeta;
  return {
    id: 'r1', root: '/static/releases/r1', hosts: null,
    buildOf: () => ({ latest: null, meta }),
    metaOf: () => meta,
    filesIntact: (_, path) => !missing.includes(path),
  };
}
const state = (opts: Partial<PrerenderOptions>, live: LiveRelease = liveRelease([])): RunState => ({
  opts: opts as PrerenderOptions, staticRoot: '/static', started: performance.now(), entry: { app: { render: async () => new Response() }, buildId: 'build-1' },
  appInput: 'build-1', app: APP, live,
});

describe('phases: target', () => {
  it('is a full run without named records or forced pages, and looks at no route index', () => {
    const asked: string[] = [];
    const t = targetPhase(state({}), (_, id) => { asked.push(id); return INDEX; });
    expect(t).toEqual({ fullRun: true, targeting: null, index: null });
    expect(asked).toEqual([]);
  });

  it('collects everything for named records without a live release, or when everything is forced', () => {
    const records = [{ model: 'page', id: 'about-id' }];
    expect(targetPhase(state({ records }, { ...liveRelease([]), id: null, root: null }), () => INDEX)).toEqual({ fullRun: false, targeting: null, index: null });
    expect(targetPhase(state({ records, force: { all: true } }), () => INDEX)).toEqual({ fullRun: false, targeting: null, index: null });
  });

  it('targets the routes a named record affects from the live route index, and forced pages count as named', () => {
    const live = liveRelease(INDEX.routes.map((r) => r.path));
    const t = targetPhase(state({ records: [{ model: 'page', id: 'about-id' }], force: { ids: ['contact-id'] } }, live), (_, id) => (id === 'r1' ? INDEX : null));
    expect(t.fullRun).toBe(false);
    expect(t.index).toBe(INDEX);
    expect(t.targeting?.targeted && t.targeting.ids).toEqual(['about-id', 'contact-id']);
    expect(t.targets?.keep(HOST, '/en/about')).toBeNull();
    expect(t.targets?.keep(HOST, '/en/contact')).toBeNull();
    expect(t.targets?.keep(HOST, '/en/p1')?.path).toBe('/en/p1');
  });

  it('says why it collects everything when the live route index cannot tell', () => {
    const t = targetPhase(state({ records: [{ model: 'page', id: 'about-id' }] }), () => null);
    expect(t.targeting).toEqual({ targeted: false, reason: 'the live release has no route index' });
    expect(t.targets).toBeUndefined();
  });
});

describe('phases: collect targets', () => {
  const affected = new Set([routeId(HOST, '/en/about')]);

  it('keeps an unaffected route only with its rule and its files in the live release', () => {
    const targets = collectTargets(INDEX, affected, new Set(['pages']), liveRelease(['/en/contact', '/en/p1', '/de/about'], ['/en/p1']));
    expect(targets.keep(HOST, '/en/about')).toBeNull();
    expect(targets.keep(HOST, '/en/contact')).toEqual(INDEX.routes[1]);
    expect(targets.keep(HOST, '/en/p1')).toBeNull();
    expect(targets.keep(HOST, '/en/new')).toBeNull();
    expect(collectTargets(INDEX, affected, new Set(), liveRelease([])).keep(HOST, '/en/contact')).toBeNull();
  });

  it('lists the live routes of a source by host and locale', () => {
    const targets = collectTargets(INDEX, affected, new Set(['pages']), liveRelease([]));
    expect(targets.routesOf(HOST, 'en', 'pages').map((r) => r.path)).toEqual(['/en/about', '/en/contact']);
    expect(targets.routesOf(HOST, 'de', 'pages').map((r) => r.path)).toEqual(['/de/about']);
    expect(targets.routesOf('other', 'en', 'pages')).toEqual([]);
  });
});

describe('phases: collect', () => {
  const collected = (systemHash: string): Collected => ({ system: { sites: [] } as unknown as SystemData, redirects: [], routes: [], hosts: new Map(), keyIds: new Map(), systemHash });
  /** A fake collect answering `hashes` in turn, recording the targets it was given. */
  const fakeCollect = (...hashes: string[]) => {
    const calls: (CollectTargets | undefined)[] = [];
    return { calls, collect: async (_: unknown, { targets }: { targets?: CollectTargets }) => { calls.push(targets); return collected(hashes[calls.length - 1]!); } };
  };
  const targets = collectTargets(INDEX, new Set(), new Set(['pages']), liveRelease([]));
  const targeted: TargetPhase = { fullRun: false, targeting: { targeted: true, ids: ['about-id'], affected: new Set(), sources: new Set(['pages']), index: INDEX }, targets, index: INDEX };

  it('records the service calls of a full run', async () => {
    const fake = fakeCollect('system-1');
    const c = await collectPhase(state({}), { fullRun: true, targeting: null, index: null }, fake);
    expect(c.recording).not.toBeNull();
    expect([c.scope, c.index, c.scopeReason]).toEqual(['full', null, undefined]);
  });

  it('stays targeted while the system data is the live index\'s', async () => {
    const fake = fakeCollect('system-1');
    const c = await collectPhase(state({ records: [{ model: 'page', id: 'about-id' }] }), targeted, fake);
    expect(fake.calls).toEqual([targets]);
    expect([c.scope, c.index, c.recording]).toEqual(['targeted', INDEX, null]);
  });

  it('collects everything again when the system data changed', async () => {
    const fake = fakeCollect('system-2', 'system-2');
    const c = await collectPhase(state({ records: [{ model: 'page', id: 'about-id' }] }), targeted, fake);
    expect(fake.calls).toEqual([targets, undefined]);
    expect([c.scope, c.index, c.scopeReason]).toEqual(['full', null, 'the system data changed']);
  });

  it('tells why a run that named records collected everything', async () => {
    const c = await collectPhase(state({ records: [{ model: 'page', id: 'x' }] }), { fullRun: false, targeting: { targeted: false, reason: 'the live release has no route index' }, index: null }, fakeCollect('system-1'));
    expect([c.scope, c.scopeReason]).toEqual(['full', 'the live release has no route index']);
  });
});

describe('phases: render jobs', () => {
  it('renders each route a plan renders into its host folder of the new release', () => {
    const route = { host: HOST, origin: 'http://localhost:4321', path: '/en/a', model: { v: 1 } } as unknown as PlannedRoute;
    const plan = { host: HOST, hostDir: '/new/localhost', byPath: new Map([['/en/a', route]]), diff: { render: ['/en/a'], unchanged: ['/en/b'], removed: [] } } as unknown as HostWork;
    expect(renderJobs([plan])).toEqual([{ host: HOST, hostDir: '/new/localhost', origin: 'http://localhost:4321', path: '/en/a', model: { v: 1 } }]);
  });
});

describe('phases: publish result', () => {
  const run = (deferTail: boolean): PublishedRun => ({
    run: { collected: { routes: [{}, {}, {}, {}] } as unknown as Collected, recording: null, index: null, scope: deferTail ? 'targeted' : 'full', scopeReason: deferTail ? undefined : 'the system data changed', collectSeconds: 1 },
    release: { releaseId: 'r2', releaseRoot: '/static/releases/r2', timestamp: '', plans: [], linkSeconds: 0.5 },
    rendered: { rules: new Map(), failed: ['localhost/en/x (500)'], done: 3, renderSeconds: 2 },
    artifacts: { unchanged: 1, removed: 0, deferTail },
  });

  it('counts the pages rendered without the failed ones and their rate with them', () => {
    expect(publishedResult(run(false), { seconds: 5, searchSeconds: 0.25, stageSeconds: 0.1 })).toEqual({
      releaseId: 'r2', rendered: 2, unchanged: 1, removed: 0, failed: ['localhost/en/x (500)'], total: 4, seconds: 5, collectSeconds: 1,
      linkSeconds: 0.5, renderSeconds: 2, publishSeconds: 0.25, stageSeconds: 0.1, scope: 'full', scopeReason: 'the system data changed', pagesPerSecond: 1.5,
    });
  });

  it('says when the search index follows the publish', () => {
    const r = publishedResult(run(true), { seconds: 5, searchSeconds: 0, stageSeconds: 0 });
    expect([r.scope, r.searchAfterPublish, 'scopeReason' in r]).toEqual(['targeted', true, false]);
  });
});
