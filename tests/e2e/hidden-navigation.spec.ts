import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, findInPublicOutput } from './fixtures/index.ts';

// Hidden navigation items (and items whose page is not published) are for the editor's navigation
// only: no prerendered page, payload, manifest, sitemap or search document may name them.
const CONTENT = join(process.cwd(), 'emulators/data/content');
const DIST = join(process.cwd(), process.env.DIST_DIR ?? 'dist');

interface RawItem { id: string; title: Record<string, string>; hidden?: boolean; link?: { page?: string } | null; items?: RawItem[] }
const navigation = JSON.parse(readFileSync(join(CONTENT, 'navigation.json'), 'utf8')) as { homeItems?: RawItem[]; topItems?: RawItem[]; navigationSections?: { items: RawItem[] }[] }[];
const pages = JSON.parse(readFileSync(join(CONTENT, 'pages.json'), 'utf8')) as { id: string; stages?: string[] }[];
const unpublished = new Set(pages.filter((p) => !(p.stages ?? ['PUBLISHED']).includes('PUBLISHED')).map((p) => p.id));

const secret: RawItem[] = [];
const collect = (items: RawItem[] = [], below = false) => {
  for (const item of items) {
    const hide = below || !!item.hidden || (!!item.link?.page && unpublished.has(item.link.page));
    if (hide) secret.push(item);
    collect(item.items, hide);
  }
};
for (const nav of navigation) {
  collect(nav.homeItems);
  collect(nav.topItems);
  for (const s of nav.navigationSections ?? []) collect(s.items);
}
const titles = [...new Set(secret.flatMap((i) => Object.values(i.title)))];


test('the demo data has hidden navigation items, one of them for an unpublished page', () => {
  expect(secret.length).toBeGreaterThanOrEqual(2);
  expect(secret.some((i) => i.link?.page && unpublished.has(i.link.page))).toBe(true);
  expect(secret.some((i) => i.hidden && i.link?.page && !unpublished.has(i.link.page))).toBe(true);
});

test('no static file or search document names a hidden navigation item', () => {
  const { files, found } = findInPublicOutput(DIST, titles);
  expect(files).toBeGreaterThan(100);
  expect(found).toEqual([]);
});
