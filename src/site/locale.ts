import type { Country, Language, Locale, MeasurementSystem, Site, SystemData } from './types.ts';

export const ALL_COUNTRY = 'ALL';
export const DEFAULT_LANGUAGE = 'en';
/** The interface languages (one file each in locales/): the one list of the languages the platform speaks. */
export const UI_LANGUAGES = ['en', 'cs', 'de', 'es', 'fr', 'hu', 'ja', 'pt', 'ro', 'sk', 'zh'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

/** The interface (and catalogue) language for a content language: itself when supported, else English. */
export function uiLanguage(language: string): UiLanguage {
  return (UI_LANGUAGES as readonly string[]).includes(language) ? (language as UiLanguage) : 'en';
}

const SIS_CODES: Record<string, string> = {
  en: 'en-US', de: 'de-CH', fr: 'fr-FR', zh: 'zh-CN', ja: 'ja-JP', es: 'es-ES',
  pt: 'pt-BR', cs: 'cs-CZ', hu: 'hu-HU', ro: 'ro-RO', sk: 'sk-SK',
};

/** The search-index (SIS) code of a language; `en-US` for any language not listed in the spec. */
/**
 * The `lang` attribute a fragment needs inside a page: its language when that differs from the
 * page's (an English fallback title on a Japanese page gets `lang="en"`), nothing otherwise or
 * when the fragment's language is unknown. Compares languages, not locales ("de" inside "de-CH").
 */
export function langAttr(textLanguage: string | null | undefined, pageLanguage: string): string | undefined {
  if (!textLanguage) return undefined;
  const lang = textLanguage.split('-')[0]!.toLowerCase();
  return lang === pageLanguage.split('-')[0]!.toLowerCase() ? undefined : lang;
}

export function sisCode(language: string): string {
  return SIS_CODES[language.toLowerCase()] ?? 'en-US';
}

const LOCALE_SHAPE = /^([a-z]{2})(?:-([a-z]{2}))?$/i;

/** Splits a path segment shaped like a locale (`de`, `DE`, `de-CH`); null when it is not one. */
export function parseLocaleSegment(segment: string): { language: string; country: string | null } | null {
  const m = LOCALE_SHAPE.exec(segment);
  if (!m) return null;
  return { language: m[1]!.toLowerCase(), country: m[2] ? m[2].toUpperCase() : null };
}

/** Builds a Locale; `country` null means the international locale (country ALL). */
export function makeLocale(language: string, country: string | null): Locale {
  const lang = language.toLowerCase();
  const isInternational = country === null || country.toUpperCase() === ALL_COUNTRY;
  const cc = isInternational ? ALL_COUNTRY : country!.toUpperCase();
  const code = isInternational ? lang : `${lang}-${cc}`;
  return { code, urlCode: code.toLowerCase(), sisCode: sisCode(lang), isInternational, language: lang, country: cc };
}

/** The synthetic country that covers every language (display name All / Alle). */
export function allCountry(languages: Language[]): Country {
  return {
    countryCode: ALL_COUNTRY,
    hidden: false,
    supportedLanguages: languages.map((l) => l.languageCode),
    defaultLanguage: DEFAULT_LANGUAGE,
    defaultMeasurementSystem: 'Metric',
    sortIndex: -1,
    localizations: [
      { locale: 'en', displayName: 'All' },
      { locale: 'de', displayName: 'Alle' },
    ],
  };
}

/**
 * The languages a site offers: the standard languages plus the site's additions, minus what it
 * drops. The rules are data from the content hub.
 */
export function siteLanguages(site: Site, languages: Language[]): string[] {
  const set = new Set(languages.filter((l) => l.standard).map((l) => l.languageCode));
  for (const l of site.addLanguages) set.add(l);
  for (const l of site.dropLanguages) set.delete(l);
  const known = new Set(languages.map((l) => l.languageCode));
  return [...set].filter((l) => known.has(l)).sort();
}

/** The language a site falls back to: its configured default, else English unless dropped, else its first language. */
export function fallbackLanguage(site: Site, languages: Language[]): string {
  const langs = siteLanguages(site, languages);
  if (site.defaultLanguage && langs.includes(site.defaultLanguage)) return site.defaultLanguage;
  return langs.includes(DEFAULT_LANGUAGE) ? DEFAULT_LANGUAGE : (langs[0] ?? DEFAULT_LANGUAGE);
}

export type LocaleCheck =
  | { ok: true; locale: Locale }
  | { ok: false; redirectTo: Locale }
  | { ok: false; redirectTo?: undefined };

/**
 * Checks a parsed locale against a site: the language must be one of the site's, and a country
 * must exist and support it. International-only sites answer a country locale with the
 * language-only locale (a redirect).
 */
export function checkLocale(
  parsed: { language: string; country: string | null },
  site: Site,
  system: Pick<SystemData, 'languages' | 'countries'>,
): LocaleCheck {
  if (!siteLanguages(site, system.languages).includes(parsed.language)) return { ok: false };
  if (parsed.country === null) return { ok: true, locale: makeLocale(parsed.language, null) };
  const country = system.countries.find((c) => c.countryCode === parsed.country);
  if (!country || !country.supportedLanguages.includes(parsed.language)) return { ok: false };
  if (site.internationalOnly) return { ok: false, redirectTo: makeLocale(parsed.language, null) };
  return { ok: true, locale: makeLocale(parsed.language, parsed.country) };
}

/**
 * The locale to send a visitor to when the URL has none: the remembered one if the site offers it
 * (as its language only on international-only sites), else the site's fallback language.
 */
export function preferredLocale(
  remembered: string | undefined,
  site: Site,
  system: Pick<SystemData, 'languages' | 'countries'>,
): Locale {
  const parsed = remembered ? parseLocaleSegment(remembered) : null;
  if (parsed) {
    const check = checkLocale(parsed, site, system);
    if (check.ok) return check.locale;
    if (check.redirectTo) return check.redirectTo;
  }
  return makeLocale(fallbackLanguage(site, system.languages), null);
}

/** Measurement system: the saved choice, else the country's default, else Metric. */
export function measurementSystem(saved: string | undefined, country: Country | undefined): MeasurementSystem {
  if (saved === 'Metric' || saved === 'Imperial') return saved;
  return country?.defaultMeasurementSystem ?? 'Metric';
}

/** A display name from localizations for the wanted locale chain (exact, language, en, first). */
export function localizedName(localizations: { locale: string; displayName: string }[], locale: Locale, fallback: string): string {
  return localizedNameOf(localizations, locale, fallback).name;
}

/**
 * `localizedName` with the language the name is written in (the locale of the localization it
 * came from; null for the fallback, whose language is unknown), for a `lang` attribute.
 */
export function localizedNameOf(localizations: { locale: string; displayName: string }[], locale: Locale, fallback: string): { name: string; language: string | null } {
  const wanted = [locale.code, locale.language, DEFAULT_LANGUAGE].map((l) => l.toLowerCase());
  for (const w of wanted) {
    const hit = localizations.find((l) => l.locale.toLowerCase() === w);
    if (hit) return { name: hit.displayName, language: hit.locale.split('-')[0]!.toLowerCase() };
  }
  const first = localizations[0];
  return first ? { name: first.displayName, language: first.locale.split('-')[0]!.toLowerCase() } : { name: fallback, language: null };
}

/**
 * The ordered locale list sent to the content hub for field fallback: the locale, its language,
 * then English always last. `['de-CH', 'de', 'en']`.
 */
export function contentLocaleChain(locale: Locale, siteFallback = DEFAULT_LANGUAGE): string[] {
  // English is the last resort: the chain ends at its first occurrence (an English page stops there).
  const chain = [...new Set([locale.code, locale.language, siteFallback, DEFAULT_LANGUAGE])];
  return chain.slice(0, chain.indexOf(DEFAULT_LANGUAGE) + 1);
}

/**
 * Every locale a site is offered in: one international locale per site language and, unless
 * the site is international-only, one per visible country and site language it supports.
 */
export function siteLocales(site: Site, system: Pick<SystemData, 'languages' | 'countries'>, opts: { includeHidden?: boolean } = {}): Locale[] {
  const langs = siteLanguages(site, system.languages);
  const out = langs.map((l) => makeLocale(l, null));
  if (site.internationalOnly) return out;
  for (const c of system.countries) {
    if (c.hidden && !opts.includeHidden) continue;
    for (const l of c.supportedLanguages) if (langs.includes(l)) out.push(makeLocale(l, c.countryCode));
  }
  return out;
}

/**
 * A locale chain without the locales the content hub has no content in: `['de-CH', 'de', 'en']`
 * becomes `['de', 'en']` when there is no de-CH content. The answer is the same, and locales
 * sharing a language then share one fetch. Without a locale list the chain is kept.
 */
export function effectiveLocaleChain(chain: string[], contentLocales: string[] | undefined): string[] {
  if (!contentLocales?.length) return chain;
  const known = new Set(contentLocales.map((l) => l.toLowerCase()));
  const kept = chain.filter((l) => known.has(l.toLowerCase()));
  return kept.length ? kept : [DEFAULT_LANGUAGE];
}
