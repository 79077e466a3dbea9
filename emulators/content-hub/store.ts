import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export type Localized<T> = Record<string, T>;

export interface RawPage {
  id: string;
  site: string | null;
  mainSiteOnly?: boolean;
  parent: string | null;
  slug: string;
  pageType?: string;
  /** The kind of catalogue entry `injection` names: 'Product' or 'Service'. */
  type?: string;
  /** Slug of the product or service the page shows. */
  injection?: string;
  /** The industry the page addresses. */
  branch?: string;
  theme?: string;
  countries?: string[];
  protection?: number;
  /** scrypt hash of the password of a protection-1 page (never answered with the page). */
  passwordHash?: string;
  /** The customer-area role a protection-2 page requires. */
  requiredRole?: string;
  stages?: string[];
  updatedAt?: string;
  content: Localized<{ title: string; description?: string; modules: unknown[] }>;
  draft?: Localized<{ title: string; description?: string; modules: unknown[] }>;
}

/** A record the emulator answers as the demo data has it (its fields are those of the GraphQL type). */
export type RawRecord = Record<string, unknown>;

export interface RawLink {
  text?: string | Localized<string> | null;
  page?: string | null;
  path?: string | null;
  url?: string | null;
  productSlug?: string | null;
  serviceSlug?: string | null;
  pageParameters?: unknown;
  openInNewTab?: boolean;
}

export interface RawNavItem {
  id: string;
  title: Localized<string>;
  link?: RawLink | null;
  countries?: string[];
  hidden?: boolean;
  hideSubItems?: boolean;
  breadcrumbOverride?: Localized<string> | null;
  /** The mega menu's marketing section (top-level items): a logo asset, a colour name, a link. */
  marketingSection?: {
    logo?: { url: string; mimeType: string; alternativeText?: string | Localized<string> | null } | null;
    backgroundColor?: string | null;
    link?: RawLink | null;
  } | null;
  items?: RawNavItem[];
}

export interface RawNavigation {
  id: string;
  kind: 'header' | 'footer';
  theme?: string;
  hidden?: boolean;
  homeItems?: RawNavItem[];
  topItems?: RawNavItem[];
  contactLink?: RawLink | null;
  navigationSections?: { id: string; title: Localized<string>; items?: RawNavItem[] }[];
}

export interface RawData {
  system: {
    contentLocales?: string[];
    languages: RawRecord[];
    countries: RawRecord[];
    brands: (RawRecord & { image?: unknown })[];
    sites: (RawRecord & { id: string })[];
  };
  navigation: RawNavigation[];
  pages: RawPage[];
  redirects: { previousUrl: string; target: string }[];
}

const FILES = ['system.json', 'navigation.json', 'pages.json', 'redirects.json'] as const;

/** The content-hub dataset, read from JSON files and reloaded when one of them changes. */
export class ContentStore {
  data!: RawData;
  private watchers: FSWatcher[] = [];
  private dir: string;

  constructor(dir: string, opts: { watch?: boolean } = {}) {
    this.dir = dir;
    this.load();
    if (opts.watch) {
      let timer: NodeJS.Timeout | undefined;
      for (const f of FILES) {
        this.watchers.push(watch(join(dir, f), () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            try { this.load(); } catch (err) { console.error(`[content-hub] could not reload ${f}:`, (err as Error).message); }
          }, 50);
        }));
      }
    }
  }

  load(): void {
    const read = (f: string) => JSON.parse(readFileSync(join(this.dir, f), 'utf8'));
    this.data = {
      system: read('system.json'),
      navigation: read('navigation.json'),
      pages: read('pages.json'),
      redirects: read('redirects.json'),
    };
  }

  close(): void {
    for (const w of this.watchers) w.close();
  }

  pageById(id: string): RawPage | undefined {
    return this.data.pages.find((p) => p.id === id);
  }

  /** The parent chain of a page, nearest first (cycles cut). */
  parentsOf(page: RawPage): RawPage[] {
    const out: RawPage[] = [];
    const seen = new Set<string>([page.id]);
    let cur = page.parent ? this.pageById(page.parent) : undefined;
    while (cur && !seen.has(cur.id)) {
      seen.add(cur.id);
      out.push(cur);
      cur = cur.parent ? this.pageById(cur.parent) : undefined;
    }
    return out;
  }

  /** Site-relative path of a page: the chain of slugs from its top-level ancestor ('' for home). */
  pathOf(page: RawPage): string {
    const slugs: string[] = [];
    let cur: RawPage | undefined = page;
    const seen = new Set<string>();
    while (cur && !seen.has(cur.id)) {
      seen.add(cur.id);
      if (!(cur.slug === 'home' && !cur.parent)) slugs.unshift(cur.slug);
      cur = cur.parent ? this.pageById(cur.parent) : undefined;
    }
    return slugs.length ? `/${slugs.join('/')}` : '';
  }
}

/** Picks the first locale of the ordered list that a localized value has; English last. */
export function pickLocale<T>(value: Localized<T> | undefined, locales: string[]): { lang: string; value: T } | null {
  if (!value) return null;
  const keys = Object.keys(value);
  for (const l of locales) {
    const exact = keys.find((k) => k.toLowerCase() === l.toLowerCase());
    if (exact) return { lang: exact, value: value[exact]! };
    const lang = l.split('-')[0]!.toLowerCase();
    if (value[lang] !== undefined) return { lang, value: value[lang]! };
  }
  const first = keys[0];
  return first ? { lang: first, value: value[first]! } : null;
}

/** A file reference inside module JSON: `{ slug, title, fileName, url, size, locale }`. */
export interface RawFile {
  slug: string;
  fileName: string;
  url: string;
  size: number;
  locale: string;
  title?: unknown;
}

/** Every file referenced anywhere in module JSON (downloads modules or any other module shape). */
export function filesIn(value: unknown, out: RawFile[] = []): RawFile[] {
  if (Array.isArray(value)) {
    for (const v of value) filesIn(v, out);
  } else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.slug === 'string' && typeof o.fileName === 'string' && typeof o.url === 'string') out.push(o as unknown as RawFile);
    else for (const v of Object.values(o)) filesIn(v, out);
  }
  return out;
}
