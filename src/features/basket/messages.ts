import type { TFunction } from 'i18next';
import type { MessageKey } from '../../i18n/index.ts';

/** UI strings an island gets as a prop: the given keys, translated on the server. */
export type Messages<K extends string> = Record<K, string>;

/** Translates the keys an island needs (islands get their strings as props, never the whole catalogue). */
export function pickMessages<K extends MessageKey>(t: TFunction, keys: readonly K[]): Messages<K> {
  const translate = (key: MessageKey): string => t(key);
  return Object.fromEntries(keys.map((k) => [k, translate(k)])) as Messages<K>;
}

/** Fills `{{name}}` placeholders in a translated string. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
