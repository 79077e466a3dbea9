import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentHub } from './server.ts';
import { ContentStore } from './store.ts';
import { createTranslationExtension, type PageTranslationAnswer } from './translation.ts';
import type { HubHelpers } from './server.ts';
import { getPageTranslation, getPageTranslations, listEditorPages, resetTranslation, startTranslation } from '../../src/lib/content/translation/index.ts';
import type { ContentContext } from '../../src/lib/content/content-service.ts';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = join(here, '../data/content');
/** Sustainability (main site; content in en, de, fr). */
const SUSTAINABILITY = 'cm86g1xcd2xsqlb0racgnpi2o';
/** The draft-only page of the main site. */
const UPCOMING = 'cm8jznk14ogp5w4bt3515t2f7';

describe('translation jobs on the emulator clock (resolvers, fake time)', () => {
  let t = Date.parse('2026-05-01T10:00:00.000Z');
  const store = new ContentStore(DATA);
  const helpers = { store } as unknown as HubHelpers;
  const r = createTranslationExtension({ now: () => t, stepMs: 1000 }).resolvers(helpers) as unknown as {
    Query: { pageTranslation(_: unknown, a: { pageId: string }): PageTranslationAnswer | null };
    Mutation: {
      startTranslation(_: unknown, a: { pageId: string }): PageTranslationAnswer | null;
      resetTranslation(_: unknown, a: { pageId: string }): PageTranslationAnswer | null;
    };
  };
  const states = (a: PageTranslationAnswer | null) => Object.fromEntries(a!.targetLanguages.map((x) => [x.language, x.translationState]));

  it('targets the site languages other than the source (en); languages the page has are already translated', () => {
    const a = r.Query.pageTranslation(null, { pageId: SUSTAINABILITY })!;
    expect(a.sourceLanguage).toBe('en');
    expect(a.targetLanguages.map((x) => x.language)).toEqual(['cs', 'de', 'fr', 'hu', 'ja', 'pt', 'ro', 'sk', 'zh']);
    expect(states(a)).toMatchObject({ de: 'Translated', fr: 'Translated', cs: 'MarkedForTranslation' });
    expect(a.targetLanguages[0]!.id).toBe(`${SUSTAINABILITY}-cs`);
  });

  it('start marks every target, then each step moves it on and dates it; reset clears the dates and stops the clock', () => {
    const started = r.Mutation.startTranslation(null, { pageId: SUSTAINABILITY })!;
    expect(new Set(Object.values(states(started)))).toEqual(new Set(['MarkedForTranslation']));
    expect(started.targetLanguages.every((x) => x.exportedAt === null && x.importedAt === null)).toBe(true);

    t += 999;
    expect(new Set(Object.values(states(r.Query.pageTranslation(null, { pageId: SUSTAINABILITY }))))).toEqual(new Set(['MarkedForTranslation']));
    t += 1;
    const exported = r.Query.pageTranslation(null, { pageId: SUSTAINABILITY })!;
    expect(new Set(Object.values(states(exported)))).toEqual(new Set(['InProgress']));
    expect(exported.targetLanguages[0]!.exportedAt).toBe('2026-05-01T10:00:01.000Z');
    expect(exported.targetLanguages[0]!.importedAt).toBeNull();

    t += 5000;
    const done = r.Query.pageTranslation(null, { pageId: SUSTAINABILITY })!;
    expect(new Set(Object.values(states(done)))).toEqual(new Set(['Translated']));
    expect(done.targetLanguages[0]!.importedAt).toBe('2026-05-01T10:00:02.000Z');

    const reset = r.Mutation.resetTranslation(null, { pageId: SUSTAINABILITY })!;
    expect(new Set(Object.values(states(reset)))).toEqual(new Set(['MarkedForTranslation']));
    expect(reset.targetLanguages.every((x) => x.exportedAt === null && x.importedAt === null)).toBe(true);
    t += 10_000;
    expect(new Set(Object.values(states(r.Query.pageTranslation(null, { pageId: SUSTAINABILITY }))))).toEqual(new Set(['MarkedForTranslation']));
  });

  it('answers null for an unknown page', () => {
    expect(r.Query.pageTranslation(null, { pageId: 'nope' })).toBeNull();
    expect(r.Mutation.startTranslation(null, { pageId: 'nope' })).toBeNull();
  });
});

describe('translation jobs through the content client', () => {
  let server: Server;
  let ctx: ContentContext;
  const hub = async (query: string) => {
    const res = await fetch(ctx.config.endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return ((await res.json()) as { data: Record<string, unknown> }).data;
  };

  beforeAll(async () => {
    const started = await startContentHub({ port: 0, dataDir: DATA, quiet: true });
    server = started.server;
    ctx = { config: { endpoint: started.url }, locales: ['en'], stage: 'PUBLISHED' };
    await hub('mutation { setTranslationClock(stepMs: 0) }');
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('walks a page through start, explicit steps and reset', async () => {
    const states = (p: { targetLanguages: { translationState: string }[] } | null) => [...new Set(p!.targetLanguages.map((x) => x.translationState))];
    expect(states(await startTranslation(ctx, UPCOMING))).toEqual(['MarkedForTranslation']);
    // The clock is stopped (stepMs 0): nothing moves without a step.
    expect(states(await getPageTranslation(ctx, UPCOMING))).toEqual(['MarkedForTranslation']);
    await hub(`mutation { advanceTranslation(pageId: "${UPCOMING}") { pageId } }`);
    const exported = await getPageTranslation(ctx, UPCOMING);
    expect(states(exported)).toEqual(['InProgress']);
    expect(exported!.targetLanguages[0]!.exportedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    await hub('mutation { advanceTranslation { pageId } }');
    const both = await getPageTranslations(ctx, [UPCOMING, SUSTAINABILITY, 'unknown']);
    expect([...both.keys()]).toEqual([UPCOMING, SUSTAINABILITY]);
    expect(states(both.get(UPCOMING)!)).toEqual(['Translated']);
    expect(both.get(UPCOMING)!.targetLanguages[0]!.importedAt).toMatch(/^\d{4}-/);
    const reset = await resetTranslation(ctx, UPCOMING);
    expect(states(reset)).toEqual(['MarkedForTranslation']);
    expect(reset!.targetLanguages.every((x) => x.exportedAt === null && x.importedAt === null)).toBe(true);
    expect(await startTranslation(ctx, 'unknown')).toBeNull();
  });

  it('lists a site\'s pages per stage with their translation fields: the draft-only page and the draft title only in DRAFT', async () => {
    const published = await listEditorPages(ctx, 'site-main', 'PUBLISHED');
    const draft = await listEditorPages(ctx, 'site-main', 'DRAFT');
    expect(published.some((p) => p.id === UPCOMING)).toBe(false);
    expect(draft.find((p) => p.id === UPCOMING)).toMatchObject({ slug: 'upcoming-launch', isPublished: false, translationSourceLanguage: 'en' });
    expect(published.find((p) => p.id === SUSTAINABILITY)!.title).not.toBe('Sustainability and climate targets 2030');
    expect(draft.find((p) => p.id === SUSTAINABILITY)!.title).toBe('Sustainability and climate targets 2030');
    expect(draft.find((p) => p.id === SUSTAINABILITY)!.translationTargetLanguages).toContain('de');
  });
});
