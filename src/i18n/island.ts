import type { TFunction } from 'i18next';

/*
 * How islands get their UI strings (one convention for every island):
 * - the island module exports `MESSAGE_KEYS`, the locale keys it shows, `as const` (an island that
 *   embeds another spreads that one's keys into its own list);
 * - it takes `messages: IslandMessages<typeof MESSAGE_KEYS>` and reads `messages['basket.title']`;
 * - its Astro wrapper passes `messages={pickMessages(t, MESSAGE_KEYS)}`.
 * Islands never get the whole catalogue. Placeholders (`{{count}}`) stay in the strings; the island
 * fills them with `fill`. This module is safe in the browser (it loads no locale file).
 */

/** UI strings an island gets as a prop: the given keys, translated on the server. */
export type Messages<K extends string> = Record<K, string>;
/** The `messages` prop of an island with the given key list. */
export type IslandMessages<Keys extends readonly string[]> = Messages<Keys[number]>;

/** Translates the keys an island needs, placeholders left for `fill`. */
export function pickMessages<const K extends string>(t: TFunction, keys: readonly K[]): Messages<K> {
  const translate = t as unknown as (key: string) => string;
  return Object.fromEntries(keys.map((k) => [k, translate(k)])) as Messages<K>;
}

/** Fills `{{name}}` placeholders in a translated string; unknown ones stay. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
