/**
 * From prerendered pages to search documents, and the document rules both engines share:
 * brand stripped from titles, whitespace collapsed, one document per page and (site, language),
 * protected pages never indexed, result URLs moved to the searcher's locale.
 */
import type { ContentModule, Page } from '../content/types.ts';
import { isLanguage, type Language } from './analysis.ts';
import { collapseWhitespace, stripBrand } from './highlight.ts';
import { SearchError, type SearchDocument } from './types.ts';

/** A document as the engines index it. */
export interface PreparedDocument {
  id: string;
  url: string;
  /** Without ` | {brand}`. */
  title: string;
  description: string;
  body: string;
  site: string;
  language: Language;
  /** Empty: offered in every country; `['ALL']`: only in the international locale. */
  countries: string[];
  /** Whether `countries` was given (else it is inferred by {@link groupDocuments}). */
  explicitCountries: boolean;
}

const SITE_SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Whether `s` is a usable site slug (`''` is the main site). */
export const isSiteSlug = (s: unknown): s is string => typeof s === 'string' && (s === '' || SITE_SLUG.test(s));

/**
 * The search key of a site: `''` for the main site, else its slug, or — for a site on its own
 * domain, whose slug is empty like the main site's — its technical name. Use the same key when
 * indexing (SearchDocument.site) and when searching (siteSlug), or two sites share one index.
 */
export function searchSiteKey(site: { isMain: boolean; slug: string; technicalName: string }): string {
  return site.isMain ? '' : site.slug || site.technicalName;
}

/** The key of one index: `_main/de`, `brand-portal/en`. Also its file path below the index folder. */
export function indexKey(site: string, language: Language): string {
  return `${site || '_main'}/${language}`;
}

/** Normalizes a document for indexing; throws a SearchError (`build`) for an unusable one. */
export function prepareDocument(doc: SearchDocument): PreparedDocument {
  const language = doc.locale.toLowerCase().split(/[-_]/)[0] ?? '';
  if (!isLanguage(language)) throw new SearchError('build', `Document ${doc.id}: unsupported language "${doc.locale}"`);
  if (!isSiteSlug(doc.site)) throw new SearchError('build', `Document ${doc.id}: malformed site slug "${doc.site}"`);
  if (!doc.id) throw new SearchError('build', `Document at ${doc.url}: missing id`);
  return {
    id: String(doc.id),
    url: doc.url,
    title: stripBrand(collapseWhitespace(doc.title ?? '')),
    description: collapseWhitespace(doc.description ?? ''),
    body: collapseWhitespace(doc.body ?? ''),
    site: doc.site,
    language,
    countries: (doc.countries ?? []).map((c) => c.toUpperCase()),
    explicitCountries: doc.countries !== undefined,
  };
}

const LOCALE_SEGMENT = /^\/([a-z]{2,3})(?:-([a-z]{2}|\d{3}))?(?=\/|$)/;

/** The country of a URL's locale segment (`/de-ch/…` → `CH`), null for the international locale or no locale. */
function urlCountry(url: string): string | null {
  const m = LOCALE_SEGMENT.exec(url);
  return m?.[2] ? m[2].toUpperCase() : null;
}

/**
 * Groups documents by index key, one per page id: a page prerendered under several locales of one
 * language (`/de/…`, `/de-ch/…`, `/de-de/…`) is one document, its URL the international one when
 * there is one. Results are moved back to the searcher's locale by {@link localizeUrl}.
 *
 * Without explicit `countries`, a page's countries are those of the locales it came under: offered
 * under every country locale of its (site, language) seen in the build, it is offered everywhere;
 * otherwise only in the countries seen (`['ALL']` when only the international locale had it).
 */
export function groupDocuments(docs: Iterable<SearchDocument>): Map<string, PreparedDocument[]> {
  interface Entry { doc: PreparedDocument; seen: Set<string> }
  const byKey = new Map<string, { ids: Map<string, Entry>; countries: Set<string> }>();
  for (const raw of docs) {
    const doc = prepareDocument(raw);
    const key = indexKey(doc.site, doc.language);
    let group = byKey.get(key);
    if (!group) {
      group = { ids: new Map(), countries: new Set() };
      byKey.set(key, group);
    }
    const country = urlCountry(doc.url);
    if (country) group.countries.add(country);
    const entry = group.ids.get(doc.id);
    if (!entry) {
      group.ids.set(doc.id, { doc, seen: new Set(country ? [country] : []) });
      continue;
    }
    if (country) entry.seen.add(country);
    if (urlCountry(entry.doc.url) !== null && country === null) entry.doc = { ...doc, countries: entry.doc.explicitCountries ? entry.doc.countries : doc.countries, explicitCountries: entry.doc.explicitCountries || doc.explicitCountries };
  }
  const out = new Map<string, PreparedDocument[]>();
  for (const [key, group] of byKey) {
    out.set(key, [...group.ids.values()].map(({ doc, seen }) => {
      if (doc.explicitCountries || [...group.countries].every((c) => seen.has(c))) return doc;
      return { ...doc, countries: seen.size ? [...seen].sort() : ['ALL'] };
    }));
  }
  return out;
}

/**
 * `/de/produkte/x` for a search from `de-CH` → `/de-ch/produkte/x`. URLs whose first segment is not
 * a locale of the document's language are returned as they are.
 */
export function localizeUrl(url: string, language: Language, localeCode: string): string {
  const m = LOCALE_SEGMENT.exec(url);
  if (!m || m[1] !== language) return url;
  const target = localeCode.trim().toLowerCase().replace('_', '-');
  return `/${target}${url.slice(m[0].length)}`;
}

/** Whether a document is offered in `country` (no country: the international view sees everything). */
export const offeredIn = (countries: readonly string[] | undefined, country: string | undefined): boolean =>
  !country || !countries || countries.length === 0 || countries.includes(country);

// ---------------------------------------------------------------------------------------------
// From the prerender's page model

/** The plain text of a page's modules, block by block. */
export function pageBodyText(modules: readonly ContentModule[]): string {
  const parts: (string | null | undefined)[] = [];
  for (const m of modules) {
    switch (m.type) {
      case 'hero':
        parts.push(m.overline, m.title, m.text);
        break;
      case 'richText':
        parts.push(m.title);
        for (const b of m.blocks) parts.push(...(b.kind === 'list' ? b.items : [b.text]));
        break;
      case 'imageText':
        parts.push(m.title, ...m.text);
        break;
      case 'teaserGrid':
        parts.push(m.title);
        for (const i of m.items) parts.push(i.title, i.text);
        break;
      case 'callToAction':
        parts.push(m.title, m.text);
        break;
      case 'video':
        parts.push(m.title, m.caption);
        break;
      case 'accordion':
        parts.push(m.title);
        for (const i of m.items) parts.push(i.title, i.text);
        break;
      case 'downloads':
        parts.push(m.title, ...m.files.map((f) => f.title));
        break;
      case 'quote':
        parts.push(m.text, m.author, m.role);
        break;
    }
  }
  return parts.filter((p): p is string => !!p && p.trim() !== '').join('\n');
}

export type IndexablePage = Pick<Page, 'id' | 'title' | 'description' | 'modules' | 'protection' | 'isPublished' | 'countries'>;

/**
 * The search document of a prerendered page, or null for a page that must not be searchable
 * (protected or unpublished). `url` is the route path (`/de-ch/brand-portal/logos`), `siteSlug`
 * the site's slug (`''` for the main site), `language` the route locale's language.
 */
export function documentFromPage(page: IndexablePage, meta: { url: string; siteSlug: string; language: string }): SearchDocument | null {
  if (page.protection !== 0 || !page.isPublished) return null;
  return {
    id: page.id,
    url: meta.url,
    title: page.title,
    description: page.description ?? '',
    body: pageBodyText(page.modules),
    site: meta.siteSlug,
    locale: meta.language,
    countries: page.countries,
  };
}

/** The part of a content page's route model (its `_payload.json`) a search document is made from. */
export interface ContentPagePayload {
  kind: string;
  page: Page | null;
}

/** Same as {@link documentFromPage}, from a route's `_payload.json` (parsed or as text). */
export function documentFromPayload(payload: ContentPagePayload | string, meta: { url: string; siteSlug: string; language: string }): SearchDocument | null {
  const model = (typeof payload === 'string' ? JSON.parse(payload) : payload) as ContentPagePayload;
  if (model?.kind !== 'content-page' || !model.page) return null;
  return documentFromPage(model.page, meta);
}
