/** Domain types of the multi-site model (spec §3). Raw service shapes live in src/lib/. */

export type MeasurementSystem = 'Metric' | 'Imperial';

export interface Localization {
  locale: string;
  displayName: string;
}

export interface Country {
  countryCode: string;
  hidden: boolean;
  supportedLanguages: string[];
  defaultLanguage: string;
  defaultMeasurementSystem: MeasurementSystem;
  sortIndex: number;
  localizations: Localization[];
}

export interface Language {
  languageCode: string;
  defaultCountry: string;
  /** Part of every site's language set unless the site drops it. */
  standard: boolean;
  localizations: Localization[];
}

export interface Domain {
  host: string;
  slug: string | null;
}

export interface Site {
  id: string;
  name: string;
  /** Lowercased name with underscores, e.g. `komax_events_north_america`. */
  technicalName: string;
  /** Empty for the main site and for sites on their own domain. */
  slug: string;
  isMain: boolean;
  internationalOnly: boolean;
  hideSideButtons: boolean;
  enableCutFont: boolean;
  theme: string;
  mainSiteOnly: boolean;
  headerNavigationId: string;
  footerNavigationId: string;
  domains: Domain[];
  /** Special language rules, from the content hub (never keyed on site names in code). */
  addLanguages: string[];
  dropLanguages: string[];
  /** The language for visitors without a remembered locale; English when not set. */
  defaultLanguage?: string | null;
}

export interface ImageAsset {
  url: string;
  mimeType: string;
  alternativeText: string;
}

export interface Brand {
  id: string;
  name: string;
  pimId: string;
  theme: string;
  image: ImageAsset | null;
}

export interface SystemData {
  /** Locales the content hub has content in (its locale list); others always fall back. */
  contentLocales?: string[];
  countries: Country[];
  languages: Language[];
  sites: Site[];
  brands: Brand[];
}

export interface Locale {
  /** `de-CH`, or `de` for the international locale. */
  code: string;
  /** Lowercase form used in URLs: `de-ch`. */
  urlCode: string;
  sisCode: string;
  isInternational: boolean;
  language: string;
  /** Country code, `ALL` for the international locale. */
  country: string;
}
