/**
 * Dates of translation jobs, the same on the server and in the browser (UTC, so both agree). Pure.
 * @example formatStamp('2026-05-01T10:00:00.000Z', 'de-CH') // '01.05.2026, 10:00 UTC'
 */
const formats = new Map<string, Intl.DateTimeFormat>();

export function formatStamp(iso: string | null, locale: string): string {
  if (!iso) return '–';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '–';
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    formats.set(locale, format);
  }
  return `${format.format(date)} UTC`;
}
