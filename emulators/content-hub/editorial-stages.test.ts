import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEditorialExtension } from './editorial.ts';
import type { HubHelpers } from './server.ts';

// Stages of stories and media releases: a draft overlay (shown in DRAFT only) and entries that
// exist only in DRAFT (not published yet), over a copy of the demo data with one story made draft-only.
const source = join(dirname(fileURLToPath(import.meta.url)), '../data/content/editorial');
const dir = mkdtempSync(join(tmpdir(), 'editorial-stages-'));
cpSync(source, dir, { recursive: true });
const stories = JSON.parse(readFileSync(join(dir, 'stories.json'), 'utf8')) as { slug: string; stages?: string[]; category: string }[];
const unpublished = stories.find((s) => s.slug !== 'carpatia-doubles-crimping-output')!;
unpublished.stages = ['DRAFT'];
writeFileSync(join(dir, 'stories.json'), JSON.stringify(stories));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const helpers = { origin: 'http://hub', abs: (u: string) => u, resolveJson: (v: unknown) => v, store: {}, addFileLinks: () => {} } as unknown as HubHelpers;
const { Query } = createEditorialExtension({ dataDir: dir }).resolvers(helpers) as { Query: Record<string, (parent: unknown, args: Record<string, unknown>, ctx: { locales: string[] }) => unknown> };
const ctx = { locales: ['en'] };
type Item = { slug: string; title: string };

describe('editorial stages', () => {
  it('keeps an entry that is only in DRAFT out of PUBLISHED answers', () => {
    expect(Query.story!(null, { slug: unpublished.slug, stage: 'PUBLISHED' }, ctx)).toBeNull();
    expect((Query.story!(null, { slug: unpublished.slug, stage: 'DRAFT' }, ctx) as Item).slug).toBe(unpublished.slug);
    const published = Query.stories!(null, { first: 100, skip: 0, stage: 'PUBLISHED' }, ctx) as { items: Item[]; total: number };
    const draft = Query.stories!(null, { first: 100, skip: 0, stage: 'DRAFT' }, ctx) as { items: Item[]; total: number };
    expect(published.items.map((s) => s.slug)).not.toContain(unpublished.slug);
    expect(draft.items.map((s) => s.slug)).toContain(unpublished.slug);
    expect(draft.total).toBe(published.total + 1);
  });

  it('shows a draft overlay in DRAFT only', () => {
    const slug = 'carpatia-doubles-crimping-output';
    const published = Query.story!(null, { slug, stage: 'PUBLISHED' }, ctx) as Item;
    const draft = Query.story!(null, { slug, stage: 'DRAFT' }, ctx) as Item;
    expect(draft.title).not.toBe(published.title);
    expect(draft.title).toBe('Carpatia Cable Systems doubles its crimping output: the 2026 follow-up');
  });
});
