import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, findInPublicOutput, raw } from './fixtures/index.ts';

// Every download of the demo data, sorted by who may see the pages linking it: a file linked only
// from protected pages (protection 1 or 2, or below such a page) or unpublished pages does not
// exist for a visitor; a file that any public page (or story, media release) links is public.
const CONTENT = join(process.cwd(), 'emulators/data/content');
const DIST = join(process.cwd(), process.env.DIST_DIR ?? 'dist');

interface RawPage { id: string; site: string | null; slug: string; parent: string | null; protection?: number; stages?: string[]; content: Record<string, { title: string; description?: string; modules: unknown[] }> }
interface FileRef { slug: string; locale: string }

const pages = JSON.parse(readFileSync(join(CONTENT, 'pages.json'), 'utf8')) as RawPage[];
const byId = new Map(pages.map((p) => [p.id, p]));
const editorial = ['stories.json', 'media-releases.json'].flatMap((f) => JSON.parse(readFileSync(join(CONTENT, 'editorial', f), 'utf8')) as { content: unknown }[]);

function filesIn(value: unknown, out: FileRef[] = []): FileRef[] {
  if (Array.isArray(value)) for (const v of value) filesIn(v, out);
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.fileName === 'string' && typeof o.slug === 'string') out.push({ slug: o.slug, locale: String(o.locale) });
    else for (const v of Object.values(o)) filesIn(v, out);
  }
  return out;
}

function isProtected(page: RawPage): boolean {
  for (let p: RawPage | undefined = page; p; p = p.parent ? byId.get(p.parent) : undefined) if ((p.protection ?? 0) > 0) return true;
  return false;
}
const isPublished = (p: RawPage) => (p.stages ?? ['PUBLISHED']).includes('PUBLISHED');

const key = (f: FileRef) => `${f.slug}?l=${f.locale}`;
const publicFiles = new Map<string, FileRef>();
const hiddenFiles = new Map<string, FileRef>();
for (const p of pages) for (const f of filesIn(p.content)) (isPublished(p) && !isProtected(p) ? publicFiles : hiddenFiles).set(key(f), f);
for (const e of editorial) for (const f of filesIn(e.content)) publicFiles.set(key(f), f);
// A file linked from a public and a protected page stays public.
const shared = [...hiddenFiles.keys()].filter((k) => publicFiles.has(k));
for (const k of shared) hiddenFiles.delete(k);
const protectedPages = pages.filter(isProtected);

const url = (f: FileRef) => (f.locale === 'en' ? `/file/${f.slug}` : `/file/${f.slug}?l=${f.locale}`);

test('the demo data has protected pages, a child of one, and a file shared with a public page', () => {
  expect(protectedPages.length).toBeGreaterThanOrEqual(3);
  expect(protectedPages.some((p) => !p.protection)).toBe(true);
  expect(hiddenFiles.size).toBeGreaterThanOrEqual(5);
  expect(shared.length).toBeGreaterThan(0);
});

test('every file linked only from protected pages is refused: 404, never cached', async () => {
  for (const f of hiddenFiles.values()) {
    const res = await raw(url(f));
    expect(res.status, url(f)).toBe(404);
    expect(res.text, url(f)).toBe('File not found');
    expect(res.headers['cache-control'], url(f)).toBe('private, no-store');
  }
  // Forcing a download changes nothing.
  const first = [...hiddenFiles.values()][0]!;
  expect((await raw(`/file/${first.slug}?dl=true`)).status).toBe(404);
});

test('every file of a public page is served with public caching', async () => {
  expect(publicFiles.size).toBeGreaterThan(20);
  for (const f of publicFiles.values()) {
    const res = await raw(url(f));
    expect(res.status, url(f)).toBe(200);
    expect(res.headers['content-type'], url(f)).toBe('application/pdf');
    expect(res.headers['cache-control'], url(f)).toBe('public, max-age=3600');
  }
});

test('an unknown file looks exactly like a refused one', async () => {
  const res = await raw('/file/no-such-file-anywhere');
  expect([res.status, res.text, res.headers['cache-control']]).toEqual([404, 'File not found', 'private, no-store']);
});

test('a child of a protected page answers its protected parent\'s password form, not its content', async () => {
  const child = protectedPages.find((p) => !p.protection && p.parent)!;
  const slugs: string[] = [];
  for (let p: RawPage | undefined = child; p; p = p.parent ? byId.get(p.parent) : undefined) slugs.unshift(p.slug);
  expect(child.site).toBe('site-main');
  const res = await raw(`/en/${slugs.join('/')}`);
  expect(res.status).toBe(200);
  expect(res.headers['x-render']).toBe('on-demand');
  expect(res.headers['cache-control']).toBe('private, no-store');
  expect(res.text).toContain('name="password"');
  expect(res.text).not.toContain(child.content.en!.title);
  for (const f of filesIn(child.content)) expect(res.text).not.toContain(`/file/${f.slug}`);
  expect(res.text).not.toContain((child.content.en!.modules[0] as { blocks: { text: string }[] }).blocks[0]!.text);
});


test('no public output holds a protected page\'s texts or file links', () => {
  const needles = new Set<string>();
  for (const p of protectedPages) {
    for (const c of Object.values(p.content)) {
      needles.add(c.title);
      if (c.description) needles.add(c.description);
    }
  }
  for (const f of hiddenFiles.values()) needles.add(`/file/${f.slug}`);
  const { files, found } = findInPublicOutput(DIST, needles);
  expect(files).toBeGreaterThan(100);
  expect(found).toEqual([]);
});
