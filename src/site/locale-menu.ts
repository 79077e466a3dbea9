import type { Locale, Site, SystemData } from './types.ts';
import { ALL_COUNTRY, localizedNameOf, makeLocale, siteLanguages } from './locale.ts';
import { localizedPath } from './paths.ts';

export interface LocaleMenuGroup {
  countryCode: string;
  /** Country name in the page's language ('' for the international group: the caller labels it). */
  name: string;
  /** The language `name` is written in (an English fallback in a Japanese menu is "en"); null when unknown. */
  nameLanguage: string | null;
  options: { locale: Locale; href: string; label: string; current: boolean }[];
}

/**
 * The language-and-region menu: the international languages first, then every visible country
 * with the site languages it supports. Links keep the current page path where the page is
 * offered: `offeredIn` lists the countries it is offered in (null: all, the international ones
 * always); another country's options lead to that locale's home instead of a 404.
 */
export function localeMenu(site: Site, system: Pick<SystemData, 'languages' | 'countries'>, current: Locale, pagePath: string, offeredIn: readonly string[] | null = null): LocaleMenuGroup[] {
  const langs = siteLanguages(site, system.languages);
  const label = (lang: string) => languageEndonym(lang);
  const offered = (l: Locale) => offeredIn === null || l.isInternational || offeredIn.includes(l.country);
  const option = (l: Locale) => ({ locale: l, href: localizedPath(site, l, offered(l) ? pagePath : ''), label: label(l.language), current: l.code === current.code });
  const groups: LocaleMenuGroup[] = [{ countryCode: ALL_COUNTRY, name: '', nameLanguage: null, options: langs.map((l) => option(makeLocale(l, null))) }];
  if (site.internationalOnly) return groups;
  for (const c of system.countries) {
    if (c.hidden) continue;
    const supported = c.supportedLanguages.filter((l) => langs.includes(l));
    if (supported.length === 0) continue;
    const { name, language } = localizedNameOf(c.localizations, current, c.countryCode);
    groups.push({ countryCode: c.countryCode, name, nameLanguage: language, options: supported.map((l) => option(makeLocale(l, c.countryCode))) });
  }
  return groups;
}

const displayNames = new Map<string, Intl.DisplayNames>();
/** Intl.DisplayNames are costly to make and a page names dozens of languages: keep one per locale. */
function namesIn(locale: string): Intl.DisplayNames {
  let names = displayNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'language' });
    displayNames.set(locale, names);
  }
  return names;
}

const endonyms = new Map<string, string>();
/** A language's name in that language ('Deutsch', 'Français', '日本語'). */
export function languageEndonym(language: string): string {
  let name = endonyms.get(language);
  if (name === undefined) {
    try {
      const raw = namesIn(language).of(language);
      name = raw ? raw.charAt(0).toLocaleUpperCase(language) + raw.slice(1) : language;
    } catch {
      name = language;
    }
    endonyms.set(language, name);
  }
  return name;
}

/** A language's name in the page's language ('German' on an English page). */
export function languageName(language: string, inLanguage: string): string {
  try {
    return namesIn(inLanguage).of(language) ?? language;
  } catch {
    return language;
  }
}
