import { describe, expect, it } from 'vitest';
import type { BuildMeta } from '../delivery/static-site.ts';
import { planRelease, type PlanInput, type PlanRoute } from './plan.ts';

const route = (path: string, records: string[], keys: string[] = [], host = 'localhost'): PlanRoute => ({
  host, origin: `http://${host}:4321`, path, recordHashes: records, keys,
});

const ROUTES = [
  route('/en', ['home-v1'], ['home-id', 'home']),
  route('/en/about-us', ['about-v1'], ['about-id', 'about-us']),
  route('/de/about-us', ['about-v1'], ['about-id', 'about-us']),
];

/** Plans a run over the given live state (everything live has its files unless said otherwise). */
function plan(over: Partial<PlanInput<PlanRoute>> & { live?: Record<string, BuildMeta> }) {
  const live = over.live ?? {};
  return planRelease({
    appInput: 'app-1',
    hosts: ['localhost'],
    routes: ROUTES,
    previous: (host) => live[host] ?? null,
    hasFile: () => true,
    liveHosts: Object.keys(live),
    ...over,
  });
}

/** The meta a run of `input` would have published: every planned route with its fingerprint. */
function published(input: Partial<PlanInput<PlanRoute>> = {}): Record<string, BuildMeta> {
  const { hosts } = plan(input);
  return Object.fromEntries(hosts.map((h) => [h.host, {
    id: 'b1', timestamp: 't', appBuildId: 'app-1', redirects: [],
    routes: Object.fromEntries(Object.entries(h.fingerprints).map(([p, fingerprint]) => [p, { fingerprint, csp: null }])),
  }]));
}

const diffOf = (result: ReturnType<typeof plan>, host = 'localhost') => {
  const d = result.hosts.find((h) => h.host === host)!.diff;
  return { render: [...d.render].sort(), unchanged: [...d.unchanged].sort(), removed: [...d.removed].sort() };
};

describe('planRelease', () => {
  it('renders every route when nothing is live', () => {
    const result = plan({});
    expect(diffOf(result)).toEqual({ render: ['/de/about-us', '/en', '/en/about-us'], unchanged: [], removed: [] });
    expect(result.changed).toBe(true);
  });

  it('keeps every route and needs no release when nothing changed', () => {
    const result = plan({ live: published() });
    expect(diffOf(result)).toEqual({ render: [], unchanged: ['/de/about-us', '/en', '/en/about-us'], removed: [] });
    expect(result.changed).toBe(false);
  });

  it('renders only the routes a changed record is part of', () => {
    const routes = [ROUTES[0]!, route('/en/about-us', ['about-v2']), ROUTES[2]!];
    const result = plan({ live: published(), routes });
    expect(diffOf(result)).toEqual({ render: ['/en/about-us'], unchanged: ['/de/about-us', '/en'], removed: [] });
    expect(result.changed).toBe(true);
  });

  it('renders a route when a record is added to it (say the chrome), not only when one changes', () => {
    const routes = [route('/en', ['home-v1', 'footer-v1']), ROUTES[1]!, ROUTES[2]!];
    expect(diffOf(plan({ live: published(), routes })).render).toEqual(['/en']);
  });

  it('removes a route that vanished from the route set, and renders a new one', () => {
    const routes = [ROUTES[0]!, ROUTES[1]!, route('/en/new', ['new-v1'])];
    const result = plan({ live: published(), routes });
    expect(diffOf(result)).toEqual({ render: ['/en/new'], unchanged: ['/en', '/en/about-us'], removed: ['/de/about-us'] });
    expect(result.changed).toBe(true);
  });

  it('needs a release when a route only vanished', () => {
    const result = plan({ live: published(), routes: ROUTES.slice(0, 2) });
    expect(diffOf(result)).toEqual({ render: [], unchanged: ['/en', '/en/about-us'], removed: ['/de/about-us'] });
    expect(result.changed).toBe(true);
  });

  it('renders everything when the app build (or the render configuration) changed', () => {
    const result = plan({ live: published(), appInput: 'app-2' });
    expect(diffOf(result)).toEqual({ render: ['/de/about-us', '/en', '/en/about-us'], unchanged: [], removed: [] });
  });

  it('renders a route whose origin changed (the fingerprint covers the full URL)', () => {
    const live = published();
    const moved = ROUTES.map((r) => ({ ...r, origin: 'https://localhost' }));
    expect(diffOf(plan({ live, routes: moved })).render).toHaveLength(3);
  });

  it.each([
    [{ ids: ['about-id'] }, ['/de/about-us', '/en/about-us']],
    [{ slugs: ['home'] }, ['/en']],
    [{ ids: ['unknown'], slugs: ['about-us'] }, ['/de/about-us', '/en/about-us']],
    [{ all: true }, ['/de/about-us', '/en', '/en/about-us']],
    [{ ids: [], slugs: [], all: false }, []],
  ])('renders the routes forced by %j although unchanged', (force, rendered) => {
    const result = plan({ live: published(), force });
    expect(diffOf(result).render).toEqual(rendered);
    expect(result.changed).toBe(rendered.length > 0);
  });

  it('renders again a live route whose files went missing, and asks only about live routes', () => {
    const asked: string[] = [];
    const routes = [...ROUTES, route('/en/new', ['new-v1'])];
    const result = plan({
      live: published(),
      routes,
      hasFile: (host, path) => { asked.push(`${host}${path}`); return path !== '/en/about-us'; },
    });
    expect(diffOf(result)).toEqual({ render: ['/en/about-us', '/en/new'], unchanged: ['/de/about-us', '/en'], removed: [] });
    expect(asked.sort()).toEqual(['localhost/de/about-us', 'localhost/en', 'localhost/en/about-us']);
  });

  it('plans hosts apart: a change on one host renders nothing on the other', () => {
    const both = [...ROUTES, route('/en', ['events-v1'], [], 'events.localhost')];
    const live = published({ hosts: ['localhost', 'events.localhost'], routes: both });
    const changed = [...ROUTES, route('/en', ['events-v2'], [], 'events.localhost')];
    const result = plan({ live, hosts: ['localhost', 'events.localhost'], routes: changed });
    expect(diffOf(result).render).toEqual([]);
    expect(diffOf(result, 'events.localhost')).toEqual({ render: ['/en'], unchanged: [], removed: [] });
  });

  it('needs a release for a new host even without routes, and for a live host that is no longer prerendered', () => {
    const live = published();
    expect(plan({ live, hosts: ['localhost', 'events.localhost'] }).changed).toBe(true);
    const gone = published({ hosts: ['localhost', 'events.localhost'] });
    const result = plan({ live: gone });
    expect(diffOf(result).render).toEqual([]);
    expect(result.changed).toBe(true);
  });

  it('hands each host its routes by path and its previous meta', () => {
    const live = published();
    const [host] = plan({ live }).hosts;
    expect(host!.previous).toBe(live.localhost);
    expect([...host!.byPath.keys()].sort()).toEqual(['/de/about-us', '/en', '/en/about-us']);
    expect(host!.byPath.get('/en')).toBe(ROUTES[0]);
  });
});
