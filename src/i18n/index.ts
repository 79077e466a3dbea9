import i18next, { type TFunction } from 'i18next';
import type en from '../../locales/en.json';
import { UI_LANGUAGES, uiLanguage, type UiLanguage } from '../site/locale.ts';

export type Messages = Record<string, string>;
/** A key of the interface strings (locales/en.json is the source); `t` takes only these (src/i18n/i18next.d.ts). */
export type MessageKey = keyof typeof en;
export { uiLanguage, type UiLanguage };

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

const fixed = new Map<string, TFunction>();
/** Remembered lookups with options per language, up to this many (then forgotten at once). */
const WITH_OPTIONS_LIMIT = 5000;

/**
 * The cache key of a lookup whose options are all plain values (interpolations, `count`), else
 * null (not remembered): the same key with the same values always gives the same text.
 */
function optionsKey(key: string, options: unknown): string | null {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return null;
  let out = key;
  for (const [k, v] of Object.entries(options)) {
    if (k === 'returnObjects' || k === 'postProcess') return null;
    const type = typeof v;
    if (type !== 'string' && type !== 'number' && type !== 'boolean' && v !== undefined) return null;
    const text = String(v);
    // Length-prefixed: no value can pass for another option.
    out += `|${k.length}:${k}${type[0]}${text.length}:${text}`;
  }
  return out;
}

/**
 * A `t` fixed to one language, safe under concurrent requests (no global language switch).
 * Lookups are remembered (plain ones, and those whose options are plain values): a page asks for
 * the same few hundred strings every render, the prerender asks for them 10,000 times.
 */
export function fixedT(language: string): TFunction {
  let t = fixed.get(language);
  if (!t) {
    messagesFor(language);
    // The wrapper passes keys through unchanged; its callers' keys are checked by TFunction's type.
    const base = instance.getFixedT(language) as unknown as (key: string | string[], options?: unknown) => string;
    const plain = new Map<string, string>();
    const withOptions = new Map<string, string>();
    t = ((key: string | string[], options?: unknown) => {
      if (typeof key !== 'string') return base(key, options);
      if (options !== undefined) {
        const k = optionsKey(key, options);
        if (k === null) return base(key, options);
        let value = withOptions.get(k);
        if (value === undefined) {
          value = base(key, options);
          if (withOptions.size >= WITH_OPTIONS_LIMIT) withOptions.clear();
          withOptions.set(k, value);
        }
        return value;
      }
      let value = plain.get(key);
      if (value === undefined) {
        value = base(key);
        plain.set(key, value);
      }
      return value;
    }) as unknown as TFunction;
    fixed.set(language, t);
  }
  return t;
}

/** Intl locale for formatting: German is formatted as de-CH (spec §9). */
export function formatLocale(language: string, country?: string): string {
  if (language === 'de') return 'de-CH';
  return country && country !== 'ALL' ? `${language}-${country}` : language;
}

export type { TFunction };
