import type { Locale, Site, SystemData } from './types.ts';
import { makeLocale, siteLocales } from './locale.ts';
import { localizedPath } from './paths.ts';

export interface Alternate {
  hreflang: string;
  href: string;
}

/**
 * hreflang alternates of a page: every locale of the site whose language the page exists in and
 * whose country it is offered in (`countries`, empty: all; the international locales always),
 * plus x-default (English international, else the first language the page has).
 */
export function alternateLinks(site: Site, system: Pick<SystemData, 'languages' | 'countries'>, page: { languages: string[]; path: string; countries?: readonly string[] | null }, origin: string): Alternate[] {
  const offered = (l: Locale) => l.isInternational || !page.countries?.length || page.countries.includes(l.country);
  const locales = siteLocales(site, system).filter((l) => page.languages.includes(l.language) && offered(l));
  const out = locales.map((l) => ({ hreflang: l.code, href: `${origin}${localizedPath(site, l, page.path)}` }));
  const def = locales.find((l) => l.isInternational && l.language === 'en') ?? locales.find((l) => l.isInternational);
  if (def) out.push({ hreflang: 'x-default', href: `${origin}${localizedPath(site, def, page.path)}` });
  return out;
}

/**
 * The canonical URL: the page itself, or — when it is shown in a fallback language — the page in
 * its content language at the international locale, so search engines index each text once.
 */
export function canonicalUrl(site: Site, locale: Locale, page: { contentLanguage: string; path: string }, origin: string): string {
  const target = page.contentLanguage === locale.language ? locale : makeLocale(page.contentLanguage, null);
  return `${origin}${localizedPath(site, target, page.path)}`;
}

/**
 * Where the language banner links each language the page exists in: the current country's
 * variant when that country supports the language, else the international locale.
 */
export function languageBannerLinks(site: Site, locale: Locale, system: Pick<SystemData, 'countries' | 'languages'>, page: { languages: string[]; path: string }, siteLangs: string[]): { language: string; href: string }[] {
  const country = system.countries.find((c) => c.countryCode === locale.country);
  return page.languages
    .filter((lang) => siteLangs.includes(lang))
    .map((lang) => {
      const target = !site.internationalOnly && country?.supportedLanguages.includes(lang) ? makeLocale(lang, country.countryCode) : makeLocale(lang, null);
      return { language: lang, href: localizedPath(site, target, page.path) };
    });
}

/** A page that exists in some languages and was resolved to one of them. */
export interface LocalizedDocument {
  languages: string[];
  /** The countries the document is offered in (empty or absent: all). */
  countries?: readonly string[];
  contentLanguage: string;
  /** Site-relative path: `/stories/x`. */
  path: string;
}

/**
 * Everything a localized page needs for its head and its language banner: canonical URL,
 * hreflang alternates, and — when it is shown in a fallback language — the banner's links.
 */
export function documentLinks(
  req: { site: Site; locale: Locale; system: Pick<SystemData, 'countries' | 'languages'>; languages: string[] },
  doc: LocalizedDocument,
  origin: string,
) {
  const isFallback = doc.contentLanguage !== req.locale.language;
  return {
    isFallback,
    canonical: canonicalUrl(req.site, req.locale, doc, origin),
    alternates: alternateLinks(req.site, req.system, doc, origin),
    banner: isFallback
      ? { requested: req.locale.language, contentLanguage: doc.contentLanguage, links: languageBannerLinks(req.site, req.locale, req.system, doc, req.languages) }
      : null,
  };
}
