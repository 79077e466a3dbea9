import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGraphQLError, createSchema, createYoga } from 'graphql-yoga';
import { idempotencyKeyOf } from '../shared/idempotency.ts';
import { ContentStore, filesIn, pickLocale, type RawFile, type RawLink, type RawNavItem, type RawPage } from './store.ts';
import { svgImage, svgLogo, svgWithScript, tinyPdf } from '../shared/assets.ts';
import { documentThumbnail } from '../catalogue/thumbnail.ts';
import { marketingLogo } from './marketing-logo.ts';
import { editorial } from './editorial.ts';
import { customerArea } from './customer-area.ts';
import { translation } from './translation.ts';
import { forms } from './forms.ts';
import { locations } from './locations.ts';
import type { AddressInfo } from 'node:net';
import { resolveDemoDates } from './demo-dates.ts';

const here = dirname(fileURLToPath(import.meta.url));
const typeDefs = readFileSync(join(here, 'schema.graphql'), 'utf8');

export interface Ctx {
  locales: string[];
  /** The request's Idempotency-Key (null without one; 'malformed' when it is not a key). */
  idempotencyKey?: string | null | 'malformed';
}

/** Helpers the content hub hands to its schema extensions (e.g. editorial content). */
export interface HubHelpers {
  origin: string;
  /** Makes a `/assets/…` URL absolute. */
  abs(url: string): string;
  /** Resolves page ids in links and makes asset URLs absolute, deep. */
  resolveJson(value: unknown, locales: string[], stage?: Stage): unknown;
  store: ContentStore;
  /** Registers more entries that can link files (stories, media releases), for `File.usedBy`. */
  addFileLinks(source: () => Iterable<FileLink>): void;
  /** Where extensions keep what visitors send (the forms store); undefined: in memory. */
  formsDataDir?: string;
  /** Runs `fn` when this hub closes (an extension's per-hub resources). */
  onClose(fn: () => void): void;
}

/** An entry (page, story, media release) and one file its published content links. */
export interface FileLink {
  file: RawFile;
  usage: FileUsage;
}

interface PageAccess {
  id: string;
  protection: number;
  isPublished: boolean;
}

interface FileUsage extends PageAccess {
  type: 'Page' | 'Story' | 'MediaRelease';
  parents: PageAccess[];
}

/** A schema extension: extra type definitions and resolvers merged into the content hub. */
export interface HubExtension {
  typeDefs: string;
  resolvers(h: HubHelpers): Record<string, Record<string, unknown>>;
  close?(): void;
}

const EXTENSIONS: HubExtension[] = [editorial, customerArea, translation, forms, locations];

/** The content hub's whole SDL: `schema.graphql` plus every extension's type definitions (what the emulator serves). */
export const CONTENT_HUB_TYPE_DEFS: string[] = [typeDefs, ...EXTENSIONS.map((e) => e.typeDefs)];

type Stage = 'DRAFT' | 'PUBLISHED';

function localesOf(header: string | null): string[] {
  const list = (header ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return list.length ? list : ['en'];
}

function inStage(page: RawPage, stage: Stage): boolean {
  const stages = page.stages ?? ['PUBLISHED', 'DRAFT'];
  return stages.includes(stage);
}

/** Starts the content hub emulator; resolves once it listens on 127.0.0.1. */
export async function startContentHub(opts: { port: number; dataDir: string; watch?: boolean; quiet?: boolean; formsDataDir?: string }): Promise<{ server: Server; store: ContentStore; url: string }> {
  const store = new ContentStore(opts.dataDir, { watch: opts.watch });
  // Port 0 picks a free port: the origin is known once the server (created below) listens.
  const originOf = () => `http://127.0.0.1:${(server.address() as AddressInfo | null)?.port ?? opts.port}`;
  const abs = (url: string) => (url.startsWith('/') ? `${originOf()}${url}` : url);

  const asset = (a: unknown) => (a && typeof a === 'object' && 'url' in a && typeof a.url === 'string' ? { ...a, url: abs(a.url) } : a);

  // Like a headless CMS, a reference to an entry that is not in the requested stage (a page not
  // published yet, seen from PUBLISHED) resolves to null: its title and path never leave the hub.
  const pageRef = (id: string, locales: string[], stage: Stage = 'PUBLISHED') => {
    const p = store.pageById(id);
    if (!p || !inStage(p, stage)) return null;
    return { id: p.id, path: store.pathOf(p), site: p.site, title: pickLocale(p.content, locales)?.value.title ?? p.slug, countries: p.countries ?? [] };
  };

  /** Deep-copies module JSON, resolving page ids in links and making asset URLs absolute. */
  const resolveJson = (value: unknown, locales: string[], stage: Stage = 'PUBLISHED'): unknown => {
    if (Array.isArray(value)) return value.map((v) => resolveJson(v, locales, stage));
    if (!value || typeof value !== 'object') return value;
    const obj = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) {
      if (k === 'page' && typeof v === 'string') out[k] = pageRef(v, locales, stage);
      else if (k === 'url' && typeof v === 'string' && 'mimeType' in obj) out[k] = abs(v);
      else if (k === 'url' && typeof v === 'string' && 'fileName' in obj) out[k] = abs(v);
      else out[k] = resolveJson(v, locales, stage);
    }
    return out;
  };

  const link = (l: RawLink | null | undefined, locales: string[], stage: Stage = 'PUBLISHED') => {
    if (!l) return null;
    return {
      text: typeof l.text === 'object' && l.text ? pickLocale(l.text, locales)?.value ?? null : l.text ?? null,
      page: typeof l.page === 'string' ? pageRef(l.page, locales, stage) : null,
      path: l.path ?? null,
      url: l.url ?? null,
      productSlug: l.productSlug ?? null,
      serviceSlug: l.serviceSlug ?? null,
      pageParameters: l.pageParameters ?? null,
      openInNewTab: !!l.openInNewTab,
    };
  };

  interface NavItemAnswer {
    id: string;
    title: string;
    locale: string;
    link: ReturnType<typeof link>;
    countries: string[];
    hidden: boolean;
    hideSubItems: boolean;
    breadcrumbOverride: string | null;
    marketingSection: { logo: { url: string; mimeType: string; alternativeText: string | null } | null; backgroundColor: string; link: ReturnType<typeof link> } | null;
    items: NavItemAnswer[];
  }
  // Like the CMS: a section's colour defaults to Dark_White; its logo's alternative text is localized.
  const marketingSection = (m: RawNavItem['marketingSection'], locales: string[], stage: Stage): NavItemAnswer['marketingSection'] => {
    if (!m) return null;
    const alt = m.logo?.alternativeText;
    return {
      logo: m.logo ? { url: abs(m.logo.url), mimeType: m.logo.mimeType, alternativeText: typeof alt === 'object' && alt ? pickLocale(alt, locales)?.value ?? null : alt ?? null } : null,
      backgroundColor: m.backgroundColor || 'Dark_White',
      link: link(m.link, locales, stage),
    };
  };
  const navItem = (item: RawNavItem, locales: string[], stage: Stage): NavItemAnswer => {
    const title = pickLocale(item.title, locales);
    return {
    id: item.id,
    title: title?.value ?? '',
    locale: title?.lang ?? 'en',
    link: link(item.link, locales, stage),
    countries: item.countries ?? [],
    hidden: !!item.hidden,
    hideSubItems: !!item.hideSubItems,
    breadcrumbOverride: item.breadcrumbOverride ? pickLocale(item.breadcrumbOverride, locales)?.value ?? null : null,
    marketingSection: marketingSection(item.marketingSection, locales, stage),
    items: (item.items ?? []).map((i) => navItem(i, locales, stage)),
    };
  };

  const page = (p: RawPage, stage: Stage, locales: string[]) => {
    const source = stage === 'DRAFT' && p.draft ? { ...p.content, ...p.draft } : p.content;
    const picked = pickLocale(source, locales);
    if (!picked) return null;
    return {
      id: p.id,
      site: p.site,
      mainSiteOnly: !!p.mainSiteOnly,
      slug: p.slug,
      path: store.pathOf(p),
      pageType: p.pageType ?? 'Content',
      type: p.type ?? null,
      cmsType: 'Page',
      injection: p.injection ?? null,
      branch: p.branch ?? null,
      theme: p.theme ?? 'Default',
      countries: p.countries ?? [],
      protection: p.protection ?? 0,
      parents: store.parentsOf(p).map(access),
      languages: Object.keys(p.content),
      contentLanguage: picked.lang,
      // Upcoming dates are answered relative to today (demo-dates.ts), so the demo never shows a past event as upcoming.
      title: resolveDemoDates(picked.value.title, picked.lang),
      description: resolveDemoDates(picked.value.description ?? null, picked.lang),
      modules: resolveDemoDates(resolveJson(picked.value.modules ?? [], locales, stage), picked.lang),
      updatedAt: p.updatedAt ?? '2026-01-01T00:00:00.000Z',
      isPublished: inStage(p, 'PUBLISHED'),
    };
  };

  const access = (p: RawPage): PageAccess => ({ id: p.id, protection: p.protection ?? 0, isPublished: inStage(p, 'PUBLISHED') });

  // Pages link files from their published content (a page's draft overlay is not published).
  const fileSources: (() => Iterable<FileLink>)[] = [function* pageFiles() {
    for (const p of store.data.pages) {
      const usage: FileUsage = { ...access(p), type: 'Page', parents: store.parentsOf(p).map(access) };
      for (const c of Object.values(p.content)) for (const file of filesIn(c.modules)) yield { file, usage };
    }
  }];

  const closers: (() => void)[] = [];
  const helpers: HubHelpers = {
    get origin() { return originOf(); }, abs, resolveJson, store,
    addFileLinks: (source) => { fileSources.push(source); },
    formsDataDir: opts.formsDataDir,
    onClose: (fn) => { closers.push(fn); },
  };
  const extra = EXTENSIONS.map((e) => e.resolvers(helpers));
  const schema = createSchema<Ctx>({
    typeDefs: CONTENT_HUB_TYPE_DEFS,
    resolvers: [...extra, {
      Query: {
        systemData: () => {
          const s = store.data.system;
          return {
            contentLocales: s.contentLocales ?? ['en'],
            languages: s.languages,
            countries: s.countries,
            brands: s.brands.map((b) => ({ ...b, image: asset(b.image) })),
            sites: s.sites.map((site) => ({ mainSiteOnly: false, addLanguages: [], dropLanguages: [], defaultLanguage: null, ...site })),
          };
        },
        headerNavigation: (_: unknown, { id, stage }: { id: string; stage: Stage }, ctx: Ctx) => {
          const nav = store.data.navigation.find((n) => n.id === id && n.kind === 'header');
          if (!nav) return null;
          return {
            id: nav.id, theme: nav.theme ?? 'Default', hidden: !!nav.hidden,
            homeItems: (nav.homeItems ?? []).map((i) => navItem(i, ctx.locales, stage)),
            topItems: (nav.topItems ?? []).map((i) => navItem(i, ctx.locales, stage)),
          };
        },
        footerNavigation: (_: unknown, { id, stage }: { id: string; stage: Stage }, ctx: Ctx) => {
          const nav = store.data.navigation.find((n) => n.id === id && n.kind === 'footer');
          if (!nav) return null;
          return {
            id: nav.id, theme: nav.theme ?? 'Default',
            contactLink: link(nav.contactLink, ctx.locales, stage),
            navigationSections: (nav.navigationSections ?? []).map((s) => ({
              id: s.id, title: pickLocale(s.title, ctx.locales)?.value ?? '', locale: pickLocale(s.title, ctx.locales)?.lang ?? 'en',
              items: (s.items ?? []).map((i) => navItem(i, ctx.locales, stage)),
            })),
          };
        },
        pageByPath: (_: unknown, a: { site: string; path: string; stage: Stage }, ctx: Ctx) => {
          const want = a.path === '/' ? '' : a.path.replace(/\/+$/, '');
          const candidates = store.data.pages.filter((p) => (p.site === a.site || p.site === null) && inStage(p, a.stage) && store.pathOf(p) === want);
          // A site's own page wins over a global page at the same path.
          const hit = candidates.find((p) => p.site === a.site) ?? candidates[0];
          return hit ? page(hit, a.stage, ctx.locales) : null;
        },
        pagesById: (_: unknown, a: { ids: string[]; stage: Stage }, ctx: Ctx) =>
          a.ids.map((id) => store.pageById(id)).filter((p): p is RawPage => !!p && inStage(p, a.stage)).map((p) => page(p, a.stage, ctx.locales)).filter(Boolean),
        pages: (_: unknown, a: { site?: string | null; stage: Stage }, ctx: Ctx) =>
          store.data.pages.filter((p) => (!a.site || p.site === a.site || p.site === null) && inStage(p, a.stage)).map((p) => page(p, a.stage, ctx.locales)).filter(Boolean),
        systemRedirects: (_: unknown, a: { previousUrls: string[] }) => {
          const wanted = new Set(a.previousUrls);
          return store.data.redirects.filter((r) => wanted.has(r.previousUrl) || wanted.has(r.previousUrl.split('#')[0]!));
        },
        allSystemRedirects: () => store.data.redirects,
        // The secret half of a page's protection, kept out of `Page` (see schema.graphql).
        pageProtection: (_: unknown, a: { id: string; stage: Stage }) => {
          const p = store.pageById(a.id);
          if (!p || !inStage(p, a.stage)) return null;
          const protection = p.protection ?? 0;
          return { id: p.id, protection, passwordHash: protection === 1 ? p.passwordHash ?? null : null, requiredRole: protection === 2 ? p.requiredRole ?? null : null };
        },
        file: (_: unknown, a: { slug: string; locale?: string | null }) => {
          const found: RawFile[] = [];
          const usedBy = new Map<string, FileUsage>();
          for (const source of fileSources) {
            for (const { file, usage } of source()) {
              if (file.slug !== a.slug) continue;
              found.push(file);
              usedBy.set(`${usage.type}:${usage.id}`, usage);
            }
          }
          const hit = found.find((f) => f.locale === (a.locale ?? 'en')) ?? found[0];
          return hit ? { slug: hit.slug, fileName: hit.fileName, size: hit.size, locale: hit.locale, url: abs(hit.url), usedBy: [...usedBy.values()] } : null;
        },
      },
      Mutation: {
        updatePageTitle: (_: unknown, a: { id: string; language: string; title: string }, ctx: Ctx) => {
          const p = store.pageById(a.id);
          if (!p) throw createGraphQLError(`No page with id ${a.id}`, { extensions: { code: 'BAD_USER_INPUT' } });
          const c = p.content[a.language];
          if (!c) throw createGraphQLError(`Page ${a.id} has no ${a.language} content`, { extensions: { code: 'BAD_USER_INPUT' } });
          c.title = a.title;
          p.updatedAt = new Date().toISOString();
          return page(p, 'PUBLISHED', [a.language, ...ctx.locales]);
        },
        createPage: (_: unknown, a: { site: string; slug: string; language: string; title: string; text: string }, ctx: Ctx) => {
          if (!store.data.system.sites.some((s) => s.id === a.site)) throw createGraphQLError(`No site with id ${a.site}`, { extensions: { code: 'BAD_USER_INPUT' } });
          const id = `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`.padEnd(25, '0').slice(0, 25);
          const p: RawPage = {
            id, site: a.site, parent: null, slug: a.slug, stages: ['PUBLISHED', 'DRAFT'], updatedAt: new Date().toISOString(),
            content: { [a.language]: { title: a.title, description: a.text, modules: [{ type: 'richText', title: a.title, blocks: [{ kind: 'paragraph', text: a.text }] }] } },
          };
          store.data.pages.push(p);
          return page(p, 'PUBLISHED', [a.language, ...ctx.locales]);
        },
      },
    }],
  });

  const yoga = createYoga<Ctx>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: opts.quiet ? false : 'warn',
    context: ({ request }) => ({ locales: localesOf(request.headers.get('x-content-locales')), idempotencyKey: idempotencyKeyOf(request.headers) }),
  });

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', originOf());
    if (url.pathname.startsWith('/assets/img/') && url.pathname.endsWith('.svg')) {
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' });
      const name = url.pathname.slice('/assets/img/'.length, -4);
      res.end(name.startsWith('brand-') ? svgLogo(name) : svgImage(name));
      return;
    }
    // Logos of the navigation's marketing sections (`--light`: for a dark background).
    const logo = /^\/assets\/logos\/([a-z0-9-]{1,80}?)(--light)?\.svg$/.exec(url.pathname);
    if (logo) {
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' });
      res.end(marketingLogo(logo[1]!, logo[2] ? 'light' : 'dark'));
      return;
    }
    // Document thumbnails (the annual report's first page), as the catalogue serves them.
    const thumb = /^\/assets\/thumbs\/([a-z0-9-]{1,80})\.svg$/.exec(url.pathname);
    if (thumb) {
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=86400' });
      res.end(documentThumbnail(thumb[1]!));
      return;
    }
    if (url.pathname === '/assets/unsafe/script.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end(svgWithScript());
      return;
    }
    if (url.pathname.startsWith('/assets/files/') && url.pathname.endsWith('.pdf')) {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(tinyPdf(url.pathname.slice('/assets/files/'.length, -4)));
      return;
    }
    // Stand-ins for the third-party scripts (cookie consent, monitoring): they only record that they ran.
    const thirdParty = /^\/assets\/scripts\/(consent|monitoring)\.js$/.exec(url.pathname);
    if (thirdParty) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      res.end(`(window.__thirdParty = window.__thirdParty || []).push(${JSON.stringify(thirdParty[1])});`);
      return;
    }
    if (url.pathname === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    yoga(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve());
  });
  server.on('close', () => { store.close(); for (const e of EXTENSIONS) e.close?.(); for (const fn of closers) fn(); });
  return { server, store, url: `${originOf()}/graphql` };
}
