/**
 * From prerendered pages to search documents, and the document rules both engines share:
 * brand stripped from titles, whitespace collapsed, one document per page and (site, language),
 * protected pages never indexed, result URLs moved to the searcher's locale.
 */
import type { ContentModule, Page } from '../content/types.ts';
import type { ContentPageModel } from '../../models/content-page.ts';
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
  /** Empty: offered in every country. */
  countries: string[];
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
  };
}

const LOCALE_SEGMENT = /^\/([a-z]{2,3})(?:-([a-z]{2}|\d{3}))?(?=\/|$)/;

/** Whether the URL's first segment is the international locale of its language (`/de/…`, not `/de-ch/…`). */
const isInternationalUrl = (url: string) => {
  const m = LOCALE_SEGMENT.exec(url);
  return !!m && !m[2];
};

/**
 * Groups documents by index key, one per page id: a page prerendered under several locales of one
 * language (`/de/…`, `/de-ch/…`, `/de-de/…`) is one document, its URL the international one when
 * there is one. Results are moved back to the searcher's locale by {@link localizeUrl}.
 */
export function groupDocuments(docs: Iterable<SearchDocument>): Map<string, PreparedDocument[]> {
  const byKey = new Map<string, Map<string, PreparedDocument>>();
  for (const raw of docs) {
    const doc = prepareDocument(raw);
    const key = indexKey(doc.site, doc.language);
    let ids = byKey.get(key);
    if (!ids) {
      ids = new Map();
      byKey.set(key, ids);
    }
    const seen = ids.get(doc.id);
    if (!seen || (!isInternationalUrl(seen.url) && isInternationalUrl(doc.url))) ids.set(doc.id, doc);
  }
  return new Map([...byKey].map(([k, ids]) => [k, [...ids.values()]]));
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

/** Same as {@link documentFromPage}, from a route's `_payload.json` (parsed or as text). */
export function documentFromPayload(payload: ContentPageModel | string, meta: { url: string; siteSlug: string; language: string }): SearchDocument | null {
  const model = (typeof payload === 'string' ? JSON.parse(payload) : payload) as ContentPageModel;
  if (model?.kind !== 'content-page' || !model.page) return null;
  return documentFromPage(model.page, meta);
}
