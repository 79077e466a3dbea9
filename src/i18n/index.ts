import i18next, { type TFunction } from 'i18next';
import { UI_LANGUAGES } from '../site/locale.ts';

export type Messages = Record<string, string>;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

// Every locale file is bundled; en is the source of the key set.
const files = import.meta.glob<Messages>('../../locales/*.json', { eager: true, import: 'default' });
const resources: Record<string, Messages> = Object.fromEntries(
  Object.entries(files).map(([path, messages]) => [path.replace(/^.*\/([a-z]{2})\.json$/, '$1'), messages]),
);

export class TranslationFileError extends Error {
  override name = 'TranslationFileError';
}

/** The messages of one interface language; throws when its file is missing. */
export function messagesFor(language: string, source: Record<string, Messages> = resources): Messages {
  const messages = source[language];
  if (!messages) throw new TranslationFileError(`Translation file for language ${language} not found.`);
  return messages;
}

const instance = i18next.createInstance();
void instance.init({
  resources: Object.fromEntries(Object.entries(resources).map(([lng, m]) => [lng, { translation: m }])),
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...UI_LANGUAGES],
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

/** The interface language for a content language: itself when supported, else English. */
export function uiLanguage(language: string): UiLanguage {
  return (UI_LANGUAGES as readonly string[]).includes(language) ? (language as UiLanguage) : 'en';
}

/** A `t` fixed to one language, safe under concurrent requests (no global language switch). */
export function fixedT(language: string): TFunction {
  messagesFor(language);
  return instance.getFixedT(language);
}

/** Intl locale for formatting: German is formatted as de-CH (spec §9). */
export function formatLocale(language: string, country?: string): string {
  if (language === 'de') return 'de-CH';
  return country && country !== 'ALL' ? `${language}-${country}` : language;
}

export type { TFunction };
