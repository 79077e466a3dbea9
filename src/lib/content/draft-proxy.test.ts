import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoContentHub, type DemoContentHub } from '../../../emulators/testing.ts';
import type { ContentConfig } from './content-service.ts';
import { allowedOperation, DRAFT_PROXY_OPERATIONS, draftPassthrough, isProtectedRecord, operationNameOf, withoutProtectedPages } from './draft-proxy.ts';
import { FILE, PAGE_BY_PATH, SYSTEM_DATA } from './queries.ts';
import { listPages } from './index.ts';
import { MEDIA_RELEASE, STORY } from './editorial/queries.ts';

const page = (id: string, protection: number, parents: { id: string; protection: number }[] = []) => ({
  id, title: `Page ${id}`, protection, isPublished: true, parents: parents.map((p) => ({ ...p, isPublished: true })),
});

describe('the operation allow-list', () => {
  it('accepts the app\'s own documents, also re-indented, with or without a matching operationName', () => {
    expect(allowedOperation(PAGE_BY_PATH)).toEqual({ ok: true, name: 'PageByPath' });
    expect(allowedOperation(PAGE_BY_PATH.replace(/\n\s*/g, '\n\t'), 'PageByPath')).toEqual({ ok: true, name: 'PageByPath' });
    expect(allowedOperation(STORY, null)).toEqual({ ok: true, name: 'Story' });
  });

  it('refuses other operations, changed documents and a mismatched operationName', () => {
    expect(allowedOperation(FILE)).toMatchObject({ ok: false, reason: expect.stringContaining('own content operations') });
    expect(allowedOperation(SYSTEM_DATA).ok).toBe(false);
    expect(allowedOperation('{ file(slug: "x") { url } }').ok).toBe(false);
    expect(allowedOperation('mutation PageByPath { updatePageTitle(id: "x", language: "en", title: "y") { id } }')).toMatchObject({ ok: false, reason: expect.stringContaining('differs') });
    expect(allowedOperation(PAGE_BY_PATH.replace('modules', 'modules usedBy { id }'))).toMatchObject({ ok: false, reason: expect.stringContaining('differs') });
    expect(allowedOperation(PAGE_BY_PATH, 'Pages')).toMatchObject({ ok: false, reason: expect.stringContaining('does not match') });
  });

  it('names every document by its own operation', () => {
    for (const [name, doc] of Object.entries(DRAFT_PROXY_OPERATIONS)) expect(operationNameOf(doc)).toBe(name);
  });
});

describe('the protection filter', () => {
  it('judges a page by its own protection and every parent\'s, failing closed', () => {
    expect(isProtectedRecord(page('a', 0))).toBe(false);
    expect(isProtectedRecord(page('a', 1))).toBe(true);
    expect(isProtectedRecord(page('a', 2))).toBe(true);
    expect(isProtectedRecord(page('child', 0, [{ id: 'p', protection: 0 }, { id: 'gp', protection: 2 }]))).toBe(true);
    expect(isProtectedRecord({ id: 'x', protection: '0', parents: [] })).toBe(true);
    expect(isProtectedRecord({ id: 'x', protection: 0, parents: 'none' })).toBe(true);
    expect(isProtectedRecord({ id: 'x', title: 'a nav item' })).toBe(false);
  });

  it('drops protected pages from lists and nulls them in fields, keeping public ones whole', () => {
    const open = page('open', 0, [{ id: 'root', protection: 0 }]);
    const { data, removed } = withoutProtectedPages({
      pages: [open, page('secret', 1), page('below', 0, [{ id: 'secret', protection: 1 }])],
      pageByPath: page('secret', 1),
      other: { nested: [{ deep: page('deep', 2) }] },
    });
    expect(removed).toBe(4);
    expect(data).toEqual({ pages: [open], pageByPath: null, other: { nested: [{ deep: null }] } });
  });
});

// Against the content-hub emulator: the stage is forced to DRAFT and its protected pages never pass.
let hub: DemoContentHub;
let config: ContentConfig;

beforeAll(async () => {
  hub = await startDemoContentHub();
  config = { endpoint: hub.url };
});
afterAll(() => hub.close());

describe('draftPassthrough', () => {
  it('answers in stage DRAFT whatever stage the client asked for', async () => {
    const data = await draftPassthrough(config, ['en'], 'PageByPath', { site: 'site-main', path: '/about-us/sustainability', stage: 'PUBLISHED' }) as { pageByPath: { title: string } };
    expect(data.pageByPath.title).toBe('Sustainability and climate targets 2030');
    const draftOnly = await draftPassthrough(config, ['en'], 'PageByPath', { site: 'site-main', path: '/upcoming-launch' }) as { pageByPath: { title: string } };
    expect(draftOnly.pageByPath.title).toBe('Introducing the next Lumeca generation');
  });

  it('never answers a protected page or one below it', async () => {
    expect(await draftPassthrough(config, ['en'], 'PageByPath', { site: 'site-brand-portal', path: '/lumeca-brand-portal-protected' })).toEqual({ pageByPath: null });
    expect(await draftPassthrough(config, ['en'], 'PageByPath', { site: 'site-events-na', path: '/internal-2025/x4m9q2tz' })).toEqual({ pageByPath: null });
    const all = await draftPassthrough(config, ['en'], 'Pages', { site: null }) as { pages: { id: string; protection: number; parents: { protection: number }[] }[] };
    expect(all.pages.length).toBeGreaterThan(10);
    for (const p of all.pages) expect([p.protection, ...p.parents.map((x) => x.protection)].every((n) => n === 0)).toBe(true);
    // The hub does answer them (the filter, not the data, keeps them out).
    const unfiltered = await listPages({ config, locales: ['en'], stage: 'DRAFT' });
    expect(unfiltered.filter((p) => p.protection > 0).length).toBeGreaterThanOrEqual(3);
    expect(all.pages.length).toBe(unfiltered.filter((p) => p.protection === 0).length);
  });

  it('gives stories and media releases in DRAFT', async () => {
    expect(STORY).toContain('$stage');
    const story = await draftPassthrough(config, ['en'], 'Story', { slug: 'carpatia-doubles-crimping-output' }) as { story: { title: string } };
    expect(story.story.title).toBe('Carpatia Cable Systems doubles its crimping output: the 2026 follow-up');
    expect(MEDIA_RELEASE).toContain('$stage');
    const release = await draftPassthrough(config, ['en'], 'MediaRelease', { slug: 'annual-results-2025' }) as { mediaRelease: { title: string } };
    expect(release.mediaRelease.title).toBe('Komax group closes 2025 with record sales and proposes a higher dividend');
  });
});
