import type { APIContext, APIRoute } from 'astro';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoContentHub, type DemoContentHub } from '../../../emulators/testing.ts';
import { cachedSource, DataCache } from '../../lib/cache/data-cache.ts';
import { getSystemData } from '../../lib/content/index.ts';
import { hashPasswordSync } from '../../lib/crypto/password.ts';
import type { SystemData } from '../../site/types.ts';
import { testServices } from '../../../tests/support/services.ts';
import type { Services } from '../platform/context.ts';
import { editorNavigation, postOnly, publicNavigation, translationReset, translationStart, translationState } from './api.server.ts';
import type { NavigationItem, SiteNavigationAnswer } from './navigation.ts';
import { EDITOR_COOKIE, newEditorSession } from './session.server.ts';

const HASH = hashPasswordSync('pw', { N: 2 ** 10, r: 8, p: 1 });
const EDITOR = `${EDITOR_COOKIE}=${newEditorSession(HASH)}`;
const SUSTAINABILITY = 'cm86g1xcd2xsqlb0racgnpi2o';

let hub: DemoContentHub;
let endpoint: string;
let services: Services;
let system: SystemData;
const data = cachedSource(new DataCache(), 'use', false);

beforeAll(async () => {
  hub = await startDemoContentHub();
  endpoint = hub.url;
  services = { ...testServices({ contentEndpoint: hub.url, catalogueEndpoint: hub.url }), editorPasswordHash: HASH };
  system = await getSystemData({ config: services.content, locales: ['en'], stage: 'PUBLISHED' });
  await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'mutation { setTranslationClock(stepMs: 0) }' }) });
});
afterAll(() => hub.close());

async function call(handler: APIRoute, path: string, opts: { params?: Record<string, string>; cookie?: string; method?: string; headers?: Record<string, string> } = {}) {
  const url = new URL(`http://localhost:4321${path}`);
  const request = new Request(url, { method: opts.method ?? 'GET', headers: { ...opts.headers, ...(opts.cookie ? { cookie: opts.cookie } : {}) } });
  const res = await handler({ request, url, params: opts.params ?? {}, locals: { api: { system, data, services } } } as unknown as APIContext);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** Every item of an answer, at every depth. */
function allItems(answer: SiteNavigationAnswer): NavigationItem[] {
  const out: NavigationItem[] = [];
  const walk = (items: NavigationItem[]) => { for (const i of items) { out.push(i); walk(i.items); } };
  const h = answer.site.headerNavigation;
  if (h) { walk(h.homeItems); walk(h.topItems); }
  for (const s of answer.site.footerNavigation?.navigationSections ?? []) walk(s.items);
  return out;
}

describe('GET /api/site-navigation/public/{siteId}', () => {
  it('answers the spec\'s shape, PUBLISHED, without hidden items, with a short public Cache-Control', async () => {
    const res = await call(publicNavigation, '/api/site-navigation/public/site-main?lang=en', { params: { siteId: 'site-main' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=60/);
    const answer = res.body as unknown as SiteNavigationAnswer;
    expect(Object.keys(answer.site.headerNavigation!).sort()).toEqual(['hidden', 'homeItems', 'theme', 'topItems']);
    expect(Object.keys(answer.site.footerNavigation!).sort()).toEqual(['contactLink', 'navigationSections', 'theme']);
    expect(answer.site).toMatchObject({ id: 'site-main', language: 'en', stage: 'PUBLISHED' });
    const items = allItems(answer);
    expect(items.length).toBeGreaterThan(5);
    expect(items.some((i) => i.hidden)).toBe(false);
    expect(items.map((i) => i.id)).not.toContain('nav-main-header-upcoming-launch');
    expect(items.map((i) => i.id)).not.toContain('nav-main-footer-trade-fair-shortcut');
    expect(items.every((i) => typeof i.link.href === 'string' && i.link.href.length > 0)).toBe(true);
    expect(JSON.stringify(answer)).not.toContain('Lumeca generation');
  });

  it('validates its parameters: unknown site 404, malformed site or lang 400, a language the site lacks 400', async () => {
    expect((await call(publicNavigation, '/x?lang=en', { params: { siteId: 'site-nope' } })).status).toBe(404);
    const badSite = await call(publicNavigation, '/x?lang=en', { params: { siteId: '../etc' } });
    expect(badSite.status).toBe(400);
    expect(badSite.body.message).toBe('siteId must be 1 to 64 letters, digits, - or _');
    expect((await call(publicNavigation, '/x?lang=EN', { params: { siteId: 'site-main' } })).status).toBe(400);
    const lacking = await call(publicNavigation, '/x?lang=de', { params: { siteId: 'site-brand-portal' } });
    expect(lacking.status).toBe(400);
    expect(lacking.body.message).toMatch(/^lang de is not a language of site site-brand-portal/);
  });

  it('without lang answers the site\'s fallback language', async () => {
    const res = await call(publicNavigation, '/x', { params: { siteId: 'site-main' } });
    expect((res.body as unknown as SiteNavigationAnswer).site.language).toBe('en');
  });
});

describe('GET /api/site-navigation/editor/{siteId}', () => {
  it('needs the editor cookie', async () => {
    const res = await call(editorNavigation, '/x?lang=en&stage=DRAFT', { params: { siteId: 'site-main' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('shows hidden items marked; the draft-only page\'s item only in DRAFT', async () => {
    const published = (await call(editorNavigation, '/x?lang=en', { params: { siteId: 'site-main' }, cookie: EDITOR })).body as unknown as SiteNavigationAnswer;
    const draftRes = await call(editorNavigation, '/x?lang=en&stage=DRAFT', { params: { siteId: 'site-main' }, cookie: EDITOR });
    expect(draftRes.headers.get('cache-control')).toBe('no-store');
    const draft = draftRes.body as unknown as SiteNavigationAnswer;
    expect(published.site.stage).toBe('PUBLISHED');
    expect(draft.site.stage).toBe('DRAFT');
    const shortcut = allItems(published).find((i) => i.id === 'nav-main-footer-trade-fair-shortcut');
    expect(shortcut).toMatchObject({ hidden: true });
    expect(allItems(published).map((i) => i.id)).not.toContain('nav-main-header-upcoming-launch');
    expect(allItems(draft).find((i) => i.id === 'nav-main-header-upcoming-launch')).toMatchObject({ hidden: true, title: 'Preview: next Lumeca generation', link: { href: '/en/upcoming-launch' } });
  });

  it('refuses an unknown stage with a clear message', async () => {
    const res = await call(editorNavigation, '/x?lang=en&stage=STAGING', { params: { siteId: 'site-main' }, cookie: EDITOR });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('stage must be DRAFT or PUBLISHED');
  });
});

describe('the translation API', () => {
  it('answers sourceLanguage, targetLanguages and the page\'s state; start and reset change it', async () => {
    const state = await call(translationState, '/x', { params: { pageId: SUSTAINABILITY }, cookie: EDITOR });
    expect(state.status).toBe(200);
    expect(state.headers.get('cache-control')).toBe('no-store');
    expect(state.body).toMatchObject({ pageId: SUSTAINABILITY, sourceLanguage: 'en', translationState: 'MarkedForTranslation' });
    const targets = state.body.targetLanguages as Record<string, unknown>[];
    expect(Object.keys(targets[0]!).sort()).toEqual(['exportedAt', 'id', 'importedAt', 'language', 'translationState']);
    // As the editor area's script sends it: same origin.
    const sameOrigin = { origin: 'http://localhost:4321', 'sec-fetch-site': 'same-origin' };
    const started = await call(translationStart, '/x', { params: { pageId: SUSTAINABILITY }, cookie: EDITOR, method: 'POST', headers: sameOrigin });
    expect(started.body).toMatchObject({ translationState: 'MarkedForTranslation' });
    expect((started.body.targetLanguages as { exportedAt: unknown }[]).every((t) => t.exportedAt === null)).toBe(true);
    await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `mutation { advanceTranslation(pageId: "${SUSTAINABILITY}") { pageId } }` }) });
    expect((await call(translationState, '/x', { params: { pageId: SUSTAINABILITY }, cookie: EDITOR })).body.translationState).toBe('InProgress');
    const reset = await call(translationReset, '/x', { params: { pageId: SUSTAINABILITY }, cookie: EDITOR, method: 'POST' });
    expect(reset.body.translationState).toBe('MarkedForTranslation');
  });

  it('404 for an unknown page, 401 without the cookie, 405 for GET on start/reset', async () => {
    expect((await call(translationState, '/x', { params: { pageId: 'nopage' }, cookie: EDITOR })).status).toBe(404);
    expect((await call(translationStart, '/x', { params: { pageId: SUSTAINABILITY }, method: 'POST' })).status).toBe(401);
    const get = await call(postOnly, '/x', { params: { pageId: SUSTAINABILITY } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('start and reset refuse a cross-site request with the cookie (403, a clear message)', async () => {
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      // Another site of the platform on a sibling subdomain is same-site, but not the same origin.
      { origin: 'http://events.localhost:4321', 'sec-fetch-site': 'same-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
    ];
    for (const handler of [translationStart, translationReset]) {
      for (const headers of crossSite) {
        const res = await call(handler, '/x', { params: { pageId: SUSTAINABILITY }, cookie: EDITOR, method: 'POST', headers });
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.body).toEqual({ error: 'cross-site-request', message: 'Cross-site request refused: this endpoint changes state and accepts requests from its own origin only (Origin and Sec-Fetch-Site must name it).' });
      }
    }
    // A reading GET is not refused for its origin (it changes nothing).
    expect((await call(translationState, '/x', { params: { pageId: SUSTAINABILITY }, cookie: EDITOR, headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
  });
});

describe('a content hub that does not answer', () => {
  it('gives 502 with a message of our own, never the upstream error text', async () => {
    const down = { ...services, content: { ...services.content, endpoint: 'http://127.0.0.1:9/graphql' } };
    const url = new URL(`http://localhost:4321/api/translation/state/${SUSTAINABILITY}`);
    const request = new Request(url, { headers: { cookie: EDITOR } });
    const res = await translationState({ request, url, params: { pageId: SUSTAINABILITY }, locals: { api: { system, data, services: down } } } as unknown as APIContext);
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: 'content-hub', message: 'The content hub did not answer. Please try again later.' });
    expect(text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|fetch failed/);
  });
});
