import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UI_LANGUAGES } from '../site/locale.ts';
import { fixedT, formatLocale, messagesFor, TranslationFileError, uiLanguage, type MessageKey } from './index.ts';

const localesDir = join(dirname(fileURLToPath(import.meta.url)), '../../locales');
const en = messagesFor('en');
const others = UI_LANGUAGES.filter((l) => l !== 'en');
const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]!).sort();

describe('translation files', () => {
  it('exist for exactly the 11 interface languages', () => {
    expect([...UI_LANGUAGES].sort()).toEqual(['cs', 'de', 'en', 'es', 'fr', 'hu', 'ja', 'pt', 'ro', 'sk', 'zh']);
    const files = readdirSync(localesDir).filter((f) => f.endsWith('.json')).map((f) => f.replace(/\.json$/, '')).sort();
    expect(files).toEqual([...UI_LANGUAGES].sort());
  });

  it('are the files the app bundles', () => {
    for (const lang of UI_LANGUAGES) {
      expect(messagesFor(lang), lang).toEqual(JSON.parse(readFileSync(join(localesDir, `${lang}.json`), 'utf8')));
    }
  });

  it('are flat: every value is a non-empty string', () => {
    for (const lang of UI_LANGUAGES) {
      for (const [key, value] of Object.entries(messagesFor(lang))) {
        expect(typeof value, `${lang}: ${key}`).toBe('string');
        expect(value.trim(), `${lang}: ${key}`).not.toBe('');
      }
    }
  });

  it.each(others)('%s has exactly the keys of en', (lang) => {
    const keys = Object.keys(messagesFor(lang));
    expect(Object.keys(en).filter((k) => !keys.includes(k)), `missing in ${lang}.json`).toEqual([]);
    expect(keys.filter((k) => !(k in en)), `not in en.json`).toEqual([]);
  });

  it.each(others)('%s keeps every {{placeholder}} of en', (lang) => {
    const messages = messagesFor(lang);
    const missing = Object.entries(en)
      .filter(([key]) => key in messages)
      .flatMap(([key, text]) => placeholders(text).filter((p) => !placeholders(messages[key]!).includes(p)).map((p) => `${key}: {{${p}}}`));
    expect(missing).toEqual([]);
  });
});

describe('messagesFor', () => {
  it('throws the spec message for a missing file', () => {
    expect(() => messagesFor('xx')).toThrow(TranslationFileError);
    expect(() => messagesFor('xx')).toThrow('Translation file for language xx not found.');
  });

  it('reads from the given source', () => {
    expect(messagesFor('de', { de: { a: 'b' } })).toEqual({ a: 'b' });
    expect(() => messagesFor('en', {})).toThrow('Translation file for language en not found.');
  });
});

describe('fixedT', () => {
  it('translates into its own language and fills placeholders', () => {
    const key = (Object.keys(en) as MessageKey[]).find((k) => placeholders(en[k]!).length > 0)!;
    const values: Record<string, unknown> = Object.fromEntries(placeholders(en[key]!).map((p) => [p, `<${p}>`]));
    const text = fixedT('en')(key, values);
    for (const p of placeholders(en[key]!)) expect(text).toContain(`<${p}>`);
    expect(text).not.toContain('{{');
  });

  it('keeps two languages apart', () => {
    const key = (Object.keys(en) as MessageKey[]).find((k) => messagesFor('de')[k] !== en[k])!;
    expect(fixedT('de')(key)).toBe(messagesFor('de')[key]);
    expect(fixedT('en')(key)).toBe(en[key]);
  });

  it('takes only the keys of locales/en.json: tsc fails on any other', () => {
    const t = fixedT('en');
    expect(t('site.skipToContent')).toBe(en['site.skipToContent']);
    // @ts-expect-error 'no.such.key' is not a key of locales/en.json (tsc reports an unused directive if t took it).
    expect(t('no.such.key')).toBe('no.such.key');
  });

  it('gives each set of option values its own text, however often it is asked (lookups are remembered)', () => {
    const t = fixedT('en');
    const overview = (title: unknown) => t('header.overview', { title } as never);
    for (let i = 0; i < 3; i++) {
      expect(overview('Products')).toBe('Products overview');
      expect(overview('Services')).toBe('Services overview');
      // Values that would read alike when simply joined stay apart.
      expect(overview('a|5:titles1:b')).toBe('a|5:titles1:b overview');
      expect(overview(7)).toBe('7 overview');
      expect(overview('7')).toBe('7 overview');
      expect(t('header.overview', { title: 'X', other: 'Y' } as never)).toBe('X overview');
    }
    // An object value is never remembered (it may change between calls).
    const title = { toString: () => 'First' };
    expect(overview(title)).toBe('First overview');
    title.toString = () => 'Second';
    expect(overview(title)).toBe('Second overview');
  });

  it('throws for a language without a file', () => {
    expect(() => fixedT('xx')).toThrow('Translation file for language xx not found.');
  });
});

describe('uiLanguage', () => {
  it('is the language itself when supported, else English', () => {
    expect(uiLanguage('ja')).toBe('ja');
    expect(uiLanguage('it')).toBe('en');
  });
});

describe('formatLocale', () => {
  it('formats German as de-CH', () => {
    expect(formatLocale('de')).toBe('de-CH');
    expect(formatLocale('de', 'DE')).toBe('de-CH');
  });

  it('uses language and country, or the language alone for ALL', () => {
    expect(formatLocale('fr', 'CH')).toBe('fr-CH');
    expect(formatLocale('fr', 'ALL')).toBe('fr');
    expect(formatLocale('en')).toBe('en');
  });
});
